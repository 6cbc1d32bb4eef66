/**
 * The scripted model's compaction summary (pure and deterministic, so tests and demos compact the
 * same way every time): which turns, calls and results it replaces.
 */

import type { Conversation } from "../models/conversation.js";

/** The summary of blocks `[0, cut)` of `conversation` (and of the summary they may follow). */
export function scriptedSummary(conversation: Conversation, cut: number): string {
  const blocks = conversation.blocks.slice(0, cut);
  const calls: string[] = [];
  let results = 0;
  for (const block of blocks) {
    for (const message of block.messages) {
      if (message.role === "assistant") for (const call of message.calls) calls.push(`${call.name} (${call.call_id})`);
      else results++;
    }
  }
  const earlier = conversation.compacted ? "an earlier summary, " : "";
  return `Compacted ${earlier}${blocks.length} turn${blocks.length === 1 ? "" : "s"}: ${calls.length} tool call${calls.length === 1 ? "" : "s"} (${calls.join(", ")}) and ${results} result${results === 1 ? "" : "s"}.`;
}
