/**
 * The dry-run request body, composed as text from the editors' texts: the arguments and the mock
 * receipts go to the server exactly as typed or uploaded, so big integers, float spellings and key
 * order reach it unchanged (re-serialising a parsed value would round them).
 */

/** What the schema page sends. */
export interface DryRunDraft {
  readonly agentVersion: string;
  readonly toolName: string;
  readonly argumentsText: string;
  readonly receiptTexts: readonly string[];
}

/** The body text of `POST /v1/tools/dry-run` for `draft` (each text must be one JSON value). */
export function dryRunBodyText(draft: DryRunDraft): string {
  const receipts = draft.receiptTexts.map((text) => text.trim()).join(",");
  return (
    `{"agent_version":${JSON.stringify(draft.agentVersion)},"tool_name":${JSON.stringify(draft.toolName)},` +
    `"arguments":${draft.argumentsText.trim()},"mock_receipts":[${receipts}]}`
  );
}

/** A completed mock receipt holding `resultText` verbatim as its result. */
export function completedReceiptText(receiptId: string, resultText: string): string {
  const result = resultText.replace(/^\uFEFF/, "").trim();
  return `{"receipt_id": ${JSON.stringify(receiptId)}, "kind": "completed", "result": ${result}}`;
}

/** The receipt a new editor starts with. */
export const SAMPLE_RECEIPT_TEXT = completedReceiptText("mock-1", '{"tasks": [], "next_cursor": null}');
