/**
 * What the model sees of a settled call (pure): the projection of its outcome under the call's
 * budget. A completed result goes through `projectResult` exactly as the dry-run preview does; a
 * failure is projected as `{"error": …}`; cancelled, expired and unknown outcomes are the protocol's
 * fixed messages, never cut.
 */

import {
  CANCELLED_RESULT,
  type ContextPreview,
  EXPIRED_RESULT,
  projectProtocolMessage,
  projectResult,
  projectUnknownOutcome,
} from "@toolhost/protocol";
import type { CallOutcome } from "./run-progress.js";

/** The preview of `outcome` under `budget` (the call's `max_result_context_bytes`). */
export function outcomePreview(outcome: CallOutcome, budget: number): ContextPreview {
  switch (outcome.kind) {
    case "completed":
      return projectResult(outcome.result, budget, outcome.result_type);
    case "failed":
      return projectResult({ error: outcome.error }, budget);
    case "cancelled":
      return projectProtocolMessage(CANCELLED_RESULT, budget);
    case "expired":
      return projectProtocolMessage(EXPIRED_RESULT, budget);
    case "reconciliation_required":
      return projectUnknownOutcome(budget);
  }
}

/** The receipt that carried `outcome`, or null when none did. */
export function outcomeReceiptId(outcome: CallOutcome): string | null {
  return outcome.kind === "expired" ? null : outcome.receipt_id;
}
