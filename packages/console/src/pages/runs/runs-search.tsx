/**
 * The search by ID: a run ID opens the run, a session ID lists the session's runs, a call ID opens
 * the run that made it (looked for among the newest runs' calls: the API has no call-by-ID route).
 */

import { useId, useState } from "react";
import { CALL_SEARCH_RUNS } from "../../api/api-client.js";
import { useApi } from "../../api/api-context.js";
import { ApiErrorView } from "../../components/api-error-view.js";
import { useText } from "../../i18n/language.js";
import { navigate } from "../../router.js";
import { runsPathOf, searchTargetOf } from "./runs-query.js";

/** The search form; what it could not find is said next to it. */
export function RunsSearch() {
  const client = useApi();
  const t = useText();
  const id = useId();
  const [text, setText] = useState("");
  const [note, setNote] = useState<string | undefined>(undefined);
  const [failure, setFailure] = useState<Error | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  return (
    <search>
      <form
        className="filters"
        onSubmit={async (event) => {
          event.preventDefault();
          setNote(undefined);
          setFailure(undefined);
          const target = searchTargetOf(text);
          if (target.kind === "unknown") return setNote(t("search.unknown", { text: target.text }));
          if (target.kind === "run") return navigate(`/runs/${encodeURIComponent(target.id)}`);
          if (target.kind === "session") return navigate(runsPathOf({ session: target.id }));
          setBusy(true);
          try {
            const runId = await client.runOfCall(target.id);
            if (runId === undefined) setNote(t("search.callNotFound", { id: target.id, runs: CALL_SEARCH_RUNS }));
            else navigate(`/runs/${encodeURIComponent(runId)}`);
          } catch (error) {
            setFailure(error as Error);
          } finally {
            setBusy(false);
          }
        }}
      >
        <label htmlFor={id}>{t("search.label")}</label>
        <input
          id={id}
          value={text}
          placeholder="run_… / ses_… / call_…"
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" disabled={busy}>
          {t("search.submit")}
        </button>
        {note !== undefined && (
          <output className="note" data-testid="search-note">
            {note}
          </output>
        )}
        <ApiErrorView error={failure} />
      </form>
    </search>
  );
}
