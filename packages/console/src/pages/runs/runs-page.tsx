/**
 * The runs list: the runs in the key's scope, newest first (or one session's, oldest first),
 * filtered by status and agent, paged by the API's cursor, all kept in the URL; refreshed while
 * shown; a search by run, session or call ID; and a way to start a run.
 */

import type { Run, Session } from "@toolhost/protocol/wire";
import { useId, useState } from "react";
import type { ApiClient } from "../../api/api-client.js";
import { useApi } from "../../api/api-context.js";
import { ApiErrorView } from "../../components/api-error-view.js";
import { StatusBadge } from "../../components/status-badge.js";
import { TimeText } from "../../components/time-text.js";
import { useText } from "../../i18n/language.js";
import { useResource } from "../../live/use-resource.js";
import { Link, navigate, useSearch } from "../../router.js";
import { pageSizeOf, RUN_STATUS_FILTERS, type RunsQuery, runsPathOf, runsQueryOf } from "./runs-query.js";
import { RunsSearch } from "./runs-search.js";

/** How often the list refreshes. */
const RUNS_POLL_MS = 2000;

/** The page. */
export function RunsPage() {
  const client = useApi();
  const t = useText();
  const query = runsQueryOf(useSearch());
  const path = runsPathOf(query);
  const runs = useResource(() => loadRuns(client, query), path, { pollMs: RUNS_POLL_MS });
  const next = runs.data?.next_cursor ?? null;
  return (
    <section aria-labelledby="runs-title">
      <h1 id="runs-title">
        {t("runs.title")} <span className="muted small">{t("runs.live", { seconds: RUNS_POLL_MS / 1000 })}</span>
      </h1>
      <StartRun />
      <RunsSearch />
      <RunsFilters query={query} />
      <ApiErrorView error={runs.error} />
      {runs.data !== undefined && runs.data.data.length === 0 && (
        <p data-testid="runs-empty">{query.cursor === undefined ? t("runs.empty") : t("runs.emptyPage")}</p>
      )}
      {runs.data !== undefined && runs.data.data.length > 0 && (
        <table className="list" data-testid="runs-table">
          <thead>
            <tr>
              <th scope="col">{t("runs.run")}</th>
              <th scope="col">{t("runs.status")}</th>
              <th scope="col">{t("runs.session")}</th>
              <th scope="col">{t("runs.created")}</th>
              <th scope="col">{t("runs.output")}</th>
            </tr>
          </thead>
          <tbody>
            {runs.data.data.map((run) => (
              <tr key={run.run_id}>
                <td>
                  <Link to={`/runs/${encodeURIComponent(run.run_id)}`}>
                    <code>{run.run_id}</code>
                  </Link>
                </td>
                <td>
                  <StatusBadge status={run.status} />
                </td>
                <td>
                  <code className="small">{run.session_id}</code>
                </td>
                <td>
                  <TimeText iso={run.created_at} />
                </td>
                <td className="clip">{run.output ?? run.error?.code ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav className="pager" aria-label={t("runs.pages")}>
        {query.cursor !== undefined && (
          <Link to={runsPathOf({ ...query, cursor: undefined })}>{t("runs.firstPage")}</Link>
        )}
        {next !== null && <Link to={runsPathOf({ ...query, cursor: next })}>{t("runs.nextPage")}</Link>}
      </nav>
    </section>
  );
}

/** One page of the runs `query` names: one session's runs, or the filtered runs list. */
function loadRuns(client: ApiClient, query: RunsQuery): Promise<{ data: Run[]; next_cursor: string | null }> {
  const limit = pageSizeOf(query);
  if (query.session !== undefined) return client.sessionRuns(query.session, limit, query.cursor);
  return client.recentRuns({
    limit,
    ...(query.status === undefined ? {} : { status: query.status as Run["status"] }),
    ...(query.agent === undefined ? {} : { agent_id: query.agent }),
    ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
  });
}

/** The status and agent filters (each change is a new URL, so back undoes it); or the session being shown. */
function RunsFilters({ query }: { query: RunsQuery }) {
  const client = useApi();
  const t = useText();
  const ids = { status: useId(), agent: useId() };
  const agents = useResource(() => client.agents().catch(() => []), "agents");
  if (query.session !== undefined) {
    return (
      <p className="filters" data-testid="session-filter">
        {t("runs.ofSession")} <code>{query.session}</code> <Link to="/runs">{t("runs.allRuns")}</Link>
      </p>
    );
  }
  const change = (member: "status" | "agent", value: string) =>
    navigate(runsPathOf({ ...query, [member]: value === "" ? undefined : value, cursor: undefined }));
  return (
    <div className="filters">
      <label htmlFor={ids.status}>{t("runs.status")}</label>
      <select id={ids.status} value={query.status ?? ""} onChange={(event) => change("status", event.target.value)}>
        <option value="">{t("runs.anyStatus")}</option>
        {RUN_STATUS_FILTERS.map((status) => (
          <option key={status} value={status}>
            {status}
          </option>
        ))}
      </select>
      <label htmlFor={ids.agent}>{t("runs.agent")}</label>
      <select id={ids.agent} value={query.agent ?? ""} onChange={(event) => change("agent", event.target.value)}>
        <option value="">{t("runs.anyAgent")}</option>
        {query.agent !== undefined && !(agents.data ?? []).some((agent) => agent.agent_id === query.agent) && (
          <option value={query.agent}>{query.agent}</option>
        )}
        {(agents.data ?? []).map((agent) => (
          <option key={agent.agent_id} value={agent.agent_id}>
            {agent.name} · {agent.agent_id}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Starts a run of a chosen session with a text input, then opens it. */
function StartRun() {
  const client = useApi();
  const t = useText();
  const ids = { session: useId(), input: useId() };
  const sessions = useResource<Session[]>(() => client.sessions().catch(() => []), "sessions");
  const [sessionId, setSessionId] = useState("");
  const [input, setInput] = useState<string | undefined>(undefined);
  const [failure, setFailure] = useState<Error | undefined>(undefined);
  const list = sessions.data ?? [];
  if (list.length === 0) return null;
  const chosen = sessionId === "" ? (list[list.length - 1] as Session).session_id : sessionId;
  const text = input ?? t("runs.defaultInput");
  return (
    <form
      className="start-run"
      onSubmit={async (event) => {
        event.preventDefault();
        setFailure(undefined);
        try {
          const run = await client.startRun(chosen, text);
          navigate(`/runs/${encodeURIComponent(run.run_id)}`);
        } catch (error) {
          setFailure(error as Error);
        }
      }}
    >
      <h2 className="inline-heading">{t("runs.start")}</h2>
      <label htmlFor={ids.session}>{t("runs.session")}</label>
      <select id={ids.session} value={chosen} onChange={(event) => setSessionId(event.target.value)}>
        {list.map((session) => (
          <option key={session.session_id} value={session.session_id}>
            {session.session_id} · {session.subject}
          </option>
        ))}
      </select>
      <label htmlFor={ids.input}>{t("runs.input")}</label>
      <input id={ids.input} value={text} onChange={(event) => setInput(event.target.value)} />
      <button type="submit">{t("runs.startButton")}</button>
      <ApiErrorView error={failure} />
    </form>
  );
}
