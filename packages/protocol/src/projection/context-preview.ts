/**
 * The context preview: what the model sees of one tool result, with its sizes (docs/projection.md).
 */

import type { JsonValue } from "../json/value.js";

/** What the model sees of a result and how it was cut. */
export interface ContextPreview {
  /** The budget the result was projected to. */
  max_result_context_bytes: number;
  /** Bytes of the compact JSON of the full result. */
  original_bytes: number;
  /** Bytes of the compact JSON of `result` (the projection). */
  retained_bytes: number;
  /** True when `result` is a cut of the original. */
  truncated: boolean;
  /** What the model sees. */
  result: JsonValue;
}

/** The notice in a cut plain-JSON result. */
export const TRUNCATION_NOTICE =
  "The middle of this tool result was omitted to fit the context budget; page or filter the tool to see the rest.";

/** The marker placed between the head and the tail of a cut multimodal text block. */
export const TEXT_OMISSION_MARKER = "\n[… middle of this text omitted to fit the context budget …]\n";

/**
 * What the model sees for a call whose business outcome is unknown (`reconciliation_required`):
 * a fixed protocol message, never cut, never guessed from a partial result.
 */
export const UNKNOWN_OUTCOME_RESULT = {
  status: "reconciliation_required",
  message:
    "The outcome of this tool call is unknown: the action may or may not have happened. Do not repeat it; the product is reconciling it and a later result will say what happened.",
} as const;

/**
 * What the model sees for a call that was cancelled (before it started, with its run still going, or
 * confirmed by the product): a fixed protocol message, never cut.
 */
export const CANCELLED_RESULT = {
  status: "cancelled",
  message: "This tool call was cancelled; it produced no result.",
} as const;

/** What the model sees for a call nobody took (or confirmed) before its deadline: it never ran. */
export const EXPIRED_RESULT = {
  status: "expired",
  message: "No executor took this tool call before its deadline; it never ran. It is safe to call the tool again.",
} as const;
