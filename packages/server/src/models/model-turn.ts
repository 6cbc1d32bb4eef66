/**
 * What one model turn decided, whatever the provider: a final message, tool calls to make, or a
 * failure that ends the run. Providers (the built-in `scripted` model, and `openai` and `anthropic` through
 * `models/`) answer this; the run loop (`model-turns.ts`) acts on it.
 */

import type { JsonValue } from "@toolhost/protocol";

/** One tool call as the model emitted it (arguments lossless, in the model's key order). */
export interface ModelToolCall {
  name: string;
  arguments: JsonValue;
  /** Set when the model's arguments were not JSON at all (`arguments` then holds their raw text). */
  argumentsError?: string;
}

/** Why a run failed, as `GET /v1/runs/{id}` shows it. */
export interface RunFailure {
  code: string;
  message: string;
}

/** The outcome of one model turn. */
export type ModelTurn =
  /** The model's final message: the run completes with it as its output. */
  | { kind: "message"; text: string }
  /** The model asks for these tools; the run waits for their outcomes. */
  | { kind: "tool_calls"; calls: ModelToolCall[] }
  /** The model cannot go on: the run fails with this error. */
  | { kind: "fail"; error: RunFailure };
