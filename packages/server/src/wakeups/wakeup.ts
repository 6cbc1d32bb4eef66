/**
 * What wakes long-polling executors (docs/executors.md, "Wake-ups"), announced by the flow that
 * committed it, after the commit. A new claimable call wakes ONE waiting executor that serves its
 * binding and tool (not every waiter of the binding); a business cancel of a held call wakes the
 * holder's waits.
 */

/** A call became claimable (created, or returned to pending). */
export interface CallWakeup {
  readonly kind: "call";
  readonly call_id: string;
  readonly binding_id: string;
  readonly tool_name: string;
  /** How often a waiter that could not take the call handed it on (bounded by WAKEUP_HANDOFFS_MAX). */
  readonly handoffs: number;
}

/** A business cancel was asked for a call that `executor_id` holds. */
export interface CancelWakeup {
  readonly kind: "cancel";
  readonly executor_id: string;
}

/** One reason to wake long-polls. */
export type Wakeup = CallWakeup | CancelWakeup;

/** Most times one call's wake-up is handed on to the next waiter (each hand-off wakes one more). */
export const WAKEUP_HANDOFFS_MAX = 8;

/** The wake-up of a call that became claimable. */
export function callWakeup(call: {
  readonly call_id: string;
  readonly binding_id: string;
  readonly tool_name: string;
}): CallWakeup {
  return { kind: "call", call_id: call.call_id, binding_id: call.binding_id, tool_name: call.tool_name, handoffs: 0 };
}

/** The wake-ups of the calls among `calls` that are pending (one per call). */
export function pendingCallWakeups(
  calls: Iterable<{
    readonly call_id: string;
    readonly binding_id: string;
    readonly tool_name: string;
    readonly status: string;
  }>,
): Wakeup[] {
  const wakeups: Wakeup[] = [];
  for (const call of calls) if (call.status === "pending") wakeups.push(callWakeup(call));
  return wakeups;
}

/** The wake-up that hands `wakeup` on to the next waiter, or undefined when it was handed on enough. */
export function handedOn(wakeup: CallWakeup): CallWakeup | undefined {
  return wakeup.handoffs >= WAKEUP_HANDOFFS_MAX ? undefined : { ...wakeup, handoffs: wakeup.handoffs + 1 };
}
