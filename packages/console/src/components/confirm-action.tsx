/**
 * An action behind a confirmation: the button opens a modal `<dialog>` (focus moves into it, Escape
 * closes it, focus returns to the button) that says what will happen; confirming sends the request,
 * and the API's answer — its success, or its error code and message — is shown beside the button.
 */

import { type ReactNode, useId, useRef, useState } from "react";
import { useText } from "../i18n/language.js";
import { ApiErrorView } from "./api-error-view.js";

/** The button (while `available`), its dialog and the last answer. `perform` answers the success text; `body` adds fields to the dialog. */
export function ConfirmAction({
  label,
  title,
  description,
  confirmLabel,
  perform,
  body,
  testId,
  available,
}: {
  label: string;
  title: string;
  description: string;
  confirmLabel: string;
  perform: () => Promise<string>;
  body?: ReactNode;
  testId: string;
  /** Whether the action applies now; once it no longer does, the button goes and the last answer stays. */
  available: boolean;
}) {
  const t = useText();
  const dialog = useRef<HTMLDialogElement>(null);
  const ids = { title: useId(), description: useId() };
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ ok: string } | { failure: Error } | undefined>(undefined);
  if (!available && answer === undefined) return null;
  return (
    <span className="action" data-testid={testId}>
      {available && (
        <button type="button" onClick={() => dialog.current?.showModal()}>
          {label}
        </button>
      )}
      <dialog ref={dialog} aria-labelledby={ids.title} aria-describedby={ids.description}>
        <form
          method="dialog"
          onSubmit={async (event) => {
            event.preventDefault();
            setBusy(true);
            try {
              setAnswer({ ok: await perform() });
            } catch (error) {
              setAnswer({ failure: error as Error });
            } finally {
              setBusy(false);
              dialog.current?.close();
            }
          }}
        >
          <h2 id={ids.title}>{title}</h2>
          <p id={ids.description}>{description}</p>
          {body}
          <div className="dialog-buttons">
            <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
              {t("action.back")}
            </button>
            <button type="submit" className="danger" disabled={busy}>
              {confirmLabel}
            </button>
          </div>
        </form>
      </dialog>
      {answer !== undefined && "ok" in answer && (
        <output className="ok" data-testid="action-answer">
          {answer.ok}
        </output>
      )}
      {answer !== undefined && "failure" in answer && <ApiErrorView error={answer.failure} />}
    </span>
  );
}
