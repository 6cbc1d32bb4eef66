/**
 * A model turn's decision that cannot be made fails the run instead of throwing. A decision that
 * throws (stored settings it cannot read, a bug) would throw again on every retry — the receipt
 * settling the turn's last call would be refused on every redelivery and the run would wait forever —
 * so the run fails with `model_error`. Storage errors are not caught: they happen outside the decision,
 * and a retry may well succeed.
 */

import type { RunFailure } from "../models/model-turn.js";

/** The run error when the model could not be asked or its turn could not be decided. */
export const MODEL_ERROR = "model_error";

/** Longest run error message kept from a failed decision. */
const MAX_FAILURE_MESSAGE_LENGTH = 500;

/** The run failure of a decision that threw `error`. */
export function undecidedTurn(error: unknown): RunFailure {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    code: MODEL_ERROR,
    message: `the model turn could not be decided: ${reason}`.slice(0, MAX_FAILURE_MESSAGE_LENGTH),
  };
}

/** What `decide()` (pure, maybe yielding to the event loop) answers, or the failure when it throws. */
export async function decided<T extends object>(
  decide: () => T | Promise<T>,
): Promise<T | { kind: "fail"; error: RunFailure }> {
  try {
    return await decide();
  } catch (error) {
    return { kind: "fail", error: undecidedTurn(error) };
  }
}
