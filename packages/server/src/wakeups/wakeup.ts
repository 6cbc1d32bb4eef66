/**
 * What wakes long-polling executors (docs/executors.md, "Wake-ups"), announced by the flow that
 * committed it, after the commit. A new claimable call wakes ONE waiting executor that serves its
 * binding and tool (not every waiter of the binding); a business cancel of a held call wakes the
 * holder's waits. The types live with the storage contract, whose after-commit effects carry them
 * (docs/storage.md, "After-commit effects").
 */

import type { CallWakeup, Wakeup } from "../storage/records.js";

export type { CallWakeup, CancelWakeup, Wakeup } from "../storage/records.js";

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
