/**
 * The size of a model request in estimator features (pure), split the way compaction needs it: what
 * every request holds (system instructions, tool definitions), the pinned input, the current summary,
 * and each block after the latest compaction. The features are computed from the texts the providers
 * render (`conversation.ts`), the same for every provider; each provider and model has its own
 * calibration of what they cost.
 */

import type { ToolDefinition } from "@toolhost/protocol";
import type { Conversation, ConversationMessage } from "./conversation.js";
import { addTextFeatures, noFeatures, sumFeatures, type TokenFeatures } from "./token-estimate.js";

/** A conversation's features, part by part. */
export interface ConversationSize {
  /** System instructions, tool definitions and the request's own framing. */
  fixed: TokenFeatures;
  /** The run's input (pinned: never compacted). */
  input: TokenFeatures;
  /** The latest compaction's summary (zero when none). */
  summary: TokenFeatures;
  /** Each block after the latest compaction. */
  blocks: TokenFeatures[];
}

/** Adds the features of one message to `into`. */
export function addMessageFeatures(into: TokenFeatures, message: ConversationMessage): TokenFeatures {
  if (message.role !== "assistant") return addTextFeatures(into, message.text, 1);
  addTextFeatures(into, "", 1);
  for (const call of message.calls) {
    addTextFeatures(into, call.name, 1);
    addTextFeatures(into, call.arguments_json);
  }
  return into;
}

/** The features of the tool definitions and the system instructions, and the request itself. */
export function fixedFeatures(system: string, tools: readonly ToolDefinition[]): TokenFeatures {
  const features = addTextFeatures(noFeatures(), system, 1);
  features[4] = 1;
  for (const tool of tools) {
    addTextFeatures(features, tool.name, 1);
    addTextFeatures(features, tool.description);
    addTextFeatures(features, JSON.stringify(tool.input_schema));
  }
  return features;
}

/** The size of `conversation` with `tools`. */
export function conversationSize(conversation: Conversation, tools: readonly ToolDefinition[]): ConversationSize {
  const input = noFeatures();
  const summary = noFeatures();
  conversation.head.forEach((message, index) => {
    // The head is the input, then (when compacted) the summary.
    addMessageFeatures(conversation.compacted && index === conversation.head.length - 1 ? summary : input, message);
  });
  return {
    fixed: fixedFeatures(conversation.system, tools),
    input,
    summary,
    blocks: conversation.blocks.map((block) =>
      block.messages.reduce((features, message) => addMessageFeatures(features, message), noFeatures()),
    ),
  };
}

/** The features of the whole request. */
export function totalFeatures(size: ConversationSize): TokenFeatures {
  return size.blocks.reduce(sumFeatures, sumFeatures(sumFeatures(size.fixed, size.input), size.summary));
}
