/**
 * The one rule tying a call to its run's end: once a run has ended, its calls are frozen — none can be
 * claimed or confirmed to start, and no receipt counts for the run any more (a late outcome is still
 * recorded on the call). Compensation calls are exempt: they are explicit business operations, linked
 * to a call of the run but never part of its turns, so they go on after the run ended.
 */

import { type RunStatus, TERMINAL_RUN_STATUSES } from "../runs/run-status.js";

/** What the rule needs of a call: whether it compensates another call (a compensation call). */
export interface FreezableCall {
  /** The call this one compensates, or null for a call the model made. */
  readonly compensates: string | null;
}

/** True when a run in `runStatus` freezes `call`: the run ended and the call is not a compensation call. */
export function runFreezesCall(runStatus: RunStatus, call: FreezableCall): boolean {
  return call.compensates === null && TERMINAL_RUN_STATUSES.has(runStatus);
}
