/**
 * The window step of a model turn (pure): the conversation the history gives now, its size, and the
 * window decision; and where a compaction that summarises blocks `[0, cut)` ends in the history.
 */

import { decideWindow, type WindowDecision } from "../models/context-window.js";
import { type Conversation, readConversation } from "../models/conversation.js";
import { type ConversationSize, conversationSize, totalFeatures } from "../models/request-size.js";
import type { TokenFeatures } from "../models/token-estimate.js";
import type { HistoryItemRecord } from "../storage/records.js";
import type { TurnContext } from "./turn-context.js";

/** The conversation of a turn and what the window says of it. */
export interface WindowedRequest {
  readonly conversation: Conversation;
  readonly size: ConversationSize;
  /** The whole request's features (what an observation calibrates). */
  readonly features: TokenFeatures;
  readonly decision: WindowDecision;
}

/** The conversation of `context` under `weights`; `force` compacts even when it seems to fit. */
export function windowRequest(context: TurnContext, weights: Readonly<TokenFeatures>, force = false): WindowedRequest {
  const conversation = readConversation(context.version.instructions, context.items);
  const size = conversationSize(conversation, context.tools);
  return {
    conversation,
    size,
    features: totalFeatures(size),
    decision: decideWindow(weights, size, context.limits, force),
  };
}

/** The last history `seq` a compaction of blocks `[0, cut)` replaces. */
export function compactedThroughSeq(
  conversation: Conversation,
  cut: number,
  items: readonly HistoryItemRecord[],
): number {
  const next = conversation.blocks[cut];
  if (next !== undefined) return next.first_seq - 1;
  const last = items[items.length - 1];
  if (last === undefined) throw new Error("a compaction of an empty history");
  return last.seq;
}

/** UTF-8 bytes of the texts in `features` (the scripted model's request size: it has no wire body). */
export function textBytesOf(features: Readonly<TokenFeatures>): number {
  // ASCII one byte, CJK three (or four beyond the BMP; counted as three), others as counted.
  return features[0] + 3 * features[1] + features[2];
}
