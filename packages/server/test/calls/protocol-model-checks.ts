/**
 * The invariants the model-based test checks after every command, against what the server shows:
 * call statuses (`GET /v1/runs/{id}/tool-calls`), run statuses (`GET /v1/sessions/{id}/runs`), executor
 * connections and stored receipt bodies (read from the database, no route shows them).
 *
 * - Every observed status change is an edge of the call transition table, or a chain of them.
 * - The server shows exactly what the model predicts; after a clock move, one of the states the
 *   sweeps may leave, waited for with a bounded poll.
 * - Every acknowledged receipt is stored byte for byte, and nothing else is.
 * - At most one process (executor + key) holds a live confirmation of a call.
 * - `confirmed: true` is only ever answered while the claim holds the call in `accepted`, before its
 *   deadline, on an active run — replays included.
 */

import { CALL_STATUSES, CALL_TRANSITIONS, type CallStatus } from "@toolhost/protocol";
import { admin } from "./calls-harness.js";
import {
  callOf,
  confirmationLive,
  expectedSnapshot,
  type ProtocolModel,
  receiptKey,
  runOf,
  type Snapshot,
} from "./protocol-model-state.js";
import { nextDueMs, sweptCandidates } from "./protocol-model-sweeps.js";
import { fail, iso, type ModelReal, note } from "./protocol-model-world.js";

/** Longest wait for the sweeps to do what a clock move made due. */
const SWEEP_WAIT_MS = 15_000;

/** Reads what the server shows of the model's world. */
export async function observe(model: ProtocolModel, real: ModelReal): Promise<Snapshot> {
  const snapshot: Snapshot = { calls: {}, runs: {}, executors: {}, receipts: {} };
  const server = real.bench.server;
  for (const run of model.runs) {
    const calls = await server.call("GET", `/v1/runs/${run.runId}/tool-calls?limit=200`, admin);
    if (calls.status !== 200) fail(real, `listing the calls of ${run.runId} answered ${calls.status} ${calls.text}`);
    for (const call of calls.body.data) {
      snapshot.calls[call.call_id] = {
        status: call.status,
        executor_id: call.executor_id ?? null,
        claim_id: call.claim_id ?? null,
        cancel_requested: call.cancel_requested_at !== undefined,
        compensates: call.compensates ?? null,
      };
    }
  }
  for (const sessionId of [real.sessionId, real.shortSessionId]) {
    const runs = await server.call("GET", `/v1/sessions/${sessionId}/runs?limit=200`, admin);
    if (runs.status !== 200) fail(real, `listing the session's runs answered ${runs.status} ${runs.text}`);
    for (const run of runs.body.data) snapshot.runs[run.run_id] = run.status;
  }
  const ids = Object.values(model.executors).map((executor) => executor.id);
  for (const row of await real.bench.rows.executors(ids)) {
    const { executor_id, ...view } = row;
    snapshot.executors[executor_id] = view;
  }
  for (const row of await real.bench.rows.receipts(model.runs.map((run) => run.runId))) {
    snapshot.receipts[receiptKey(row.call_id, row.claim_id, row.receipt_id)] = row.body_text;
  }
  return snapshot;
}

/** True when a chain of transition-table edges leads from `from` to `to` (or they are equal). */
export function reachable(from: CallStatus, to: CallStatus): boolean {
  const seen = new Set<CallStatus>([from]);
  const queue: CallStatus[] = [from];
  for (let status = queue.shift(); status !== undefined; status = queue.shift()) {
    if (status === to) return true;
    for (const next of Object.values(CALL_TRANSITIONS[status])) {
      if (next !== undefined && !seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return false;
}

/** Fails unless every status change from `before` to `after` follows the transition table. */
function checkTransitions(real: ModelReal, before: Snapshot, after: Snapshot): void {
  for (const [callId, view] of Object.entries(after.calls)) {
    const from = (before.calls[callId]?.status ?? CALL_STATUSES.pending) as CallStatus;
    if (!Object.hasOwn(CALL_STATUSES, view.status)) fail(real, `call ${callId} shows an unknown status ${view.status}`);
    if (!reachable(from, view.status as CallStatus)) {
      fail(real, `call ${callId} went ${from} → ${view.status}: no chain of the transition table leads there`);
    }
  }
}

/** The members where `observed` differs from `expected`, one line each. */
export function snapshotDiff(expected: Snapshot, observed: Snapshot): string[] {
  const lines: string[] = [];
  for (const part of ["calls", "runs", "executors", "receipts"] as const) {
    const want = expected[part] as Record<string, unknown>;
    const got = observed[part] as Record<string, unknown>;
    for (const id of new Set([...Object.keys(want), ...Object.keys(got)])) {
      const a = JSON.stringify(want[id]);
      const b = JSON.stringify(got[id]);
      if (a !== b) lines.push(`  ${part} ${id}: expected ${a ?? "nothing"}, server has ${b ?? "nothing"}`);
    }
  }
  return lines;
}

/** Fails when two processes hold a live confirmation of the same call. */
function checkLiveConfirmations(model: ProtocolModel, real: ModelReal): void {
  const holders = new Map<string, Set<string>>();
  for (const confirmation of model.confirmations) {
    if (!confirmationLive(model, confirmation.callId, confirmation.claimId)) continue;
    const set = holders.get(confirmation.callId) ?? new Set<string>();
    set.add(`executor ${confirmation.exec} with key ${confirmation.key}`);
    holders.set(confirmation.callId, set);
  }
  for (const [callId, set] of holders) {
    if (set.size > 1) fail(real, `two processes hold a live confirmation of call ${callId}: ${[...set].join(" and ")}`);
  }
}

/**
 * Fails unless a `confirmed: true` answered for `claimId` of `callId` is live now (on the model as it
 * stands after the answer's own change): before the deadline, the run active, the claim holding the
 * call in `accepted`.
 */
export function checkConfirmedAnswer(
  model: ProtocolModel,
  real: ModelReal,
  callId: string,
  claimId: string,
  what: string,
): void {
  if (confirmationLive(model, callId, claimId)) return;
  const call = callOf(model, callId);
  fail(
    real,
    `${what} answered confirmed: true, but claim ${claimId} holds no live confirmation of call ${callId}: ` +
      `the call is ${call.status} (held by ${call.claim?.claimId ?? "nobody"}), ` +
      `its deadline ${iso(call.deadlineMs)} ${model.nowMs >= call.deadlineMs ? "has passed" : "has not passed"}, ` +
      `its run is ${runOf(model, call.runId).status}${call.compensates === null ? "" : " (a compensation call)"}`,
  );
}

/** Observes once and fails unless the server shows exactly what the model predicts (no clock move happened). */
export async function checkWorld(model: ProtocolModel, real: ModelReal): Promise<void> {
  const observed = await observe(model, real);
  checkTransitions(real, real.last, observed);
  const expected = expectedSnapshot(model);
  checkReceipts(real, expected, observed);
  const diff = snapshotDiff(expected, observed);
  if (diff.length > 0) fail(real, `the server differs from the model:\n${diff.join("\n")}`);
  real.last = observed;
  checkLiveConfirmations(model, real);
}

/** Fails with a receipt-specific message when a stored body differs from what was acknowledged. */
function checkReceipts(real: ModelReal, expected: Snapshot, observed: Snapshot): void {
  for (const [key, text] of Object.entries(expected.receipts)) {
    const stored = observed.receipts[key];
    if (stored !== text) {
      fail(
        real,
        `acknowledged receipt ${key} is ${stored === undefined ? "not stored" : `stored as ${JSON.stringify(stored)}`}; it was sent as ${JSON.stringify(text)}`,
      );
    }
  }
  for (const key of Object.keys(observed.receipts)) {
    if (!(key in expected.receipts)) fail(real, `receipt ${key} is stored, but no 2xx answer acknowledged it`);
  }
}

/**
 * Moves the clock to `targetMs` one due time at a time; after each step waits (bounded) until the
 * server shows one of the states the sweeps may leave, and takes it as the model's.
 */
export async function moveClock(model: ProtocolModel, real: ModelReal, targetMs: number): Promise<void> {
  const clock = real.bench.server.clock;
  for (let due = nextDueMs(model); due !== undefined && due <= targetMs; due = nextDueMs(model)) {
    clock.advance(due - clock.nowMs());
    model.nowMs = due;
    note(real, `clock → ${iso(due)}`);
    const candidates = sweptCandidates(model);
    const expected = candidates.map(expectedSnapshot);
    const deadline = Date.now() + SWEEP_WAIT_MS;
    let observed = await observe(model, real);
    for (;;) {
      checkTransitions(real, real.last, observed);
      const match = expected.findIndex((snapshot) => snapshotDiff(snapshot, observed).length === 0);
      if (match >= 0) {
        // Several possible outcomes: one may be another's way through; take it only once it stays.
        await pause(candidates.length > 1 ? 50 : 0);
        const again = candidates.length > 1 ? await observe(model, real) : observed;
        if (snapshotDiff(expected[match] as Snapshot, again).length === 0) {
          Object.assign(model, candidates[match]);
          real.last = again;
          break;
        }
        observed = again;
        continue;
      }
      if (Date.now() > deadline) {
        const diff = snapshotDiff(expected[0] as Snapshot, observed);
        fail(real, `the sweeps did not do what ${iso(due)} made due within ${SWEEP_WAIT_MS} ms:\n${diff.join("\n")}`);
      }
      await pause(5);
      observed = await observe(model, real);
    }
    checkLiveConfirmations(model, real);
  }
  if (targetMs > clock.nowMs()) {
    clock.advance(targetMs - clock.nowMs());
    model.nowMs = targetMs;
    note(real, `clock → ${iso(targetMs)}`);
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
