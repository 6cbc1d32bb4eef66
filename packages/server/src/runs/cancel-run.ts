/**
 * Run cancel (`POST /v1/runs/{id}/cancel`): the run becomes `cancelled` and the calls of its turns
 * that nobody confirmed yet (`pending`, `claimed`) are cancelled with it (event `run_ended`). Accepted
 * calls are left alone: a run cancel is not a business cancel, and their later receipts are stored and
 * answered `applied: false`. Compensation calls are explicit business operations and stay as they are.
 */

import { ProtocolError, transitionRun } from "@toolhost/protocol";
import { inIdScope, notFoundError } from "../auth/id-scope.js";
import { traceSettledCalls } from "../observability/call-tracing.js";
import type { CallRecord, IdScope, RunRecord } from "../storage/records.js";
import type { Storage } from "../storage/storage.js";
import { emitRunEvents, runStatusEvent, toolCallEvent } from "./run-events.js";

/** The cancelled run and the calls cancelled with it. */
export interface CancelledRun {
  run: RunRecord;
  cancelledCalls: CallRecord[];
}

/** Cancels run `runId` (in `scope`); 404 outside the scope, 409 `run_terminated` when it has ended. */
export async function cancelRun(storage: Storage, runId: string, scope: IdScope, nowMs: number): Promise<CancelledRun> {
  return storage.transaction(async (stores) => {
    const run = await stores.runs.getForUpdate(runId);
    if (run === undefined || !inIdScope(scope, run.agent_id)) throw notFoundError("run", runId);
    const transition = transitionRun(run.status, "cancel");
    if (!transition.ok) {
      throw new ProtocolError("run_terminated", `run ${JSON.stringify(runId)} has ended (${run.status})`, undefined, {
        status: run.status,
      });
    }
    const change = { status: transition.to, updated_at_ms: nowMs, ended_at_ms: nowMs };
    if (!(await stores.runs.update(runId, run.status, change))) throw new Error(`run ${runId} changed while locked`);
    const cancelledCalls = await stores.calls.cancelForRunEnd(runId, nowMs);
    traceSettledCalls(cancelledCalls);
    // A model request in flight is abandoned: its answer finds the run ended and is not applied.
    await stores.modelTurns.remove(runId);
    const cancelled = { ...run, ...change };
    await emitRunEvents(stores, runId, [...cancelledCalls.map(toolCallEvent), runStatusEvent(cancelled)], nowMs);
    return { run: cancelled, cancelledCalls };
  });
}
