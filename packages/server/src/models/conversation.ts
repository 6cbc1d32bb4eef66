/**
 * The conversation a model request holds, read from the run's stored history (pure), whatever the
 * provider: the system instructions, a pinned head (the run's input, then the summary of the latest
 * compaction) and the turns after that compaction, each turn a block that starts at a `tool_calls`
 * item — the only places a compaction may cut, so a tool call is never separated from its results.
 *
 * Every text is taken from the stored items as they are, so a request rebuilt later renders each
 * kept item byte for byte the same (provider prompt caches keep hitting): a tool result is the
 * compact JSON text of its stored projection's `result`, sliced out of the item, exactly the bytes
 * the budget counted; arguments are their compact text in the model's key order.
 */

import { compact, isJsonObject, type JsonValue, objectGet, parseJson } from "@toolhost/protocol";
import type { HistoryItemRecord } from "../storage/records.js";

/** One tool call of an assistant message. */
export interface ConversationCall {
  call_id: string;
  /** The toolhost tool name (providers map it to a name they accept). */
  name: string;
  /** The arguments' compact JSON text. */
  arguments_json: string;
}

/** One message, provider-neutral. */
export type ConversationMessage =
  | { role: "user"; text: string }
  | { role: "assistant"; calls: ConversationCall[] }
  | { role: "tool"; call_id: string; text: string };

/** The turns after the latest compaction, from the `tool_calls` item that starts each. */
export interface ConversationBlock {
  /** The history `seq` of the block's first item. */
  first_seq: number;
  messages: ConversationMessage[];
}

/** What one request holds, before a provider renders it. */
export interface Conversation {
  /** The agent version's instructions. */
  system: string;
  /** The run's input, then the latest compaction's summary (if any). */
  head: ConversationMessage[];
  blocks: ConversationBlock[];
  /** True when the history holds a compaction. */
  compacted: boolean;
}

/** The text a summary enters the conversation with. */
export function summaryText(summary: string): string {
  return `Summary of the earlier part of this conversation (compacted):\n${summary}`;
}

/** The text a later outcome of an already answered call enters the conversation with. */
export function laterOutcomeText(callId: string, resultText: string): string {
  return `The outcome of tool call ${callId} is now known: ${resultText}`;
}

/** The compact text of a stored tool_result item's `context_preview.result`, sliced out byte for byte. */
export function toolResultText(itemJson: string): string {
  // `result` is the preview's last member, the preview the item's last: the item ends with `}}`.
  // Strings before it cannot hold `"result":` unescaped, so the first match after the preview's start is it.
  const preview = itemJson.indexOf('"context_preview":');
  const start = itemJson.indexOf(',"result":', preview);
  if (preview < 0 || start < 0 || !itemJson.endsWith("}}")) throw new Error("a tool_result item without a result");
  return itemJson.slice(start + ',"result":'.length, -2);
}

function member(item: JsonValue, key: string): JsonValue | undefined {
  return isJsonObject(item) ? objectGet(item, key) : undefined;
}

function stringMember(item: JsonValue, key: string): string {
  const value = member(item, key);
  if (typeof value !== "string") throw new Error(`a history item without a string ${key}`);
  return value;
}

/** Reads the conversation of `instructions` and the run's `items` (every item, oldest first). */
export function readConversation(instructions: string, items: readonly HistoryItemRecord[]): Conversation {
  let start = 0;
  let summary: string | undefined;
  // The latest compaction replaces everything up to its `through_seq`.
  for (let i = items.length - 1; i >= 0; i--) {
    const record = items[i] as HistoryItemRecord;
    if (!record.item_json.startsWith('{"type":"compaction"')) continue;
    const item = parseJson(record.item_json);
    summary = stringMember(item, "summary");
    const through = member(item, "through_seq");
    start = Number(typeof through === "number" ? through : String(through)) + 1;
    break;
  }
  const head: ConversationMessage[] = [];
  const blocks: ConversationBlock[] = [];
  const answered = new Set<string>();
  // Calls whose tool_calls item is in the conversation: only their first outcome is a tool message.
  const called = new Set<string>();
  let current: ConversationBlock | undefined;
  for (const record of items) {
    const text = record.item_json;
    if (text.startsWith('{"type":"input"')) {
      const input = member(parseJson(text), "input") ?? null;
      head.push({ role: "user", text: typeof input === "string" ? input : compact(input) });
      continue;
    }
    if (record.seq < start || text.startsWith('{"type":"compaction"')) continue;
    if (text.startsWith('{"type":"tool_calls"')) {
      const calls = member(parseJson(text), "calls");
      if (!Array.isArray(calls)) throw new Error("a tool_calls item without calls");
      current = {
        first_seq: record.seq,
        messages: [
          {
            role: "assistant",
            calls: calls.map((call) => ({
              call_id: stringMember(call, "call_id"),
              name: stringMember(call, "name"),
              arguments_json: compact(member(call, "arguments") ?? null),
            })),
          },
        ],
      };
      for (const message of current.messages)
        if (message.role === "assistant") for (const call of message.calls) called.add(call.call_id);
      blocks.push(current);
      continue;
    }
    if (text.startsWith('{"type":"tool_result"')) {
      const callId = stringMember(parseJson(`${text.slice(0, text.indexOf(',"receipt_id":'))}}`), "call_id");
      const result = toolResultText(text);
      const message: ConversationMessage =
        called.has(callId) && !answered.has(callId)
          ? { role: "tool", call_id: callId, text: result }
          : { role: "user", text: laterOutcomeText(callId, result) };
      answered.add(callId);
      if (current === undefined) {
        // A later outcome of a call the latest compaction summarised: a block of its own.
        current = { first_seq: record.seq, messages: [] };
        blocks.push(current);
      }
      current.messages.push(message);
    }
    // A `message` item ends the run: no request follows it.
  }
  if (summary !== undefined) head.push({ role: "user", text: summaryText(summary) });
  return { system: instructions, head, blocks, compacted: summary !== undefined };
}

/** The conversation without its blocks from `cut` on (what a summary request summarises). */
export function conversationBefore(conversation: Conversation, cut: number): Conversation {
  return { ...conversation, blocks: conversation.blocks.slice(0, cut) };
}

/** Every message in request order: the head, then each block's. */
export function messagesOf(conversation: Conversation): ConversationMessage[] {
  return [...conversation.head, ...conversation.blocks.flatMap((block) => block.messages)];
}
