/**
 * The context window decision before a model request (pure). The whole request's input tokens are
 * estimated (`token-estimate.ts`); with a safety margin for the estimate's error and the output
 * tokens reserved, it must fit the agent version's `max_context_tokens`. When it does not, the
 * oldest blocks are compacted into one summary: as many as it takes for the rest to fill at most
 * half of the window, so compactions stay rare and the requests between two of them grow by
 * appending only. The input stays pinned, and every kept block stays byte-identical.
 */

import type { ConversationSize } from "./request-size.js";
import { estimateTokens, type TokenFeatures } from "./token-estimate.js";

/** Share added to an estimate for its error when checking the window. */
export const ESTIMATE_MARGIN = 0.05;

/** Share of the input budget the request may fill right after a compaction. */
export const COMPACTED_SHARE = 0.5;

/** What to do before the request. */
export type WindowDecision =
  /** The request fits: send it. */
  | { kind: "fits"; estimated_tokens: number }
  /** Summarise blocks `[0, cut)` first (and the current summary with them). */
  | { kind: "compact"; cut: number; estimated_tokens: number }
  /** Nothing left to compact, and it does not fit. */
  | { kind: "exceeded"; estimated_tokens: number; message: string };

/** The window and what a request reserves in it. */
export interface WindowLimits {
  /** The agent version's `max_context_tokens`. */
  readonly maxContextTokens: number;
  /** Output tokens reserved for the answer. */
  readonly maxOutputTokens: number;
  /** Tokens reserved for the summary a compaction adds. */
  readonly summaryTokens: number;
}

function withMargin(tokens: number): number {
  return Math.ceil(tokens * (1 + ESTIMATE_MARGIN));
}

/** Decides for a request of `size` under `limits`; `force` compacts even when the estimate fits (the provider refused it as too long). */
export function decideWindow(
  weights: Readonly<TokenFeatures>,
  size: ConversationSize,
  limits: WindowLimits,
  force = false,
): WindowDecision {
  const fixed = estimateTokens(weights, size.fixed) + estimateTokens(weights, size.input);
  const blocks = size.blocks.map((block) => estimateTokens(weights, block));
  const total = fixed + estimateTokens(weights, size.summary) + blocks.reduce((a, b) => a + b, 0);
  const budget = limits.maxContextTokens - limits.maxOutputTokens;
  if (!force && withMargin(total) <= budget) return { kind: "fits", estimated_tokens: total };
  if (blocks.length === 0) {
    return {
      kind: "exceeded",
      estimated_tokens: total,
      message: `the request needs about ${total} input tokens and ${limits.maxOutputTokens} output tokens, over max_context_tokens ${limits.maxContextTokens}, and nothing is left to compact`,
    };
  }
  const target = Math.floor((force ? Math.min(budget, total) : budget) * COMPACTED_SHARE);
  let kept = blocks.reduce((a, b) => a + b, 0);
  for (let cut = 1; cut <= blocks.length; cut++) {
    kept -= blocks[cut - 1] as number;
    if (withMargin(fixed + limits.summaryTokens + kept) <= target)
      return { kind: "compact", cut, estimated_tokens: total };
  }
  return { kind: "compact", cut: blocks.length, estimated_tokens: total };
}

/** True when a request of `estimatedTokens` fits `limits` with the margin. */
export function fitsWindow(estimatedTokens: number, limits: WindowLimits): boolean {
  return withMargin(estimatedTokens) + limits.maxOutputTokens <= limits.maxContextTokens;
}
