/**
 * Business-task cancel (`POST /v1/runs/{run_id}/tool-calls/{call_id}/cancel`): the product asks for
 * the work behind one call to stop. A pending call is cancelled at once (nobody holds it; the run
 * learns the outcome like any other). A call an executor holds keeps its status: the request is
 * recorded, delivered through heartbeat and pending, and confirmed only by the executor's `cancelled`
 * receipt. It never cancels the run, and a run cancel never implies it.
 */

import { FINAL_CALL_STATUSES, ProtocolError } from "@toolhost/protocol";
import { inIdScope, notFoundError } from "../auth/id-scope.js";
import type { CallRecord, IdScope } from "../storage/records.js";
import type { Storage, Stores } from "../storage/storage.js";
import { emitRunEvents, toolCallEvent } from "./run-events.js";
import type { RunProgress } from "./run-progress.js";

/** The call after the request (the holder's wake-up, or the next turn's, is an after-commit effect). */
export interface CallCancelOutcome {
  call: CallRecord;
  /** True when the cancel settled the run's turn: the turn engine advances it after the commit. */
  ready?: true;
}

function alreadyFinal(call: CallRecord): ProtocolError {
  return new ProtocolError(
    "call_already_final",
    `tool call ${JSON.stringify(call.call_id)} is already ${call.status}`,
    undefined,
    {
      status: call.status,
    },
  );
}

/** Status changes a flow that does not lock the run (a deadline sweep) can race: tries again on the fresh row. */
const ATTEMPTS = 3;

async function requestIn(
  stores: Stores,
  progress: RunProgress,
  first: CallRecord,
  nowMs: number,
): Promise<CallCancelOutcome> {
  let call: CallRecord | undefined = first;
  for (let attempt = 0; attempt < ATTEMPTS && call !== undefined; attempt++) {
    if (FINAL_CALL_STATUSES.has(call.status)) throw alreadyFinal(call);
    const cancelled = await stores.calls.cancelUnclaimed(call.run_id, call.call_id, nowMs);
    if (cancelled !== undefined) {
      const settled = await progress.callSettled(stores, cancelled, { kind: "cancelled", receipt_id: null }, nowMs);
      return settled.ready === true ? { call: cancelled, ready: true } : { call: cancelled };
    }
    const requested = await stores.calls.requestCancel(call.run_id, call.call_id, nowMs);
    // Wake the holder's long-polls: a waiting pending request delivers the cancellation at once.
    if (requested !== undefined) {
      if (requested.compensates === null)
        await emitRunEvents(stores, requested.run_id, [toolCallEvent(requested)], nowMs);
      if (requested.executor_id !== null) {
        stores.afterCommit.wakeExecutors([{ kind: "cancel", executor_id: requested.executor_id }]);
      }
      return { call: requested };
    }
    call = await stores.calls.get(call.run_id, call.call_id);
  }
  throw new ProtocolError("conflict", `tool call ${JSON.stringify(first.call_id)} keeps changing; try again`);
}

/**
 * Requests the business cancel of call `callId` of run `runId` (in `scope`); when that settled the
 * run's turn, answers once the turn engine made the next one.
 */
export async function cancelCall(
  storage: Storage,
  progress: RunProgress,
  runId: string,
  callId: string,
  scope: IdScope,
  nowMs: number,
): Promise<CallCancelOutcome> {
  const outcome = await storage.transaction(async (stores) => {
    const run = await stores.runs.getForUpdate(runId);
    if (run === undefined || !inIdScope(scope, run.agent_id)) throw notFoundError("run", runId);
    const call = await stores.calls.get(runId, callId);
    if (call === undefined) throw notFoundError("tool call", callId);
    return requestIn(stores, progress, call, nowMs);
  });
  if (outcome.ready === true) await progress.advanced(runId);
  return outcome;
}
