/**
 * Retention of ended runs (docs/operations.md#retention): which runs ended long enough ago, read in
 * the order of the `runs_ended` index (0015) and stopping at the limit, and their deletion with every
 * row that belongs to them — receipts, tool calls, history, events, model requests and a queued model
 * turn — in one short transaction per batch. A run that still holds a live call (a compensation call
 * an executor may be working on) is kept until that call settles.
 */

import { CALL_STATUSES, type CallStatus, SETTLED_CALL_STATUSES } from "@toolhost/protocol";
import type { Db, StoreContext } from "../engine/store-context.js";
import type { RetainedRun, RunRetentionStore } from "./contract.js";

/** Statuses of calls whose run must not be deleted yet: someone may still claim, start or report them. */
export const LIVE_CALL_STATUSES: readonly CallStatus[] = Object.values(CALL_STATUSES).filter(
  (status) => !SETTLED_CALL_STATUSES.has(status),
);

/** The RunRetentionStore over Kysely (both dialects). */
export class KyselyRunRetentionStore implements RunRetentionStore {
  constructor(private readonly ctx: StoreContext) {}

  async expired(endedBeforeMs: number, limit: number): Promise<RetainedRun[]> {
    const rows = await this.ctx.read((db) => expiredRunsQuery(db, endedBeforeMs, limit).execute());
    return rows.map((row) => ({
      run_id: row.run_id,
      ended_at_ms: Number(row.ended_at_ms),
      history_length: Number(row.history_length),
    }));
  }

  async deleteRuns(runIds: readonly string[], endedBeforeMs: number): Promise<string[]> {
    if (runIds.length === 0) return [];
    const deleted = await this.ctx.atomic(async (db) => {
      // Lock first (PostgreSQL), then look for live calls in a statement of its own: it sees a
      // compensation call committed by a flow that held the run's lock until just now.
      let locking = db
        .selectFrom("runs")
        .select("run_id")
        .where("run_id", "in", runIds)
        .where("ended_at_ms", "is not", null)
        .where("ended_at_ms", "<", endedBeforeMs);
      if (this.ctx.dialect === "postgres") locking = locking.forUpdate();
      const ended = (await locking.execute()).map((row) => row.run_id);
      if (ended.length === 0) return [];
      const live = await db
        .selectFrom("tool_calls")
        .select("run_id")
        .distinct()
        .where("run_id", "in", ended)
        .where("status", "in", LIVE_CALL_STATUSES)
        .execute();
      const kept = new Set(live.map((row) => row.run_id));
      const endedIds = new Set(ended);
      // In the caller's order (oldest end first).
      const doomed = runIds.filter((runId) => endedIds.has(runId) && !kept.has(runId));
      if (doomed.length > 0) await deleteRunRows(db, doomed);
      return doomed;
    });
    for (const runId of deleted) this.ctx.historyCache.forget(runId);
    return deleted;
  }
}

/**
 * The oldest runs ended before `endedBeforeMs` without a live call: read in the order of the
 * `runs_ended` index, stopping at `limit` (a test checks the plan on both dialects).
 */
export function expiredRunsQuery(db: Db, endedBeforeMs: number, limit: number) {
  return db
    .selectFrom("runs as r")
    .select(["r.run_id", "r.ended_at_ms", "r.history_length"])
    .where("r.ended_at_ms", "is not", null)
    .where("r.ended_at_ms", "<", endedBeforeMs)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("tool_calls as c")
            .select("c.call_id")
            .whereRef("c.run_id", "=", "r.run_id")
            .where("c.status", "in", LIVE_CALL_STATUSES),
        ),
      ),
    )
    .orderBy("r.ended_at_ms")
    .orderBy("r.run_id")
    .limit(limit);
}

/** Deletes every row of `runIds`, children first. */
async function deleteRunRows(db: Db, runIds: readonly string[]): Promise<void> {
  // Receipts by their calls: the primary key (call_id, …) finds them; nothing indexes receipts.run_id.
  await db
    .deleteFrom("receipts")
    .where("call_id", "in", (calls) => calls.selectFrom("tool_calls").select("call_id").where("run_id", "in", runIds))
    .execute();
  await db.deleteFrom("tool_calls").where("run_id", "in", runIds).execute();
  await db.deleteFrom("execution_history").where("run_id", "in", runIds).execute();
  await db.deleteFrom("run_events").where("run_id", "in", runIds).execute();
  await db.deleteFrom("model_requests").where("run_id", "in", runIds).execute();
  await db.deleteFrom("model_turns").where("run_id", "in", runIds).execute();
  await db.deleteFrom("runs").where("run_id", "in", runIds).execute();
}
