/**
 * The RunProgress of the runs area: how a settled call reaches its run. Inside the settling
 * transaction it locks the run, appends what the model sees of the outcome to the history (projected
 * once, here, and stored), and when the call was the last unsettled one of the turn the run waits
 * for, marks the run ready for the turn engine (`runs.ready_at_ms`) and registers it with the
 * transaction: the engine makes the next turn in a transaction of its own once this one committed
 * (`turn-engine.ts`). A flow that answers with the run's status after that turn asks `advanced`.
 *
 * - An ended run is never changed: `applied: false`, nothing appended (the call row keeps the truth).
 * - A reconciled outcome after `reconciliation_required` is appended as a new item; the earlier
 *   unknown-outcome item stays as it was. Its turn was advanced when it first settled, so it never
 *   starts a turn again (only a call of the turn the run is waiting for can).
 * - Compensation calls are not part of any turn and never enter the history.
 */

import { type RunStatus, runFreezesCall, SETTLED_CALL_STATUSES } from "@toolhost/protocol";
import { traceSettledCalls } from "../observability/call-tracing.js";
import type { CallRecord } from "../storage/records.js";
import type { Stores } from "../storage/storage.js";
import { resultTextOffset, toolResultItem } from "./history-items.js";
import { outcomePreview, outcomeReceiptId } from "./outcome-preview.js";
import { appendHistory, emitRunEvents, toolCallEvent } from "./run-events.js";
import type { CallOutcome, LockedRunFacts, RunProgress, RunProgressAnswer } from "./run-progress.js";
import type { TurnEngine } from "./turn-engine.js";

/** Records settled calls in their run's history and hands runs whose turn settled to the turn engine. */
export class HistoryRunProgress implements RunProgress {
  constructor(private readonly engine: Pick<TurnEngine, "advance">) {}

  advanced(runId: string): Promise<RunStatus | undefined> {
    return this.engine.advance(runId);
  }

  async callSettled(
    stores: Stores,
    call: CallRecord,
    outcome: CallOutcome,
    nowMs: number,
    locked?: LockedRunFacts,
  ): Promise<RunProgressAnswer> {
    // Every settlement passes here (receipts, sweeps, cancels); the span links to the call's trace.
    traceSettledCalls([call]);
    // The lock comes first, so two calls of one turn settling at once see each other and exactly one
    // of them starts the next turn. The receipt flow took it before settling the call and passes the
    // run as locked (and the count of the turn's other unsettled calls, made after the lock).
    const run = locked?.run ?? (await stores.runs.getForUpdate(call.run_id));
    if (run === undefined) throw new Error(`call ${call.call_id} belongs to a missing run ${call.run_id}`);
    // Its appends (the outcome, then the next turn's) go in as one statement at the commit.
    stores.history.lengthKnown(run.run_id, run.history_length);
    const unchanged = (applied: boolean): RunProgressAnswer => ({
      applied,
      run_status: run.status,
    });
    // A compensation call never enters the run (it counts whenever it changed the call)...
    if (call.compensates !== null) return unchanged(true);
    // ...and an ended run takes nothing more from its own calls.
    if (runFreezesCall(run.status, call)) return unchanged(false);

    const preview = outcomePreview(outcome, call.max_result_context_bytes);
    await emitRunEvents(stores, run.run_id, [toolCallEvent(call)], nowMs);
    // The last call of the turn the run waits for makes it ready for the turn engine: marked with the
    // outcome's item, durable with the settlement, so a crash before the engine's turn loses nothing.
    const waitsForThisTurn = run.status === "waiting_for_tools" && call.turn === run.turn - 1;
    const ready = waitsForThisTurn && (await turnSettled(stores, call, locked));
    const item = toolResultItem(call.call_id, outcomeReceiptId(outcome), preview);
    const [seq] = await appendHistory(stores, run.run_id, [item], nowMs, ready);
    // The receipt that carried a result stores it once: its body points at the item's copy (a cut
    // preview is not the result sent, so there is nothing to look for).
    const shared = outcome.kind === "completed" && !preview.truncated && seq !== undefined;
    const offset = shared ? resultTextOffset(item, preview) : undefined;
    const resultText = offset === undefined || seq === undefined ? {} : { result_text: { seq, ...offset } };

    if (!ready) return { ...unchanged(true), ...resultText };
    stores.afterCommit.runsReady([run.run_id]);
    return { applied: true, run_status: run.status, ready: true, ...resultText };
  }
}

/** Is every call of `call`'s turn settled (`call` included)? */
async function turnSettled(stores: Stores, call: CallRecord, locked: LockedRunFacts | undefined): Promise<boolean> {
  if (locked !== undefined) return locked.others_unsettled === 0 && SETTLED_CALL_STATUSES.has(call.status);
  const turnCalls = await stores.calls.listByTurn(call.run_id, call.turn);
  return turnCalls.every((turnCall) => SETTLED_CALL_STATUSES.has(turnCall.status));
}
