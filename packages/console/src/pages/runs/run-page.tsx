/**
 * One run: its status and output, the operator's actions, a timeline per tool call, the calls'
 * waterfall, the history exactly as the model sees it, and the model requests' token chart. Follows
 * the run live until it and its calls stop moving: from the event stream, applying each event and
 * reading again only what it changed (a call's receipts, the history); when polling, everything.
 */

import type { HistoryItem, Run, StoredReceipt, ToolCall } from "@toolhost/protocol/wire";
import { useCallback } from "react";
import type { ApiClient } from "../../api/api-client.js";
import { useApi } from "../../api/api-context.js";
import { ApiErrorView } from "../../components/api-error-view.js";
import { ConfirmAction } from "../../components/confirm-action.js";
import { ScrollText } from "../../components/json-text.js";
import { StatusBadge } from "../../components/status-badge.js";
import { TimeText } from "../../components/time-text.js";
import { useText } from "../../i18n/language.js";
import { changesOf, patchList, type StreamEvent } from "../../live/run-changes.js";
import { RUN_POLL_MS, useRunUpdates } from "../../live/run-updates.js";
import { useResource } from "../../live/use-resource.js";
import { Link } from "../../router.js";
import { CallTimeline } from "./call-timeline.js";
import { CallWaterfallView } from "./call-waterfall-view.js";
import { HistoryView } from "./history-view.js";
import { ModelRequestsPanel } from "./model-requests-panel.js";
import { runCancellable } from "./run-actions.js";
import { runMoving } from "./run-status.js";

/** Everything the page shows of a run, loaded together so it is consistent with itself. */
interface RunView {
  readonly run: Run;
  readonly calls: ToolCall[];
  readonly receipts: Map<string, StoredReceipt[]>;
  readonly history: HistoryItem[];
  readonly historyText: string;
}

/** The history, as items and as the server's exact text. */
async function loadHistory(client: ApiClient, runId: string): Promise<Pick<RunView, "history" | "historyText">> {
  const [history, raw] = await Promise.all([
    client.history(runId),
    client.raw("GET", `/v1/runs/${encodeURIComponent(runId)}/history?limit=200`),
  ]);
  return { history, historyText: raw.text };
}

async function loadRunView(client: ApiClient, runId: string): Promise<RunView> {
  const [run, calls, { history, historyText }] = await Promise.all([
    client.run(runId),
    client.toolCalls(runId),
    loadHistory(client, runId),
  ]);
  const receipts = new Map(
    await Promise.all(
      calls.map(async (call) => [call.call_id, (await client.callReceipts(runId, call.call_id)).receipts] as const),
    ),
  );
  return { run, calls, receipts, history, historyText };
}

/** The page. */
export function RunPage({ runId }: { runId: string }) {
  const client = useApi();
  const t = useText();
  const view = useResource(() => loadRunView(client, runId), `run:${runId}`);
  const moving = view.data === undefined ? view.error === undefined : runMoving(view.data.run, view.data.calls);
  const models = useResource(() => client.modelRequests(runId), `model-requests:${runId}`);
  const agent = view.data?.run;
  const version = useResource(
    () => (agent === undefined ? Promise.resolve(undefined) : client.agentVersion(agent.agent_id, agent.agent_version)),
    `agent-version:${agent?.agent_id}:${agent?.agent_version}`,
  );
  const reload = useCallback(() => {
    view.reload();
    models.reload();
  }, [view.reload, models.reload]);
  const onEvents = useCallback(
    (events: StreamEvent[] | undefined) => {
      if (events === undefined) return reload();
      const changes = changesOf(events);
      if (changes.reload) return reload();
      view.update((current) => ({
        ...current,
        run: changes.run ?? current.run,
        calls: patchList(current.calls, changes.calls, (call) => call.call_id),
      }));
      if (changes.models.size > 0) {
        models.update((current) => patchList(current, changes.models, (request) => request.request_id));
      }
      // Only the changed parts are read again: each changed call's receipts, and the history if it grew.
      const failed = () => view.reload();
      for (const callId of changes.calls.keys()) {
        client.callReceipts(runId, callId).then(({ receipts }) => {
          view.update((current) => ({ ...current, receipts: new Map(current.receipts).set(callId, receipts) }));
        }, failed);
      }
      if (changes.history) {
        loadHistory(client, runId).then((history) => view.update((current) => ({ ...current, ...history })), failed);
      }
    },
    [client, runId, reload, view.update, view.reload, models.update],
  );
  const live = useRunUpdates(client, runId, moving, onEvents);
  const data = view.data;
  return (
    <section aria-labelledby="run-title">
      <p>
        <Link to="/runs">{t("run.back")}</Link>
      </p>
      <h1 id="run-title">
        {t("run.title", { id: runId })} {data !== undefined && <StatusBadge status={data.run.status} />}{" "}
        <span className="muted small" data-testid="live-mode">
          {live === "stream"
            ? t("run.liveStream")
            : live === "poll"
              ? t("run.livePoll", { seconds: RUN_POLL_MS / 1000 })
              : t("run.settled")}
        </span>
      </h1>
      <ApiErrorView error={view.error} />
      {data !== undefined && (
        <div className="actions">
          <ConfirmAction
            available={runCancellable(data.run)}
            testId="cancel-run"
            label={t("action.cancelRun")}
            title={t("action.cancelRunTitle", { run: runId })}
            description={t("action.cancelRunBody")}
            confirmLabel={t("action.cancelRunConfirm")}
            perform={async () => {
              const answer = await client.cancelRun(runId);
              reload();
              return t("action.cancelRunDone", { status: answer.status });
            }}
          />
        </div>
      )}
      {data === undefined ? (
        view.error === undefined && <p>{t("common.loading")}</p>
      ) : (
        <>
          <dl className="facts">
            <dt>{t("runs.session")}</dt>
            <dd>
              <code>{data.run.session_id}</code>
            </dd>
            <dt>{t("run.agentVersion")}</dt>
            <dd>
              <code>{data.run.agent_version}</code>
            </dd>
            <dt>{t("runs.created")}</dt>
            <dd>
              <TimeText iso={data.run.created_at} />
            </dd>
            <dt>{t("run.ended")}</dt>
            <dd>
              <TimeText iso={data.run.ended_at} />
            </dd>
            {data.run.output !== undefined && (
              <>
                <dt>{t("run.outputLabel")}</dt>
                <dd className="quote" data-testid="run-output">
                  {data.run.output}
                </dd>
              </>
            )}
            {data.run.error !== undefined && (
              <>
                <dt>{t("run.errorLabel")}</dt>
                <dd>
                  <code>{data.run.error.code}</code> {data.run.error.message}
                </dd>
              </>
            )}
          </dl>
          <div className="run-grid">
            <section aria-labelledby="timeline-title">
              <h2 id="timeline-title">{t("run.timeline")}</h2>
              {data.calls.length === 0 ? (
                <p>{t("run.noCalls")}</p>
              ) : (
                <ol className="calls">
                  {data.calls.map((call) => (
                    <CallTimeline
                      key={call.call_id}
                      call={call}
                      receipts={data.receipts.get(call.call_id) ?? []}
                      done={reload}
                    />
                  ))}
                </ol>
              )}
              <p className="muted small">{t("timeline.noReplays")}</p>
            </section>
            <section aria-labelledby="history-title">
              <h2 id="history-title">{t("run.history")}</h2>
              <HistoryView items={data.history} />
              <details>
                <summary>{t("run.rawHistory")}</summary>
                <ScrollText className="raw">{data.historyText}</ScrollText>
              </details>
            </section>
          </div>
          <section aria-labelledby="waterfall-title">
            <h2 id="waterfall-title">{t("waterfall.title")}</h2>
            <CallWaterfallView run={data.run} calls={data.calls} />
          </section>
          <section aria-labelledby="model-title">
            <h2 id="model-title">{t("model.title")}</h2>
            <ApiErrorView error={models.error ?? version.error} />
            {models.data !== undefined && (
              <ModelRequestsPanel requests={models.data} maxContextTokens={version.data?.max_context_tokens} />
            )}
          </section>
        </>
      )}
    </section>
  );
}
