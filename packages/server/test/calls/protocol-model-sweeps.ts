/**
 * What the server's sweeps must do when the manual clock moves (pure, on the protocol model):
 * leases lapse (the connection goes offline and its claimed calls are released — cancelled instead
 * when a business cancel was asked), accept windows lapse (released), deadlines pass (pending and
 * claimed calls expire, accepted ones need reconciliation), run deadlines pass (the run is expired
 * and its pending and claimed calls are cancelled, as by a run cancel). The test moves the clock one due time
 * at a time, so each step has few effects, and predicts every order the sweeps may run them in.
 */

import { TERMINAL_RUN_STATUSES } from "@toolhost/protocol";
import {
  expectedSnapshot,
  isFinal,
  moveCall,
  type ProtocolModel,
  releaseCall,
  type Snapshot,
} from "./protocol-model-state.js";

/** The next time after `model.nowMs` at which a sweep has something to do, if any. */
export function nextDueMs(model: ProtocolModel): number | undefined {
  const due: number[] = [];
  for (const call of model.calls) {
    if (call.status === "pending" || call.status === "claimed" || call.status === "accepted") due.push(call.deadlineMs);
    // A window includes its last millisecond: the claim lapses one millisecond after it.
    if (call.status === "claimed" && call.claim !== null) due.push(call.claim.acceptDeadlineMs + 1);
  }
  for (const executor of Object.values(model.executors)) if (executor.online) due.push(executor.leaseExpiresMs);
  for (const run of model.runs) if (!TERMINAL_RUN_STATUSES.has(run.status)) due.push(run.deadlineMs);
  const future = due.filter((ms) => ms > model.nowMs);
  return future.length === 0 ? undefined : Math.min(...future);
}

/** The lease sweep: a lapsed connection goes offline, like a detach. */
function leaseSweep(model: ProtocolModel): void {
  for (const [exec, executor] of Object.entries(model.executors)) {
    if (!executor.online || executor.leaseExpiresMs > model.nowMs) continue;
    executor.online = false;
    releaseClaimsOf(model, exec);
  }
}

/**
 * Releases every claimed-but-not-accepted call of `exec` (by executor ID, whatever connection made
 * the claim); a released call whose business cancel was asked is cancelled: nobody holds it now.
 * Answers the released calls' IDs.
 */
export function releaseClaimsOf(model: ProtocolModel, exec: string): string[] {
  const released: string[] = [];
  for (const call of model.calls) {
    if (call.status !== "claimed" || call.claim?.exec !== exec) continue;
    releaseCall(model, call);
    released.push(call.callId);
    if (call.cancelRequested) moveCall(model, call, "cancel_unclaimed");
  }
  return released;
}

/**
 * The accept-window sweep: a claim not accepted in its window is released, pending again — or, like
 * a detach or a lapsed lease, cancelled when its business cancel was asked meanwhile.
 */
function acceptWindowSweep(model: ProtocolModel): void {
  for (const call of model.calls) {
    if (call.status === "claimed" && call.claim !== null && call.claim.acceptDeadlineMs < model.nowMs) {
      releaseCall(model, call);
      if (call.cancelRequested) moveCall(model, call, "cancel_unclaimed");
    }
  }
}

/** The deadline sweep: pending and claimed calls expire, accepted ones need reconciliation. */
function deadlineSweep(model: ProtocolModel): void {
  for (const call of model.calls) {
    if (isFinal(call) || call.deadlineMs > model.nowMs) continue;
    if (call.status === "pending" || call.status === "claimed" || call.status === "accepted") {
      moveCall(model, call, "deadline");
    }
  }
}

/** The run deadline sweep: an open run past its deadline is expired; its unconfirmed calls are cancelled. */
function runDeadlineSweep(model: ProtocolModel): void {
  for (const run of model.runs) {
    if (TERMINAL_RUN_STATUSES.has(run.status) || run.deadlineMs > model.nowMs) continue;
    run.status = "expired";
    for (const call of model.calls) {
      if (call.runId !== run.runId || call.compensates !== null) continue;
      if (call.status === "pending" || call.status === "claimed") moveCall(model, call, "run_ended");
    }
  }
}

const SWEEPS = [leaseSweep, acceptWindowSweep, deadlineSweep, runDeadlineSweep] as const;

/**
 * Every state the sweeps may leave at `model.nowMs`. The server runs them in a fixed order, each
 * reading the clock itself; a clock moved while a tick is under way is seen first by the tick's
 * later sweeps, so any rotation of the order can happen once. Usually all give the same state.
 */
export function sweptCandidates(model: ProtocolModel): ProtocolModel[] {
  const candidates: ProtocolModel[] = [];
  const seen = new Set<string>();
  for (let start = 0; start < SWEEPS.length; start++) {
    const candidate = structuredClone(model);
    for (const sweep of [...SWEEPS.slice(start), ...SWEEPS]) sweep(candidate);
    const key = JSON.stringify(expectedSnapshot(candidate));
    if (seen.has(key)) continue;
    seen.add(key);
    candidates.push(candidate);
  }
  return candidates;
}

/** The snapshots of `candidates`, index for index. */
export function candidateSnapshots(candidates: readonly ProtocolModel[]): Snapshot[] {
  return candidates.map(expectedSnapshot);
}
