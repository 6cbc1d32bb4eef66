/**
 * The items of a run's execution history (pure), each built once as compact JSON text with its keys
 * in the documented order. The text is stored and served byte for byte; nothing re-serialises it.
 *
 * - `{"type":"input","input":…}`: what the run started from.
 * - `{"type":"message","text":…}`: the model's final message.
 * - `{"type":"tool_calls","calls":[{"call_id","name","arguments"},…]}`: one turn's calls, as emitted.
 * - `{"type":"tool_result","call_id","receipt_id","context_preview":{…}}`: what the model sees of one
 *   call's outcome (`receipt_id` null when no receipt carried it).
 * - `{"type":"compaction","summary":…,"through_seq":n}`: a summary that replaces, in every later model
 *   request, the items after the input up to `seq` n (the items themselves stay as they were).
 */

import { type ContextPreview, compact, type JsonValue, type PlainJsonObject } from "@toolhost/protocol";

/** One call of a `tool_calls` item. */
export interface EmittedCall {
  call_id: string;
  name: string;
  arguments: JsonValue;
}

/** The run's input. */
export function inputItem(input: JsonValue): string {
  return compact({ type: "input", input });
}

/** The model's final message. */
export function messageItem(text: string): string {
  return compact({ type: "message", text });
}

/** The calls one model turn emitted, in the model's order. */
export function toolCallsItem(calls: readonly EmittedCall[]): string {
  return compact({
    type: "tool_calls",
    calls: calls.map((call) => ({ call_id: call.call_id, name: call.name, arguments: call.arguments })),
  });
}

/** A compaction: `summary` stands for the items up to `throughSeq` in later requests. */
export function compactionItem(summary: string, throughSeq: number): string {
  return compact({ type: "compaction", summary, through_seq: throughSeq });
}

/** What the model sees of one call's outcome. */
export function toolResultItem(callId: string, receiptId: string | null, preview: ContextPreview): string {
  return compact({
    type: "tool_result",
    call_id: callId,
    receipt_id: receiptId,
    context_preview: previewJson(preview),
  });
}

/**
 * Where the preview's result text lies in `itemJson`, the toolResultItem of `preview`: its last
 * member, followed by the two closing braces. Undefined if the item does not end so.
 */
export function resultTextOffset(
  itemJson: string,
  preview: ContextPreview,
): { from: number; text: string } | undefined {
  const text = compact(preview.result);
  if (!itemJson.endsWith(`${text}}}`)) return undefined;
  return { from: itemJson.length - 2 - text.length, text };
}

/** A context preview with its keys in the order of docs/projection.md. */
export function previewJson(preview: ContextPreview): PlainJsonObject {
  return {
    max_result_context_bytes: preview.max_result_context_bytes,
    original_bytes: preview.original_bytes,
    retained_bytes: preview.retained_bytes,
    truncated: preview.truncated,
    result: preview.result,
  };
}
