/** The runs list: the latest runs in the key's scope, newest first, refreshed while shown; and a way to start one. */

import type { Session } from "@toolhost/protocol/wire";
import { useId, useState } from "react";
import { useApi } from "../../api/api-context.js";
import { ApiErrorView } from "../../components/api-error-view.js";
import { StatusBadge } from "../../components/status-badge.js";
import { TimeText } from "../../components/time-text.js";
import { useText } from "../../i18n/language.js";
import { useResource } from "../../live/use-resource.js";
import { Link, navigate } from "../../router.js";

/** How often the list refreshes. */
const RUNS_POLL_MS = 2000;

/** The page. */
export function RunsPage() {
  const client = useApi();
  const t = useText();
  const runs = useResource(() => client.recentRuns(50), "runs", { pollMs: RUNS_POLL_MS });
  return (
    <section aria-labelledby="runs-title">
      <h1 id="runs-title">
        {t("runs.title")} <span className="muted small">{t("runs.live", { seconds: RUNS_POLL_MS / 1000 })}</span>
      </h1>
      <StartRun />
      <ApiErrorView error={runs.error} />
      {runs.data !== undefined && runs.data.data.length === 0 && <p>{t("runs.empty")}</p>}
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
    </section>
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
