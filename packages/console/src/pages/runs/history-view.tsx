/** A run's execution history as the model sees it: input, the calls it made, each result's context preview, its answer. */

import type { HistoryItem } from "@toolhost/protocol/wire";
import { ContextPreviewView } from "../../components/context-preview-view.js";
import { JsonText } from "../../components/json-text.js";
import { useText } from "../../i18n/language.js";

/** The history items in order. */
export function HistoryView({ items }: { items: readonly HistoryItem[] }) {
  const t = useText();
  return (
    <ol className="history" data-testid="history">
      {items.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: history items are append-only, never reordered.
        <li key={index} className={`history-${item.type}`}>
          {item.type === "input" && (
            <>
              <h3>{t("history.input")}</h3>
              {typeof item.input === "string" ? <p className="quote">{item.input}</p> : <JsonText value={item.input} />}
            </>
          )}
          {item.type === "tool_calls" && (
            <>
              <h3>{t("history.toolCalls")}</h3>
              <ul>
                {item.calls.map((call) => (
                  <li key={call.call_id}>
                    <code>{call.name}</code> <span className="muted small">{call.call_id}</span>
                    <JsonText value={call.arguments} />
                  </li>
                ))}
              </ul>
            </>
          )}
          {item.type === "tool_result" && (
            <>
              <h3>
                {t("history.toolResult", { call: item.call_id })}{" "}
                <span className="muted small">
                  {item.receipt_id === null
                    ? t("history.noReceipt")
                    : t("history.receipt", { receipt: item.receipt_id })}
                </span>
              </h3>
              <ContextPreviewView preview={item.context_preview} headingLevel={4} />
            </>
          )}
          {item.type === "message" && (
            <>
              <h3>{t("history.message")}</h3>
              <p className="quote">{item.text}</p>
            </>
          )}
        </li>
      ))}
    </ol>
  );
}
