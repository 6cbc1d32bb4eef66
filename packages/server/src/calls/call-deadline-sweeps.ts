/**
 * The claim and deadline sweeps the sweeper runs every tick (`app/sweeps.ts`), with the injected
 * clock's time:
 *
 * - accept windows: a claim not accepted in time (`accept_deadline_ms < now`) is released — the call
 *   returns to pending (event `release`) and long-polling executors on its binding are woken, or, when
 *   its business cancel was asked while it was held, it is cancelled (event `cancel_unclaimed`);
 * - deadlines (event `deadline`): a pending or claimed call past its deadline is `expired` (it never
 *   ran), an accepted call still silent is `reconciliation_required` (the product must reconcile); the
 *   run learns the outcome (`callSettled`) in the same transaction, one call per transaction, taking
 *   the run's lock before the call's like every other flow.
 *
 * Both are safe on several instances at once: each change is a conditional UPDATE.
 */

import { CALL_STATUSES, type CallStatus, transitionCall } from "@toolhost/protocol";
import type { DomainEvents } from "../observability/domain-events.js";
import type { RunProgress } from "../runs/run-progress.js";
import type { Sweep } from "../runtime/sweeper.js";
import type { CallRecord } from "../storage/records.js";
import type { CallRef, Storage } from "../storage/storage.js";
import { afterRelease } from "./after-release.js";

/** Most lapsed claims one tick releases (the rest wait for the next tick). */
export const ACCEPT_WINDOW_SWEEP_BATCH = 200;

/** Most overdue calls one tick settles. */
export const DEADLINE_SWEEP_BATCH = 200;

/** The statuses the `deadline` event moves a call out of, from the transition table. */
export const DEADLINE_STATUSES: readonly CallStatus[] = Object.values(CALL_STATUSES).filter(
  (status) => transitionCall(status, "deadline").ok,
);

/** Releases claims whose accept window lapsed by `nowMs`; answers the calls now pending again. */
export function releaseLapsedClaims(storage: Storage, nowMs: number): Promise<CallRecord[]> {
  return storage.callClaims.releaseLapsedClaims(nowMs, ACCEPT_WINDOW_SWEEP_BATCH);
}

/** What the deadline sweep did. */
export interface DeadlineSweepOutcome {
  /** The calls it settled, with their new status. */
  readonly settled: readonly CallRecord[];
}

/** Settles every call past its deadline at `nowMs` (up to DEADLINE_SWEEP_BATCH). */
export async function settleOverdueCalls(
  storage: Storage,
  runProgress: RunProgress,
  nowMs: number,
): Promise<DeadlineSweepOutcome> {
  const settled: CallRecord[] = [];
  for (const ref of await storage.callClaims.overdue(DEADLINE_STATUSES, nowMs, DEADLINE_SWEEP_BATCH)) {
    const call = await settleOverdueCall(storage, runProgress, ref, nowMs);
    if (call !== undefined) settled.push(call);
  }
  return { settled };
}

/** One overdue call in its own transaction; undefined when another instance or flow settled it first. */
async function settleOverdueCall(
  storage: Storage,
  runProgress: RunProgress,
  ref: CallRef,
  nowMs: number,
): Promise<CallRecord | undefined> {
  const settled = await storage.transaction(async (stores) => {
    const target = await stores.callClaims.target(ref.run_id, ref.call_id);
    if (target === undefined) return undefined;
    const from = target.call.status;
    const transition = transitionCall(from, "deadline");
    if (!transition.ok) return undefined;
    const call = await stores.callClaims.settleOverdue(ref.call_id, from, transition.to, nowMs);
    if (call === undefined) return undefined;
    const progress = await runProgress.callSettled(
      stores,
      call,
      transition.to === "expired" ? { kind: "expired" } : { kind: "reconciliation_required", receipt_id: null },
      nowMs,
    );
    return { call, ready: progress.ready === true };
  });
  // The sweep goes on once the turn engine made the next turn (the sweep's work stays bounded).
  if (settled?.ready === true) await runProgress.advanced(settled.call.run_id);
  return settled?.call;
}

/**
 * The accept-window sweep: release lapsed claims, then finish them like a detach does — a released
 * call whose business cancel was asked is cancelled (nobody holds it any more, so nobody may start it),
 * the others wake long-polls on their bindings.
 */
export const acceptWindowSweep: Sweep<{
  readonly storage: Storage;
  readonly events: DomainEvents;
  readonly runProgress: RunProgress;
}> = {
  name: "claim-accept-windows",
  async run(context, nowMs) {
    const released = await releaseLapsedClaims(context.storage, nowMs);
    for (const call of released) context.events.claimReleased(call, "accept_window_lapsed");
    if (released.length > 0) await afterRelease(context, released, nowMs);
  },
};

/** The deadline sweep: settle overdue calls, then wake long-polls on bindings that got new calls. */
export const callDeadlineSweep: Sweep<{
  readonly storage: Storage;
  readonly events: DomainEvents;
  readonly runProgress: RunProgress;
}> = {
  name: "call-deadlines",
  async run(context, nowMs) {
    const outcome = await settleOverdueCalls(context.storage, context.runProgress, nowMs);
    for (const call of outcome.settled) {
      if (call.status === "expired") context.events.callExpired(call);
      else context.events.reconciliationRequired(call);
    }
  },
};
