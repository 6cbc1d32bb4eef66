/**
 * The run deadline sweep (docs/runs.md#limits): every tick, the open runs whose deadline passed — read
 * from the partial index `runs_deadline` in deadline order, a bounded batch per tick — end `expired`
 * with a `run_limit_exceeded` error naming `run_timeout_ms`. Each run is its own transaction that takes
 * the run's lock first and expires it only when the table allows it and it is still overdue (another
 * instance, a cancel or a settling receipt may have ended it meanwhile). As with a run cancel, its
 * unconfirmed calls (`pending`, `claimed`) are cancelled with it, its queued model turn is dropped (an
 * answer in flight finds the run ended and is not applied) and accepted calls are left alone: their
 * later receipts are stored and answered `applied: false`.
 */

import { type RunStatus, transitionRun } from "@toolhost/protocol";
import { traceSettledCalls } from "../observability/call-tracing.js";
import type { Sweep } from "../runtime/sweeper.js";
import type { RunRecord } from "../storage/records.js";
import type { Storage } from "../storage/storage.js";
import { emitRunEvents, runStatusEvent, toolCallEvent } from "./run-events.js";
import { timeoutFailure } from "./run-limits.js";

/** Most overdue runs one tick expires (the rest wait for the next tick). */
export const RUN_DEADLINE_SWEEP_BATCH = 200;

/** What to do with a run the index listed as overdue (pure). */
export type ExpiryDecision = { readonly expire: true; readonly to: RunStatus } | { readonly expire: false };

/** Whether `run` (locked) expires at `nowMs`: open, past its deadline, and the table allows `expire`. */
export function decideExpiry(run: RunRecord | undefined, nowMs: number): ExpiryDecision {
  if (run === undefined || run.ended_at_ms !== null || run.deadline_ms === null || run.deadline_ms > nowMs) {
    return { expire: false };
  }
  const transition = transitionRun(run.status, "expire");
  return transition.ok ? { expire: true, to: transition.to } : { expire: false };
}

/** Expires the runs overdue at `nowMs` (up to RUN_DEADLINE_SWEEP_BATCH); answers the IDs it expired. */
export async function expireOverdueRuns(storage: Storage, nowMs: number): Promise<string[]> {
  const expired: string[] = [];
  for (const runId of await storage.runs.overdue(nowMs, RUN_DEADLINE_SWEEP_BATCH)) {
    if (await expireRun(storage, runId, nowMs)) expired.push(runId);
  }
  return expired;
}

/** One overdue run in its own transaction; false when it ended (or changed) first. */
function expireRun(storage: Storage, runId: string, nowMs: number): Promise<boolean> {
  return storage.transaction(async (stores) => {
    const run = await stores.runs.getForUpdate(runId);
    const decision = decideExpiry(run, nowMs);
    if (run === undefined || !decision.expire) return false;
    const change = {
      status: decision.to,
      updated_at_ms: nowMs,
      ended_at_ms: nowMs,
      error_json: JSON.stringify(timeoutFailure(run)),
    };
    const saved = await stores.runs.update(runId, run.status, change);
    if (saved === undefined) throw new Error(`run ${runId} changed while locked`);
    const cancelledCalls = await stores.calls.cancelForRunEnd(runId, nowMs);
    traceSettledCalls(cancelledCalls);
    await stores.modelTurns.remove(runId);
    await emitRunEvents(stores, runId, [...cancelledCalls.map(toolCallEvent), runStatusEvent(saved)], nowMs);
    return true;
  });
}

/** The sweep that expires overdue runs. */
export const runDeadlineSweep: Sweep<{ readonly storage: Storage }> = {
  name: "run-deadlines",
  async run(context, nowMs) {
    await expireOverdueRuns(context.storage, nowMs);
  },
};
