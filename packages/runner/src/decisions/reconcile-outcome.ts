/**
 * The terminal receipt of a resolved reconciliation (pure): what the resolver decided, as a receipt
 * draft. An answer that is not one of the three outcomes is refused (the call stays unresolved and is
 * asked again), never guessed.
 */

import { isResultType } from "@toolhost/protocol";
import { toJsonValue } from "../json-value.js";
import { errorObject, type ReceiptDraft } from "../receipt-body.js";
import type { ReconcileOutcome } from "../registry.js";

/** A draft, or why the resolver's answer cannot be sent. */
export type ReconcileDraft =
  | { readonly ok: true; readonly draft: ReceiptDraft }
  | { readonly ok: false; readonly reason: string };

/** The receipt draft of `outcome` (a registered default result type applies to `completed`). */
export function draftOfReconcile(outcome: ReconcileOutcome, defaultResultType?: string): ReconcileDraft {
  try {
    switch (outcome.kind) {
      case "completed": {
        const resultType = outcome.resultType ?? defaultResultType;
        const result = toJsonValue(outcome.result === undefined ? null : outcome.result);
        if (resultType !== undefined && !isResultType(resultType)) return { ok: false, reason: "unknown resultType" };
        return {
          ok: true,
          draft: resultType === undefined ? { kind: "completed", result } : { kind: "completed", result, resultType },
        };
      }
      case "failed": {
        const { error } = outcome;
        if (typeof error?.code !== "string" || typeof error.message !== "string") {
          return { ok: false, reason: "a failed outcome needs error.code and error.message" };
        }
        const details = error.details === undefined ? undefined : toJsonValue(error.details);
        return { ok: true, draft: { kind: "failed", error: errorObject(error.code, error.message, details) } };
      }
      case "cancelled":
        return {
          ok: true,
          draft: { kind: "cancelled", error: errorObject("cancelled", outcome.message ?? "cancelled (reconciled)") },
        };
      default:
        return { ok: false, reason: `unknown outcome kind ${JSON.stringify((outcome as { kind?: unknown }).kind)}` };
    }
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
