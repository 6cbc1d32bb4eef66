/** Executors & bindings: online executors, their leases and tools, and each binding's diagnostics with its checks. */

import { useApi } from "../../api/api-context.js";
import { ApiErrorView } from "../../components/api-error-view.js";
import { StatusBadge } from "../../components/status-badge.js";
import { TimeText } from "../../components/time-text.js";
import { useLanguage, useText } from "../../i18n/language.js";
import { useResource } from "../../live/use-resource.js";
import { type BindingView, executorTools, loadExecutorsView } from "./executors-view.js";

/** How often the page refreshes (leases run in seconds). */
const EXECUTORS_POLL_MS = 3000;

/** The page. */
export function ExecutorsPage() {
  const client = useApi();
  const t = useText();
  const view = useResource(() => loadExecutorsView(client), "executors", { pollMs: EXECUTORS_POLL_MS });
  const data = view.data;
  return (
    <section aria-labelledby="executors-title">
      <h1 id="executors-title">{t("executors.title")}</h1>
      <p className="intro">{t("executors.intro")}</p>
      <ApiErrorView error={view.error} />
      {data === undefined && view.error === undefined && <p>{t("common.loading")}</p>}
      {data !== undefined && (
        <>
          {data.executors.length === 0 ? (
            <p>{t("executors.none")}</p>
          ) : (
            <table className="list" data-testid="executors-table">
              <thead>
                <tr>
                  <th scope="col">{t("executors.executor")}</th>
                  <th scope="col">{t("runs.status")}</th>
                  <th scope="col">{t("executors.bindings")}</th>
                  <th scope="col">{t("executors.tools")}</th>
                  <th scope="col">{t("executors.epoch")}</th>
                  <th scope="col">{t("executors.heartbeat")}</th>
                  <th scope="col">{t("executors.lease")}</th>
                </tr>
              </thead>
              <tbody>
                {data.executors.map((executor) => {
                  const tools = executorTools(executor, data.bindings);
                  return (
                    <tr key={executor.executor_id} data-testid={`executor-${executor.executor_id}`}>
                      <th scope="row">
                        <code>{executor.executor_id}</code>
                      </th>
                      <td>
                        <StatusBadge
                          status={executor.online ? "online" : "offline"}
                          label={executor.online ? t("executors.online") : t("executors.offline")}
                        />
                      </td>
                      <td>
                        {executor.binding_ids.map((id) => (
                          <code key={id} className="chip">
                            {id}
                          </code>
                        ))}
                      </td>
                      <td>
                        {tools.names.map((name) => (
                          <code key={name} className="chip">
                            {name}
                          </code>
                        ))}{" "}
                        <span className="muted small">
                          {tools.declared ? t("executors.toolsDeclared") : t("executors.toolsFromBindings")}
                        </span>
                      </td>
                      <td>{executor.epoch}</td>
                      <td>
                        <TimeText iso={executor.last_heartbeat_at} />
                      </td>
                      <td>
                        <TimeText iso={executor.lease_expires_at} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
          <h2>{t("bindings.title")}</h2>
          {data.bindings.length === 0 && <p>{t("bindings.none")}</p>}
          {data.bindings.map((view) => (
            <BindingCard key={view.binding.binding_id} view={view} />
          ))}
        </>
      )}
    </section>
  );
}

/** One binding: its tools and, per referencing agent, the diagnostics and checks. */
function BindingCard({ view }: { view: BindingView }) {
  const { t, language } = useLanguage();
  return (
    <article className="binding" data-testid={`binding-${view.binding.binding_id}`}>
      <h3>
        <code>{view.binding.binding_id}</code> <span className="muted">{view.binding.name}</span>
      </h3>
      {view.toolNames.length > 0 && (
        <p>
          {t("executors.tools")}:{" "}
          {view.toolNames.map((name) => (
            <code key={name} className="chip">
              {name}
            </code>
          ))}
        </p>
      )}
      {view.diagnostics.length === 0 && <p className="muted">{t("bindings.unreferenced")}</p>}
      {view.diagnostics.map(({ agent, report }) => (
        <section key={agent.agent_id} className="diagnostics">
          <h4>{t("bindings.agent", { agent: `${agent.name} (${agent.agent_id})` })}</h4>
          <p className="small">
            {t("bindings.calls", {
              pending: report.calls.pending,
              claimed: report.calls.claimed,
              accepted: report.calls.accepted,
              reconciliation: report.calls.reconciliation_required,
            })}
          </p>
          {report.last_verified_execution !== null && (
            <p className="small">
              {t("bindings.lastVerified", {
                tool: report.last_verified_execution.tool_name,
                executor: report.last_verified_execution.executor_id,
                at: new Date(report.last_verified_execution.completed_at).toLocaleString(
                  language === "zh" ? "zh-CN" : "en-GB",
                ),
              })}
            </p>
          )}
          <table className="checks-table">
            <caption className="visually-hidden">{t("bindings.checks")}</caption>
            <tbody>
              {report.checks.map((check) => (
                <tr key={check.name}>
                  <td>
                    <StatusBadge
                      status={check.ok ? "ok" : "failing"}
                      label={check.ok ? t("check.ok") : t("check.fail")}
                    />
                  </td>
                  <th scope="row">
                    <code>{check.name}</code>
                  </th>
                  <td>{check.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </article>
  );
}
