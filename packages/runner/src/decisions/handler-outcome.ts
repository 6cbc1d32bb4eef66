/**
 * What a handler's end means (pure). The rule that keeps products safe: only an explicit
 * confirmation is a definite outcome. A returned value is `completed`; a BusinessError is `failed`
 * and a CancelledError `cancelled` (the product confirms both); any other exception from a write
 * tool means the side effect may or may not have happened, so it is `reconciliation_required` and the
 * product's resolver decides later. A read tool has no side effect to reconcile: its exception is
 * reported `failed`. A handler that deferred the call reports nothing now.
 */

import type { ResultType, ToolEffect } from "@toolhost/protocol";
import { isBusinessError, isCancelledError, RunnerError } from "../errors.js";
import type { JournalState } from "../journal/journal-records.js";
import { toJsonValue } from "../json-value.js";
import { errorObject, type ReceiptDraft } from "../receipt-body.js";

/** How a handler's promise settled. */
export type HandlerSettlement =
  | { readonly type: "returned"; readonly value: unknown }
  | { readonly type: "threw"; readonly error: unknown };

/** Facts about the call the outcome depends on. */
export interface HandlerFacts {
  readonly effect: ToolEffect;
  /** True when the handler called `ctx.defer()`. */
  readonly deferred: boolean;
  /** The registered result type (omitted from the receipt when undefined). */
  readonly resultType: ResultType | undefined;
}

/** Stable error codes the runner puts in receipts it writes itself. */
export const RUNNER_RECEIPT_CODES = {
  /** A handler threw something other than BusinessError or CancelledError. */
  handler_exception: "handler_exception",
  /** A handler returned a value JSON cannot express (after its side effect may have happened). */
  invalid_result: "invalid_result",
  /** The product confirmed a cancellation. */
  cancelled: "cancelled",
} as const;

/** Longest exception message copied into a receipt (messages may be long stack-like texts). */
export const ERROR_MESSAGE_MAX_LENGTH = 500;

/** What to journal after the handler. */
export type HandlerOutcome =
  /** The call continues under a deferred handle: nothing to journal now. */
  | { readonly type: "deferred" }
  /** Journal this final receipt and move the call to `state`. */
  | { readonly type: "receipt"; readonly draft: ReceiptDraft; readonly state: JournalState; readonly code: string };

/** The outcome of a handler that settled as `settlement`. */
export function decideHandlerOutcome(settlement: HandlerSettlement, facts: HandlerFacts): HandlerOutcome {
  if (settlement.type === "returned") {
    if (facts.deferred) return { type: "deferred" };
    try {
      const result = toJsonValue(settlement.value === undefined ? null : settlement.value);
      const draft: ReceiptDraft =
        facts.resultType === undefined
          ? { kind: "completed", result }
          : { kind: "completed", result, resultType: facts.resultType };
      return { type: "receipt", draft, state: "finishing", code: "completed" };
    } catch (error) {
      // The side effect may have happened and its result cannot be reported: only the product knows.
      return unknownOutcome(facts.effect, RUNNER_RECEIPT_CODES.invalid_result, messageOf(error));
    }
  }
  const { error } = settlement;
  if (isCancelledError(error)) {
    const details = detailsOf(error.details);
    return {
      type: "receipt",
      draft: { kind: "cancelled", error: errorObject(RUNNER_RECEIPT_CODES.cancelled, clip(error.message), details) },
      state: "finishing",
      code: "cancelled",
    };
  }
  if (isBusinessError(error)) {
    const details = detailsOf(error.details);
    return {
      type: "receipt",
      draft: { kind: "failed", error: errorObject(String(error.code), clip(error.message), details) },
      state: "finishing",
      code: "failed",
    };
  }
  return unknownOutcome(facts.effect, RUNNER_RECEIPT_CODES.handler_exception, messageOf(error));
}

/** A write tool's unknown outcome goes to reconciliation; a read tool's is a plain failure. */
function unknownOutcome(effect: ToolEffect, code: string, message: string): HandlerOutcome {
  const error = errorObject(code, message);
  if (effect === "read") return { type: "receipt", draft: { kind: "failed", error }, state: "finishing", code };
  return { type: "receipt", draft: { kind: "reconciliation_required", error }, state: "reconciling", code };
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return clip(`${error.name}: ${error.message}`);
  return clip(`non-error thrown: ${typeof error}`);
}

/** At most ERROR_MESSAGE_MAX_LENGTH characters, well-formed (a cut never leaves half a surrogate pair). */
function clip(text: string): string {
  const whole = text.toWellFormed();
  return whole.length <= ERROR_MESSAGE_MAX_LENGTH
    ? whole
    : `${whole.slice(0, ERROR_MESSAGE_MAX_LENGTH - 1).toWellFormed()}…`;
}

/** Error details as JSON, or none when they cannot be sent (the receipt must still go out). */
function detailsOf(details: Record<string, unknown> | undefined) {
  if (details === undefined) return undefined;
  try {
    return toJsonValue(details);
  } catch (error) {
    if (error instanceof RunnerError) return undefined;
    throw error;
  }
}
