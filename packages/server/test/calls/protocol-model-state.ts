/**
 * The model of the call protocol the model-based test checks the server against: what one world
 * (two executors, two keys, a few runs) must look like after every command. Status changes go
 * through the protocol's transition table only — an event the table does not list is a bug of the
 * model, thrown at once. Runs follow their script: one turn of two `tasks.write` calls, then a
 * message, so a run completes when both calls of its turn settled.
 */

import {
  type CallEvent,
  type CallStatus,
  FINAL_CALL_STATUSES,
  type RunStatus,
  SETTLED_CALL_STATUSES,
  TERMINAL_RUN_STATUSES,
  transitionCall,
} from "@toolhost/protocol";

/** `tasks.write`'s timeout: a call's deadline is its creation plus this. */
export const WRITE_TIMEOUT_MS = 60_000;
/** `tasks.undo`'s timeout (compensation calls). */
export const UNDO_TIMEOUT_MS = 90_000;
/** How long a claim may wait for its `accepted`. */
export const ACCEPT_WINDOW_MS = 20_000;
/** How long a connection stays live after its connect or last heartbeat. */
export const LEASE_TTL_MS = 40_000;
/**
 * The `run_timeout_ms` of the world's short-lived runs (every run after the first): shorter than the
 * calls' deadline, so such a run expires while its calls are open (docs/runs.md#limits).
 */
export const SHORT_RUN_TIMEOUT_MS = 45_000;
/** The server's `runTimeoutMs` (its default), the first run's timeout: no sequence reaches it. */
export const RUN_TIMEOUT_MS = 3_600_000;

/** The world's two keys (both `executors:connect` + `tools:execute`). */
export type KeyName = "k1" | "k2";
/** The world's two executors. */
export type ExecName = "a" | "b";

/** The key each executor's own process connects with. */
export const OWN_KEY: Readonly<Record<ExecName, KeyName>> = { a: "k1", b: "k2" };

/** The key that is not `key`. */
export function otherKey(key: KeyName): KeyName {
  return key === "k1" ? "k2" : "k1";
}

/** The executor that is not `exec`. */
export function otherExec(exec: ExecName): ExecName {
  return exec === "a" ? "b" : "a";
}

/** The claim a call row holds. */
export interface ModelClaim {
  readonly claimId: string;
  readonly exec: ExecName;
  /** The key whose request made the claim. */
  readonly key: KeyName;
  readonly acceptDeadlineMs: number;
  /** Whether this claim's `accepted` was confirmed (the call moved to `accepted` under it). */
  accepted: boolean;
}

/** One call of the world. */
export interface ModelCall {
  readonly callId: string;
  readonly runId: string;
  /** The call a compensation call compensates (null for a model's call). */
  readonly compensates: string | null;
  status: CallStatus;
  /** When the server created it: candidates come oldest first, by (creation time, call ID). */
  readonly createdAtMs: number;
  readonly deadlineMs: number;
  /** `sha256:` of its arguments' canonical form, as listed: what a claim must hand over. */
  readonly argumentsDigest: string;
  claim: ModelClaim | null;
  cancelRequested: boolean;
}

/** One run of the world. */
export interface ModelRun {
  readonly runId: string;
  status: RunStatus;
  /** When the run expires: its creation plus its agent version's `run_timeout_ms`. */
  readonly deadlineMs: number;
  /** The calls of its one tool turn. */
  readonly turnCallIds: readonly string[];
}

/** One executor's current connection, and what each process (executor + key) last got from connect. */
export interface ModelExecutor {
  readonly id: string;
  /** The key that opened the current connection: the only one that may act for the executor. */
  owner: KeyName;
  connectionId: string;
  epoch: number;
  online: boolean;
  leaseExpiresMs: number;
  /** The connection each key last opened for this executor. */
  byKey: Partial<Record<KeyName, string>>;
  /** Every superseded connection ID. */
  older: string[];
  /** The tools its current connection declared (`tool_names`); null: none, so it serves every tool. */
  toolNames: readonly string[] | null;
}

/** A claim answer a process (executor + key) received: what it may send receipts with. */
export interface KnownClaim {
  readonly claimId: string;
  readonly grant: string;
  readonly callId: string;
  readonly runId: string;
  readonly exec: ExecName;
  /** The key of the process holding it, which sends its receipts (changes when the process restarts with another key). */
  key: KeyName;
  /** The key the grant was signed for: the one that made the claim. */
  readonly signedFor: KeyName;
}

/** The answer of a receipt, as the wire carries it. */
export interface ReceiptAnswer {
  receipt_id: string;
  kind: string;
  replayed: boolean;
  confirmed?: boolean;
  applied: boolean;
  call_status: string;
  run_status: string;
}

/** A receipt some process sent (any answer), kept for redeliveries. */
export interface SentReceipt {
  readonly callId: string;
  readonly runId: string;
  readonly receiptId: string;
  readonly kind: string;
  /** The exact body text sent the first time. */
  readonly text: string;
  /** The same receipt spelled differently (other member order and whitespace): the same digest. */
  readonly respelled: string;
  readonly claim: KnownClaim;
}

/** A receipt the server acknowledged with a first (non-replayed) 2xx answer: it must be stored byte for byte. */
export interface StoredReceipt {
  readonly callId: string;
  readonly claimId: string;
  /** The executor it came from. */
  readonly exec: ExecName;
  readonly receiptId: string;
  readonly text: string;
  readonly answer: ReceiptAnswer;
}

/** A `confirmed: true` some process received. */
export interface Confirmation {
  readonly callId: string;
  readonly claimId: string;
  readonly exec: ExecName;
  /** The process (executor + key) holding it; moves with the process when it restarts with another key. */
  key: KeyName;
}

/** The whole model of one world. */
export interface ProtocolModel {
  nowMs: number;
  readonly keyIds: Readonly<Record<KeyName, string>>;
  executors: Record<ExecName, ModelExecutor>;
  runs: ModelRun[];
  calls: ModelCall[];
  claims: KnownClaim[];
  sent: SentReceipt[];
  stored: StoredReceipt[];
  confirmations: Confirmation[];
  nextReceipt: number;
}

/** The tool a call runs: `tasks.write` for the model's calls, `tasks.undo` for compensations. */
export function toolOf(call: ModelCall): string {
  return call.compensates === null ? "tasks.write" : "tasks.undo";
}

/** The call `callId` (it must exist). */
export function callOf(model: ProtocolModel, callId: string): ModelCall {
  const call = model.calls.find((candidate) => candidate.callId === callId);
  if (call === undefined) throw new Error(`model: no call ${callId}`);
  return call;
}

/** The run `runId` (it must exist). */
export function runOf(model: ProtocolModel, runId: string): ModelRun {
  const run = model.runs.find((candidate) => candidate.runId === runId);
  if (run === undefined) throw new Error(`model: no run ${runId}`);
  return run;
}

/** True when the call counts for its run: a compensation call always, another while its run is active. */
export function runActiveFor(model: ProtocolModel, call: ModelCall): boolean {
  return call.compensates !== null || !TERMINAL_RUN_STATUSES.has(runOf(model, call.runId).status);
}

/** True when `call` is final (nothing about it changes any more). */
export function isFinal(call: ModelCall): boolean {
  return FINAL_CALL_STATUSES.has(call.status);
}

/** True while a connection of `exec` may act: online with a lease that has not lapsed. */
export function isLive(model: ProtocolModel, exec: ExecName): boolean {
  const executor = model.executors[exec];
  return executor.online && model.nowMs < executor.leaseExpiresMs;
}

/**
 * True while claim `claimId` still holds `callId` in `accepted`, before its deadline, on an active
 * run: the only time a `confirmed: true` may be answered or relied on.
 */
export function confirmationLive(model: ProtocolModel, callId: string, claimId: string): boolean {
  const call = callOf(model, callId);
  return (
    call.claim?.claimId === claimId &&
    call.status === "accepted" &&
    model.nowMs < call.deadlineMs &&
    runActiveFor(model, call)
  );
}

/**
 * Moves `call` by `event` along the transition table (a model bug when the table has no such edge);
 * a settled call lets its run take its next turn: the script's message completes the run.
 */
export function moveCall(model: ProtocolModel, call: ModelCall, event: CallEvent): void {
  const transition = transitionCall(call.status, event);
  if (!transition.ok) throw new Error(`model bug: the transition table has no ${event} from ${call.status}`);
  call.status = transition.to;
  if (!SETTLED_CALL_STATUSES.has(call.status) || call.compensates !== null) return;
  const run = runOf(model, call.runId);
  if (TERMINAL_RUN_STATUSES.has(run.status)) return;
  const open = run.turnCallIds.some((id) => !SETTLED_CALL_STATUSES.has(callOf(model, id).status));
  if (!open) run.status = "completed";
}

/** A claim given back unconfirmed: pending again, nobody holds it. */
export function releaseCall(model: ProtocolModel, call: ModelCall): void {
  moveCall(model, call, "release");
  call.claim = null;
}

/** What the model says the server stores and shows, in the shape the test observes. */
export interface Snapshot {
  calls: Record<string, CallView>;
  runs: Record<string, string>;
  executors: Record<string, ExecutorView>;
  /** `call_id claim_id receipt_id` → the stored body text. */
  receipts: Record<string, string>;
}

/** A call as `GET /v1/runs/{id}/tool-calls` lists it (the members the model predicts). */
export interface CallView {
  status: string;
  executor_id: string | null;
  claim_id: string | null;
  cancel_requested: boolean;
  compensates: string | null;
}

/** An executor row (the members the model predicts). */
export interface ExecutorView {
  connection_id: string;
  epoch: number;
  online: boolean;
  lease_expires_ms: number;
  key_id: string;
}

/** The key of a stored receipt in a snapshot: receipt IDs count per claim. */
export function receiptKey(callId: string, claimId: string, receiptId: string): string {
  return `${callId} ${claimId} ${receiptId}`;
}

/** What the server must show for the model's world. */
export function expectedSnapshot(model: ProtocolModel): Snapshot {
  const snapshot: Snapshot = { calls: {}, runs: {}, executors: {}, receipts: {} };
  for (const call of model.calls) {
    snapshot.calls[call.callId] = {
      status: call.status,
      executor_id: call.claim === null ? null : model.executors[call.claim.exec].id,
      claim_id: call.claim?.claimId ?? null,
      cancel_requested: call.cancelRequested,
      compensates: call.compensates,
    };
  }
  for (const run of model.runs) snapshot.runs[run.runId] = run.status;
  for (const executor of Object.values(model.executors)) {
    snapshot.executors[executor.id] = {
      connection_id: executor.connectionId,
      epoch: executor.epoch,
      online: executor.online,
      lease_expires_ms: executor.leaseExpiresMs,
      key_id: model.keyIds[executor.owner],
    };
  }
  for (const receipt of model.stored)
    snapshot.receipts[receiptKey(receipt.callId, receipt.claimId, receipt.receiptId)] = receipt.text;
  return snapshot;
}
