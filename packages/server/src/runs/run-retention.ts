/**
 * Retention of ended runs (docs/operations.md#retention): a sweep deletes runs that ended more than
 * `runRetentionMs` ago, with every row of theirs, oldest end first. Each batch is one short
 * transaction of at most RUN_RETENTION_BATCH runs and about RUN_RETENTION_HISTORY_BUDGET history items
 * (a run's history length stands for how many rows its deletion touches); between batches the sweep
 * yields to the next tick, so requests and the other sweeps go on. While there is nothing to delete,
 * it looks again every RUN_RETENTION_IDLE_MS only. `runRetentionMs` 0 keeps everything.
 */

import type { DomainEvents } from "../observability/domain-events.js";
import type { CompiledServerOptions } from "../options.js";
import type { Sweep } from "../runtime/sweeper.js";
import type { RetainedRun, Storage } from "../storage/storage.js";

/** Most runs one batch deletes. */
export const RUN_RETENTION_BATCH = 50;

/** Most history items (summed over its runs) one batch deletes, unless its first run alone holds more. */
export const RUN_RETENTION_HISTORY_BUDGET = 5_000;

/** How long the sweep waits after a look that found less than a full batch (at most 10 s, as documented). */
export const RUN_RETENTION_IDLE_MS = 5_000;

/** The runs one batch deletes (pure): a prefix of `candidates` within the history budget, never empty when they are not. */
export function retentionBatch(candidates: readonly RetainedRun[], historyBudget: number): RetainedRun[] {
  const batch: RetainedRun[] = [];
  let items = 0;
  for (const run of candidates) {
    if (batch.length > 0 && items + run.history_length > historyBudget) break;
    batch.push(run);
    items += run.history_length;
  }
  return batch;
}

/** What one retention pass did. */
export interface RetentionPass {
  /** The runs deleted. */
  readonly deleted: readonly string[];
  /** True when more expired runs may be waiting (the batch was full). */
  readonly more: boolean;
}

/** Deletes one batch of runs that ended before `nowMs - retentionMs`. */
export async function deleteExpiredRuns(storage: Storage, retentionMs: number, nowMs: number): Promise<RetentionPass> {
  const endedBeforeMs = nowMs - retentionMs;
  const candidates = await storage.runRetention.expired(endedBeforeMs, RUN_RETENTION_BATCH);
  const batch = retentionBatch(candidates, RUN_RETENTION_HISTORY_BUDGET);
  const deleted = await storage.runRetention.deleteRuns(
    batch.map((run) => run.run_id),
    endedBeforeMs,
  );
  return { deleted, more: candidates.length > batch.length || candidates.length === RUN_RETENTION_BATCH };
}

/** When each server (by its storage) may look for expired runs next, on its clock. */
const nextLookMs = new WeakMap<Storage, number>();

/** The retention sweep: one batch per tick while there is more, else a look every RUN_RETENTION_IDLE_MS. */
export const runRetentionSweep: Sweep<{
  readonly storage: Storage;
  readonly options: Pick<CompiledServerOptions, "runRetentionMs">;
  readonly events: DomainEvents;
}> = {
  name: "run-retention",
  async run(context, nowMs) {
    const retentionMs = context.options.runRetentionMs;
    if (retentionMs === 0) return;
    const { storage } = context;
    if (nowMs < (nextLookMs.get(storage) ?? Number.NEGATIVE_INFINITY)) return;
    const pass = await deleteExpiredRuns(storage, retentionMs, nowMs);
    nextLookMs.set(storage, pass.more ? nowMs : nowMs + RUN_RETENTION_IDLE_MS);
    if (pass.deleted.length > 0) context.events.runsDeleted(pass.deleted);
  },
};
