/**
 * 检查 Schema 与模拟回执 / Check schema & mock receipts: pick an agent version and a tool, edit the
 * arguments and mock receipts, and see the server's dry-run — the argument check, each receipt's
 * check and the context preview the model would see. Nothing is created or executed.
 */

import type { DryRunAnswer, Tool } from "@toolhost/protocol/wire";
import { type ChangeEvent, useCallback, useEffect, useId, useMemo, useState } from "react";
import { useApi } from "../../api/api-context.js";
import { ApiErrorView } from "../../components/api-error-view.js";
import { ContextPreviewView } from "../../components/context-preview-view.js";
import { JsonEditor, jsonSyntaxError } from "../../components/json-editor.js";
import { JsonText, ScrollText } from "../../components/json-text.js";
import { StatusBadge } from "../../components/status-badge.js";
import { useText } from "../../i18n/language.js";
import { useResource } from "../../live/use-resource.js";
import { completedReceiptText, dryRunBodyText, SAMPLE_RECEIPT_TEXT } from "./dry-run-body.js";
import { loadVersionChoices } from "./version-choices.js";

/** One mock receipt editor (`key` keeps React's identity across removals). */
interface ReceiptDraft {
  readonly key: number;
  readonly text: string;
}

/** The last check: the server's answer and the texts it checked. */
interface Checked {
  readonly answer: DryRunAnswer;
  readonly text: string;
  readonly argumentsText: string;
  readonly receiptTexts: readonly string[];
}

let nextReceiptKey = 1;

/** The page. */
export function SchemaPage() {
  const client = useApi();
  const t = useText();
  const ids = { version: useId(), tool: useId(), upload: useId() };
  const versions = useResource(() => loadVersionChoices(client), "versions");
  // Defaults: the newest version, then its first tool. Derived rather than set by an effect, which
  // could land after the user's own pick and undo it.
  const [chosenVersion, setAgentVersion] = useState<string>("");
  const choice = versions.data?.find((item) => item.version.agent_version === chosenVersion) ?? versions.data?.[0];
  const agentVersion = choice?.version.agent_version ?? "";
  const tools = useResource(
    async () =>
      choice === undefined
        ? []
        : (await client.toolsetVersion(choice.version.toolset_id, choice.version.toolset_version)).tools,
    `tools:${choice?.version.agent_version ?? ""}`,
  );
  const [chosenTool, setToolName] = useState<string>("");
  const tool: Tool | undefined = tools.data?.find((item) => item.name === chosenTool) ?? tools.data?.[0];
  const toolName = tool?.name ?? "";
  const [argumentsText, setArgumentsText] = useState("{}");
  const [receipts, setReceipts] = useState<ReceiptDraft[]>([{ key: 0, text: SAMPLE_RECEIPT_TEXT }]);
  const [checked, setChecked] = useState<Checked | undefined>(undefined);
  const [failure, setFailure] = useState<Error | undefined>(undefined);
  const [running, setRunning] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new tool or version makes the last check stale.
  useEffect(() => setChecked(undefined), [agentVersion, toolName]);

  const syntaxOk = useMemo(
    () =>
      jsonSyntaxError(argumentsText) === undefined &&
      receipts.every((draft) => jsonSyntaxError(draft.text) === undefined),
    [argumentsText, receipts],
  );

  const check = useCallback(async () => {
    if (agentVersion === "" || toolName === "" || !syntaxOk || running) return;
    setRunning(true);
    setFailure(undefined);
    const receiptTexts = receipts.map((draft) => draft.text);
    try {
      const body = dryRunBodyText({ agentVersion, toolName, argumentsText, receiptTexts });
      const { answer, text } = await client.dryRun(body);
      setChecked({ answer, text, argumentsText, receiptTexts });
    } catch (error) {
      setChecked(undefined);
      setFailure(error as Error);
    } finally {
      setRunning(false);
    }
  }, [client, agentVersion, toolName, argumentsText, receipts, syntaxOk, running]);

  const onUpload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file === undefined) return;
    const text = completedReceiptText(`file:${file.name}`.slice(0, 128), await file.text());
    setReceipts((current) => [{ key: nextReceiptKey++, text }, ...current.slice(1)]);
    event.target.value = "";
  };

  // A check's problems are shown only while the editor still holds the text that was checked.
  const argumentProblems =
    checked !== undefined && checked.argumentsText === argumentsText ? checked.answer.arguments.errors : [];

  return (
    <section aria-labelledby="schema-title">
      <h1 id="schema-title">{t("schema.title")}</h1>
      <p className="intro">{t("schema.intro")}</p>
      <ApiErrorView error={versions.error ?? tools.error} />
      {versions.data !== undefined && versions.data.length === 0 && <p>{t("schema.noVersions")}</p>}
      <div className="schema-grid">
        <form
          className="schema-inputs"
          onSubmit={(event) => {
            event.preventDefault();
            void check();
          }}
        >
          <div className="field-row">
            <div className="field">
              <label htmlFor={ids.version}>{t("schema.agentVersion")}</label>
              <select id={ids.version} value={agentVersion} onChange={(event) => setAgentVersion(event.target.value)}>
                {versions.data?.map(({ agent, version }) => (
                  <option key={version.agent_version} value={version.agent_version}>
                    {agent.name} · {version.agent_version}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={ids.tool}>{t("schema.tool")}</label>
              <select id={ids.tool} value={toolName} onChange={(event) => setToolName(event.target.value)}>
                {tools.data?.map((item) => (
                  <option key={item.name} value={item.name}>
                    {item.name}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {tool !== undefined && (
            <div className="tool-facts">
              <p>
                {tool.description}{" "}
                <span className="muted">
                  {t("schema.toolFacts", {
                    binding: tool.binding_id,
                    effect: tool.effect,
                    budget: tool.max_result_context_bytes.toLocaleString("en-US"),
                  })}
                </span>
              </p>
              <details>
                <summary>{t("schema.inputSchema")}</summary>
                <JsonText value={tool.input_schema} />
              </details>
            </div>
          )}
          <JsonEditor
            label={t("schema.arguments")}
            value={argumentsText}
            onChange={setArgumentsText}
            onSubmit={check}
            problems={argumentProblems}
            rows={4}
            testId="arguments-editor"
          />
          <fieldset className="receipts">
            <legend>{t("schema.receipts")}</legend>
            {receipts.map((draft, index) => {
              const checkedReceipt =
                checked !== undefined && checked.receiptTexts[index] === draft.text
                  ? checked.answer.receipts[index]
                  : undefined;
              return (
                <div key={draft.key} className="receipt-draft">
                  <JsonEditor
                    label={t("schema.receipt", { n: index + 1 })}
                    value={draft.text}
                    onChange={(text) =>
                      setReceipts((current) =>
                        current.map((item) => (item.key === draft.key ? { ...item, text } : item)),
                      )
                    }
                    onSubmit={check}
                    problems={checkedReceipt?.errors ?? []}
                    rows={draft.text.length > 2000 ? 10 : 5}
                    testId={`receipt-editor-${index + 1}`}
                  />
                  {receipts.length > 1 && (
                    <button
                      type="button"
                      className="secondary"
                      onClick={() => setReceipts((current) => current.filter((item) => item.key !== draft.key))}
                    >
                      {t("schema.removeReceipt", { n: index + 1 })}
                    </button>
                  )}
                </div>
              );
            })}
            <div className="receipt-actions">
              <button
                type="button"
                className="secondary"
                onClick={() =>
                  setReceipts((current) => [
                    ...current,
                    { key: nextReceiptKey++, text: completedReceiptText(`mock-${current.length + 1}`, "{}") },
                  ])
                }
              >
                {t("schema.addReceipt")}
              </button>
              <label htmlFor={ids.upload} className="upload">
                {t("schema.upload")}
              </label>
              <input id={ids.upload} type="file" accept=".json,application/json,text/plain" onChange={onUpload} />
            </div>
            <p className="muted small">{t("schema.uploadHint")}</p>
          </fieldset>
          <div className="actions">
            <button type="submit" disabled={!syntaxOk || running || toolName === ""}>
              {running ? t("schema.running") : t("schema.run")}
            </button>
            <span className="muted small">{t("schema.runHint")}</span>
          </div>
        </form>
        <section className="schema-result" aria-labelledby="schema-result-title" aria-live="polite">
          <h2 id="schema-result-title">{t("schema.result")}</h2>
          <ApiErrorView error={failure} />
          {checked !== undefined && <DryRunResult checked={checked} />}
        </section>
      </div>
    </section>
  );
}

/** The checks and the preview of one dry-run answer. */
function DryRunResult({ checked }: { checked: Checked }) {
  const t = useText();
  const { answer } = checked;
  return (
    <div data-testid="dry-run-result">
      <ul className="checks">
        <li>
          <StatusBadge status={answer.arguments.valid ? "ok" : "failing"} label={answer.arguments.valid ? "✓" : "✗"} />{" "}
          {answer.arguments.valid ? t("schema.argumentsValid") : t("schema.argumentsInvalid")}
          {answer.arguments.errors.map((problem) => (
            <div key={problem.pointer + problem.message} className="problem-line">
              <code>{problem.pointer || "/"}</code> {problem.message}
            </div>
          ))}
        </li>
        {answer.receipts.map((receipt, index) => {
          const values = { id: receipt.receipt_id ?? `#${index + 1}`, kind: receipt.kind ?? "?" };
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: receipts are listed in the order sent.
            <li key={index}>
              <StatusBadge status={receipt.valid ? "ok" : "failing"} label={receipt.valid ? "✓" : "✗"} />{" "}
              {receipt.valid ? t("schema.receiptValid", values) : t("schema.receiptInvalid", values)}
              {receipt.errors.map((problem) => (
                <div key={problem.pointer + problem.message} className="problem-line">
                  <code>{problem.pointer || "/"}</code> {problem.message}
                </div>
              ))}
            </li>
          );
        })}
      </ul>
      {answer.context_preview === null ? (
        <p className="muted">{t("schema.noPreview")}</p>
      ) : (
        <ContextPreviewView preview={answer.context_preview} />
      )}
      <p className="not-verified" data-testid="not-verified">
        {t("schema.notVerified")}
      </p>
      <details>
        <summary>{t("schema.rawAnswer")}</summary>
        <ScrollText className="raw">{checked.text}</ScrollText>
      </details>
    </div>
  );
}
