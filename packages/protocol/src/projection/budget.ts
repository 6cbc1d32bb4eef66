/**
 * The result context budget of a tool: how many bytes of compact JSON of a result the model sees.
 */

import { ProtocolError } from "../errors.js";

/** Budget bounds and default, in bytes of compact UTF-8 JSON (docs/projection.md). */
export const RESULT_CONTEXT_BYTES = {
  /** The smallest budget a tool may declare: 1 KiB. */
  min: 1024,
  /** The largest budget a tool may declare: 32 KiB. */
  max: 32768,
  /** The budget of a tool that declares none: 16 KiB. */
  default: 16384,
} as const;

/** Refuses a budget that is not an integer from 1,024 to 32,768, naming the pointer at fault. */
export function checkBudget(budget: unknown, pointer = "/max_result_context_bytes"): number {
  if (
    typeof budget !== "number" ||
    !Number.isInteger(budget) ||
    budget < RESULT_CONTEXT_BYTES.min ||
    budget > RESULT_CONTEXT_BYTES.max
  ) {
    throw new ProtocolError(
      "invalid_budget",
      `max_result_context_bytes must be an integer from ${RESULT_CONTEXT_BYTES.min} to ${RESULT_CONTEXT_BYTES.max} (1–32 KiB); got ${JSON.stringify(budget) ?? String(budget)}`,
      pointer,
      { min: RESULT_CONTEXT_BYTES.min, max: RESULT_CONTEXT_BYTES.max, default: RESULT_CONTEXT_BYTES.default },
    );
  }
  return budget;
}
