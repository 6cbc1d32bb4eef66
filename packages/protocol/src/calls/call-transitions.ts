/**
 * The call state machine as one table: for each status, the events it accepts and where they lead.
 * Decisions ask `transitionCall`: an event a status does not accept is refused, never silently
 * ignored. The server's stores move calls with conditional UPDATEs whose from- and to-statuses are
 * derived from this table, each store declaring the events it takes (a claim that takes over a claim
 * whose accept window lapsed takes two at once: `release`, then `claim`); a server test runs every
 * such statement against a call in every status and checks that it takes exactly those edges, and
 * that together the stores take every event of the table.
 */

import type { CallStatus } from "./call-status.js";

/** What can happen to a call. */
export const CALL_EVENTS = {
  /** An executor wins the claim. */
  claim: "claim",
  /** The claim is given back unconfirmed: accept window passed, executor detached or its lease lapsed. */
  release: "release",
  /** The executor's `accepted` receipt is confirmed. */
  accept: "accept",
  /** A `completed` receipt. */
  complete: "complete",
  /** A `failed` receipt. */
  fail: "fail",
  /** A `cancelled` receipt (the product confirms a cancellation). */
  confirm_cancel: "confirm_cancel",
  /** A `reconciliation_required` receipt: the executor does not know whether the action happened. */
  report_unknown: "report_unknown",
  /** The call's deadline passed. */
  deadline: "deadline",
  /** The run ended (cancelled, failed, expired) before the call was confirmed to start. */
  run_ended: "run_ended",
  /** A business-task cancellation of a call nobody holds yet: nothing to ask, it is cancelled. */
  cancel_unclaimed: "cancel_unclaimed",
} as const;

/** One call event. */
export type CallEvent = keyof typeof CALL_EVENTS;

/** Allowed transitions: status → event → next status. Final statuses accept nothing. */
export const CALL_TRANSITIONS: Readonly<Record<CallStatus, Readonly<Partial<Record<CallEvent, CallStatus>>>>> = {
  pending: { claim: "claimed", deadline: "expired", run_ended: "cancelled", cancel_unclaimed: "cancelled" },
  claimed: { accept: "accepted", release: "pending", deadline: "expired", run_ended: "cancelled" },
  accepted: {
    complete: "completed",
    fail: "failed",
    confirm_cancel: "cancelled",
    report_unknown: "reconciliation_required",
    deadline: "reconciliation_required",
  },
  reconciliation_required: { complete: "completed", fail: "failed", confirm_cancel: "cancelled" },
  completed: {},
  failed: {},
  cancelled: {},
  expired: {},
};

/** The outcome of asking the table: the next status, or a refusal naming the status and event. */
export type CallTransition = { ok: true; to: CallStatus } | { ok: false; from: CallStatus; event: CallEvent };

/** Where `event` takes a call in `from`, if the table allows it. */
export function transitionCall(from: CallStatus, event: CallEvent): CallTransition {
  const to = CALL_TRANSITIONS[from][event];
  return to === undefined ? { ok: false, from, event } : { ok: true, to };
}
