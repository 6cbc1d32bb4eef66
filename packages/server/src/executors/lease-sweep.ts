/**
 * The executor lease sweep: an online connection whose lease lapsed (no heartbeat for `leaseTtlMs`)
 * goes offline, and its claimed-but-not-accepted calls return to pending, exactly like a detach.
 * Accepted calls stay with the executor ID. Safe on several instances at once: each connection is
 * taken offline by one conditional UPDATE, so only one instance releases its calls.
 */

import { afterRelease } from "../calls/after-release.js";
import type { DomainEvents } from "../observability/domain-events.js";
import type { RunProgress } from "../runs/run-progress.js";
import type { Sweep } from "../runtime/sweeper.js";
import type { ReleasedCall, Storage } from "../storage/storage.js";
import { expireConnection } from "./executor-offline.js";

/** Most connections one sweep takes offline (the rest wait for the next tick). */
export const LEASE_SWEEP_BATCH = 100;

/** What one lease sweep did. */
export interface LeaseSweepOutcome {
  /** The connections this sweep took offline. */
  readonly expired: ReadonlyArray<{ executor_id: string; connection_id: string }>;
  /** The calls returned to pending. */
  readonly released: readonly ReleasedCall[];
}

/** Takes every lapsed connection offline at `nowMs` and releases its unconfirmed claims (up to LEASE_SWEEP_BATCH). */
export async function sweepExecutorLeases(storage: Storage, nowMs: number): Promise<LeaseSweepOutcome> {
  const expired: Array<{ executor_id: string; connection_id: string }> = [];
  const released: ReleasedCall[] = [];
  for (const executor of await storage.executors.listLapsed(nowMs, LEASE_SWEEP_BATCH)) {
    const outcome = await expireConnection(storage, executor.executor_id, executor.connection_id, nowMs);
    if (!outcome.changed) continue;
    expired.push({ executor_id: executor.executor_id, connection_id: executor.connection_id });
    released.push(...outcome.released);
  }
  return { expired, released };
}

/** The lease sweep as the sweeper runs it: sweep, then cancel or re-offer the released calls (`afterRelease`). */
export const executorLeaseSweep: Sweep<{
  readonly storage: Storage;
  readonly events: DomainEvents;
  readonly runProgress: RunProgress;
}> = {
  name: "executor-leases",
  async run(context, nowMs) {
    const outcome = await sweepExecutorLeases(context.storage, nowMs);
    for (const lapsed of outcome.expired) context.events.leaseLapsed(lapsed.executor_id, lapsed.connection_id);
    for (const call of outcome.released) context.events.claimReleased(call, "executor_offline");
    if (outcome.released.length > 0) await afterRelease(context, outcome.released, nowMs);
  },
};
