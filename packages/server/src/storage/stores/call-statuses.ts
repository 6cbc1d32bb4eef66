/**
 * The call statuses the stores' SQL names, each derived from the protocol's transition table rather
 * than spelled out, so a change of the table shows here at start-up instead of in a silent query.
 */

import { type CallEvent, type CallStatus, transitionCall } from "@toolhost/protocol";

/** Where `event` takes a call in `from`; the table must allow it (a bug otherwise). */
function nextStatus(from: CallStatus, event: CallEvent): CallStatus {
  const transition = transitionCall(from, event);
  if (!transition.ok) throw new Error(`the call transition table has no ${event} from ${from}`);
  return transition.to;
}

/** A call nobody holds. */
export const PENDING: CallStatus = "pending";
/** Claimed, not yet confirmed. */
export const CLAIMED = nextStatus(PENDING, "claim");
/** Where a released claim goes back to. */
export const RELEASED = nextStatus(CLAIMED, "release");
/** Confirmed: the executor may start side effects. */
export const ACCEPTED = nextStatus(CLAIMED, "accept");
/** An accepted call whose outcome is unknown. */
export const UNKNOWN_OUTCOME = nextStatus(ACCEPTED, "report_unknown");
