/**
 * What replaces a final receipt the server refused for good because of its body (pure). A result the
 * server will never take (over its body limit, a value it refuses) would otherwise leave the call open
 * until its deadline and then `reconciliation_required` — an outcome reported as unknown although the
 * handler ran and the runner knows it. The runner journals a `failed` receipt instead, with the error
 * `result_refused` carrying the server's status and code, so the call settles and the model is told.
 * Refusals about the call rather than the body (the call already final, the grant expired, a receipt
 * ID reused) change nothing: another receipt would be refused the same way.
 */

import type { JsonValue, ReceiptKind } from "@toolhost/protocol";
import { errorObject, type ReceiptDraft } from "../receipt-body.js";

/** The error code of the `failed` receipt that replaces a refused final receipt. */
export const RESULT_REFUSED = "result_refused";

/**
 * Final receipts whose outcome the runner knows. A refused `reconciliation_required` is not replaced:
 * the outcome is unknown, and the server moves a silent call there at its deadline anyway.
 */
const KNOWN_OUTCOMES: ReadonlySet<ReceiptKind> = new Set(["completed", "failed", "cancelled"]);

/** Statuses that refuse a receipt for its body: 400 unreadable, 413 too large, 422 invalid. */
const BODY_REFUSALS: ReadonlySet<number> = new Set([400, 413, 422]);

/** The longest part of the server's message the replacement error quotes. */
const MAX_QUOTED_MESSAGE = 300;

/** The refused receipt, as the delivery knows it. */
export interface RefusedReceipt {
  readonly receiptId: string;
  readonly kind: ReceiptKind;
  readonly bodyText: string;
}

/** The server's refusal. */
export interface Refusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

/** The `failed` receipt to journal in place of `receipt`, or undefined when none should be. */
export function replacementOfRefused(receipt: RefusedReceipt, refusal: Refusal): ReceiptDraft | undefined {
  if (!KNOWN_OUTCOMES.has(receipt.kind) || !BODY_REFUSALS.has(refusal.status)) return undefined;
  // A replacement refused in its turn is not replaced again.
  if (receipt.kind === "failed" && errorCodeOf(receipt.bodyText) === RESULT_REFUSED) return undefined;
  const details = new Map<string, JsonValue>([
    ["status", refusal.status],
    ["code", refusal.code],
    ["refused_kind", receipt.kind],
    ["refused_receipt_id", receipt.receiptId],
  ]);
  const quoted = refusal.message.slice(0, MAX_QUOTED_MESSAGE);
  return {
    kind: "failed",
    error: errorObject(
      RESULT_REFUSED,
      `the server refused the ${receipt.kind} receipt for good (${refusal.status} ${refusal.code}${quoted === "" ? "" : `: ${quoted}`}); the handler's outcome was not delivered`,
      details,
    ),
  };
}

/** The `error.code` of a journaled receipt body (the runner's own text), if any. */
function errorCodeOf(bodyText: string): unknown {
  try {
    const body = JSON.parse(bodyText) as { error?: { code?: unknown } };
    return body.error?.code;
  } catch {
    return undefined;
  }
}
