/** The operator's actions on one call, each behind a confirmation: business cancel, and compensation. */

import type { ToolCall } from "@toolhost/protocol/wire";
import { useId, useState } from "react";
import { useApi } from "../../api/api-context.js";
import { ConfirmAction } from "../../components/confirm-action.js";
import { useText } from "../../i18n/language.js";
import { callCancellable, callCompensable } from "./run-actions.js";

/** The buttons that apply to `call`, and the answers to those used; `done` reloads the page. */
export function CallActions({ call, done }: { call: ToolCall; done: () => void }) {
  const client = useApi();
  const t = useText();
  const ids = { tool: useId(), args: useId() };
  const [toolName, setToolName] = useState(call.tool_name);
  const [argsText, setArgsText] = useState("{}");
  return (
    <div className="actions">
      <ConfirmAction
        available={callCancellable(call)}
        testId="cancel-call"
        label={t("action.cancelCall")}
        title={t("action.cancelCallTitle", { call: call.call_id })}
        description={t("action.cancelCallBody")}
        confirmLabel={t("action.cancelCallConfirm")}
        perform={async () => {
          const answer = await client.cancelCall(call.run_id, call.call_id);
          done();
          return t("action.cancelCallDone", { status: answer.status });
        }}
      />
      <ConfirmAction
        available={callCompensable(call)}
        testId="compensate-call"
        label={t("action.compensate")}
        title={t("action.compensateTitle", { call: call.call_id })}
        description={t("action.compensateBody")}
        confirmLabel={t("action.compensateConfirm")}
        body={
          <div className="dialog-fields">
            <label htmlFor={ids.tool}>{t("action.compensateTool")}</label>
            <input id={ids.tool} value={toolName} onChange={(event) => setToolName(event.target.value)} />
            <label htmlFor={ids.args}>{t("action.compensateArguments")}</label>
            <textarea id={ids.args} rows={4} value={argsText} onChange={(event) => setArgsText(event.target.value)} />
          </div>
        }
        perform={async () => {
          let args: unknown;
          try {
            args = JSON.parse(argsText);
          } catch (error) {
            throw new Error(t("action.compensateNotJson", { message: (error as Error).message }));
          }
          const created = await client.compensateCall(call.run_id, call.call_id, toolName.trim(), args);
          done();
          return t("action.compensateDone", { call: created.call_id });
        }}
      />
    </div>
  );
}
