/**
 * What a provider answered, provider-neutral: the turn's decision (tool calls or a final message) and
 * the usage it reported. Errors of a request are values too (`ModelRequestFailure`): the driver fails
 * the run with `model_error`, or compacts once on a context-length refusal.
 */

import type { ModelToolCall } from "./model-turn.js";

/** Input and output tokens a provider reported. */
export interface ModelUsage {
  input_tokens: number;
  output_tokens: number;
}

/** A provider's answer to one request. */
export type ProviderAnswer =
  | { kind: "tool_calls"; calls: ModelToolCall[]; usage: ModelUsage | null }
  | { kind: "message"; text: string; usage: ModelUsage | null };

/** Why a model request failed, once retries are spent. */
export interface ModelRequestFailure {
  /** `context_length`: the provider refused the request as too long for its window. */
  kind: "context_length" | "model_error";
  message: string;
}

/** A failed model request, thrown by the providers. */
export class ModelRequestError extends Error {
  constructor(readonly failure: ModelRequestFailure) {
    super(failure.message);
    this.name = "ModelRequestError";
  }
}

/** The instruction a summary request ends with (fixed, so every compaction asks the same). */
export const SUMMARY_INSTRUCTION =
  "Summarize the conversation so far for your own later use: the user's request, what each tool call " +
  "did and returned (keep identifiers, cursors, numbers and errors exactly), what is done and what is " +
  "left. Answer with the summary only; do not call tools.";

/** Output tokens a summary request may use at most. */
export const SUMMARY_MAX_TOKENS = 1024;
