/**
 * Periodic upkeep while the runner is started: sweep the outbox for receipts no flow of this process
 * is delivering (journaled by another process finishing a deferred call, or left pending by a failed
 * delivery), and ask resolvers again about calls still waiting for reconciliation.
 */

import { reconcileCall } from "./reconcile-call.js";
import type { RunnerRuntime } from "./runner-runtime.js";
import { sleep } from "./sleep.js";

/** Most calls swept per round. */
const SWEEP_BATCH = 100;

/** Sweeps and reconciles until the runner begins to stop (so a stop's drain is never fed new work). */
export async function maintenanceLoop(rt: RunnerRuntime): Promise<void> {
  const halt = rt.lifecycle.stopSignal;
  let lastReconcileMs = performance.now();
  while (!halt.aborted) {
    await sleep(rt.options.outboxSweepIntervalMs, halt);
    if (halt.aborted) return;
    sweepOutbox(rt);
    if (performance.now() - lastReconcileMs >= rt.options.reconcileIntervalMs) {
      lastReconcileMs = performance.now();
      retryReconciliations(rt);
    }
  }
}

/** Starts delivery of calls with pending receipts that no in-process flow owns. */
export function sweepOutbox(rt: RunnerRuntime): void {
  for (const callId of rt.journal.callsWithPendingReceipts(SWEEP_BATCH, rt.options.executorId)) {
    if (rt.busy.has(callId)) continue;
    const entry = rt.journal.get(callId);
    // An unconfirmed `accepted` belongs to the call flow or to the next start's recovery.
    if (entry === undefined || entry.state === "accepting") continue;
    rt.busy.add(callId);
    rt.tasks.track(`sweeping call ${callId}`, async () => {
      try {
        await rt.delivery.deliverCall(callId);
      } finally {
        rt.busy.delete(callId);
      }
    });
  }
}

/** Asks the resolvers again about reconciling calls no flow owns. */
export function retryReconciliations(rt: RunnerRuntime): void {
  for (const entry of rt.journal.entriesIn(["reconciling"], rt.options.executorId)) {
    if (rt.busy.has(entry.callId)) continue;
    rt.busy.add(entry.callId);
    rt.tasks.track(`reconciling call ${entry.callId}`, async () => {
      try {
        await reconcileCall(rt, entry.callId, { sendUnknown: false });
      } finally {
        rt.busy.delete(entry.callId);
      }
    });
  }
}
