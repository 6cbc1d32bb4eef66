/**
 * The edges of the call transition table the stores' SQL takes, each derived from the protocol's
 * table rather than spelled out, so a change of the table shows here at start-up instead of in a
 * silent query. Every store that moves calls says which events it takes (its `…_CALL_EVENTS`), and
 * `test/storage/store-transitions.test.ts` runs each statement against a call in every status to check
 * that it takes exactly those edges.
 */

import { CALL_STATUSES, type CallEvent, type CallStatus, transitionCall } from "@toolhost/protocol";

/** The statuses one event moves a call out of, and the one status they all lead to. */
export interface CallEdges {
  readonly event: CallEvent;
  readonly from: readonly CallStatus[];
  readonly to: CallStatus;
}

/** The edges of `event`; the table must lead them all to one status (a bug otherwise). */
export function edgesOf(event: CallEvent): CallEdges {
  const from: CallStatus[] = [];
  const targets = new Set<CallStatus>();
  for (const status of Object.values(CALL_STATUSES)) {
    const transition = transitionCall(status, event);
    if (!transition.ok) continue;
    from.push(status);
    targets.add(transition.to);
  }
  const [to, ...others] = targets;
  if (to === undefined || others.length > 0) throw new Error(`call event ${event} must lead to exactly one status`);
  return { event, from, to };
}

/**
 * The moves of a store's statements, by statement: each a list of paths through the table (one event,
 * or several a single statement takes at once). A statement that changes no status has none.
 */
export type StoreCallMoves<Statement extends string> = Readonly<Record<Statement, readonly (readonly CallEvent[])[]>>;

/** True when the table has an edge `from` → `to` for one of `events`. */
export function isEdgeOf(events: readonly CallEvent[], from: CallStatus, to: CallStatus): boolean {
  return events.some((event) => {
    const transition = transitionCall(from, event);
    return transition.ok && transition.to === to;
  });
}

/** A claim wins a call nobody holds. */
export const CLAIM_EDGES = edgesOf("claim");
/** A claim is given back (accept window lapsed, detach, lease lapse). */
export const RELEASE_EDGES = edgesOf("release");
/** A claim is confirmed (`accepted` → `confirmed: true`). */
export const ACCEPT_EDGES = edgesOf("accept");
/** The run ended before the call was confirmed to start. */
export const RUN_ENDED_EDGES = edgesOf("run_ended");
/** A business cancel of a call nobody holds. */
export const CANCEL_UNCLAIMED_EDGES = edgesOf("cancel_unclaimed");

/** Receipt events that settle a call (the `settle` statement takes only their edges). */
export const RECEIPT_SETTLE_EVENTS: readonly CallEvent[] = ["complete", "fail", "confirm_cancel", "report_unknown"];

/** The deadline event: it leads to two statuses, so its edges are taken one `from` at a time. */
export const DEADLINE_EVENT: CallEvent = "deadline";

/** A call nobody holds: where calls are created, the one status a claim takes. */
export const PENDING: CallStatus = "pending";
/** Claimed, not yet confirmed. */
export const CLAIMED = CLAIM_EDGES.to;
/** Where a released claim goes back to. */
export const RELEASED = RELEASE_EDGES.to;
/** Confirmed: the executor may start side effects. */
export const ACCEPTED = ACCEPT_EDGES.to;
/** An accepted call whose outcome is unknown. */
export const UNKNOWN_OUTCOME = edgesOf("report_unknown").to;

// Where calls are created is where claims come from; and a claim takes over a claim whose accept
// window lapsed in one statement: `release` then `claim`, a path of the table only while a released
// call is claimable and a claimed call releasable.
if (CLAIM_EDGES.from.length !== 1 || CLAIM_EDGES.from[0] !== PENDING) {
  throw new Error(`the call transition table must let calls be claimed from ${PENDING} only`);
}
if (!RELEASE_EDGES.from.includes(CLAIMED) || RELEASED !== PENDING) {
  throw new Error("the call transition table no longer lets a lapsed claim be released and claimed again");
}
