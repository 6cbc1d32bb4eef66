/**
 * Where the crash executor may SIGKILL itself: each point is a runner lifecycle event (listeners run
 * synchronously at that exact step of the protocol) and a filter on its payload.
 */

/** Every kill point: the event it fires on, and what the moment means. */
export const KILL_POINTS = {
  after_claim: { event: "claimed", means: "claim won, nothing journaled (before accepted)" },
  before_accept: { event: "assignment_journaled", means: "operation key and assignment journaled, accepted not sent" },
  after_accept_sent: { event: "accept_sent", means: "the server confirmed; the answer is not journaled" },
  after_confirm: { event: "confirmed", means: "confirmation journaled, before the side effect" },
  after_effect: { event: "effect_done", means: "side effect applied, result not journaled" },
  after_journal: { event: "result_journaled", means: "final receipt journaled, not sent" },
  after_send: { event: "receipt_sent", means: "final receipt sent and answered, acknowledgement not journaled" },
  during_reconcile: { event: "reconciliation_required", means: "outcome unknown, before the resolver answered" },
};

/** Every point name, in a fixed order. */
export const KILL_POINT_NAMES = Object.keys(KILL_POINTS);

/**
 * The points instances take round-robin as their main plan (every one is reached on every call).
 * `during_reconcile` is only reached when a call's outcome is unknown, so it is an extra trigger some
 * instances carry besides their main point, not a plan of its own (an instance waiting for it would
 * rarely die).
 */
export const MAIN_KILL_POINTS = KILL_POINT_NAMES.filter((point) => point !== "during_reconcile");

const FINAL_KINDS = new Set(["completed", "failed", "cancelled", "reconciliation_required"]);

/** True when `payload` of the point's event is a moment to count. */
export function countsFor(point, payload) {
  if (point === "after_send" || point === "after_journal") return FINAL_KINDS.has(payload.kind);
  return true;
}
