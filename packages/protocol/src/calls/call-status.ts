/**
 * The states of a tool call. A call is created `pending` when the model asks for it; exactly one
 * executor may claim it; side effects may start only once it is `accepted`.
 */

/** Every call status, with what it means. */
export const CALL_STATUSES = {
  /** Waiting for an online, in-scope executor to claim it. */
  pending: "pending",
  /** One executor holds the claim; it has not been confirmed to start (no side effect yet). */
  claimed: "claimed",
  /** The server confirmed the claim (`accepted` → `confirmed: true`): the executor may act. */
  accepted: "accepted",
  /** The executor reported a result (final). */
  completed: "completed",
  /** The product confirmed a business failure (final). */
  failed: "failed",
  /** The call was cancelled before it ran, or the product confirmed a cancellation (final). */
  cancelled: "cancelled",
  /** The outcome is unknown (handler crash, silence past the deadline); the product must reconcile. */
  reconciliation_required: "reconciliation_required",
  /** Nobody claimed it (or confirmed a claim) before its deadline; it never ran (final). */
  expired: "expired",
} as const;

/** One call status. */
export type CallStatus = keyof typeof CALL_STATUSES;

/** Statuses after which nothing about the call changes. */
export const FINAL_CALL_STATUSES: ReadonlySet<CallStatus> = new Set(["completed", "failed", "cancelled", "expired"]);

/** Statuses whose outcome the model can be told (final, or the fixed unknown-outcome message). */
export const SETTLED_CALL_STATUSES: ReadonlySet<CallStatus> = new Set([
  "completed",
  "failed",
  "cancelled",
  "expired",
  "reconciliation_required",
]);

/** True when `value` names a call status. */
export function isCallStatus(value: unknown): value is CallStatus {
  return typeof value === "string" && Object.hasOwn(CALL_STATUSES, value);
}
