/**
 * The calls aggregate's contract: tool calls with their claims and receipts, what the executor routes
 * read of them (candidates, cancellations, reports) and the binding diagnostics' counts. Call status
 * changes follow the protocol's transition table: each is a conditional UPDATE whose WHERE holds the
 * status (and claim) it moves from, answering whether it changed a row. `createCallStores`
 * (index.ts) makes the stores.
 */

import type { CallStatus, RunStatus } from "@toolhost/protocol";
import type {
  CallRecord,
  ExecutorRecord,
  IdScope,
  Page,
  PageRequest,
  ReceiptFacts,
  ReceiptRecord,
  RunRecord,
} from "../records.js";

/** Tool calls (0003): creation, reads, and the run-side status changes (run end, business cancel). */
export interface CallStore {
  /** Stores new calls. */
  insertMany(calls: readonly CallRecord[]): Promise<void>;
  /** One call of one run. */
  get(runId: string, callId: string): Promise<CallRecord | undefined>;
  /** Calls of one run (compensation calls included), in creation order. */
  listByRun(runId: string, page: PageRequest): Promise<Page<CallRecord>>;
  /** Calls of one model turn, in the model's order. */
  listByTurn(runId: string, turn: number): Promise<CallRecord[]>;
  /**
   * The run ended: its turn calls nobody confirmed yet (`pending`, `claimed`) become `cancelled`
   * (event `run_ended`); accepted calls and compensation calls are untouched. Answers the changed calls.
   */
  cancelForRunEnd(runId: string, atMs: number): Promise<CallRecord[]>;
  /**
   * Business cancel of a call nobody holds (`pending` → `cancelled`, event `cancel_unclaimed`), the
   * request time recorded; answers the changed call, or undefined when it was not pending.
   */
  cancelUnclaimed(runId: string, callId: string, atMs: number): Promise<CallRecord | undefined>;
  /**
   * Records a business-cancel request on a call an executor holds (`claimed`, `accepted`,
   * `reconciliation_required`), keeping the first request time; answers the call, or undefined when
   * it is in no such status.
   */
  requestCancel(runId: string, callId: string, atMs: number): Promise<CallRecord | undefined>;
}

/** What a claim writes into the call row. */
export interface ClaimInput {
  readonly run_id: string;
  readonly call_id: string;
  readonly executor_id: string;
  /** The executor's connection: the claim succeeds only while it is the current, online, leased one. */
  readonly connection_id: string;
  /** The claiming API key: the claim succeeds only while it is the key that opened that connection. */
  readonly key_id: string;
  readonly claim_id: string;
  /** Hex SHA-256 of the claim's grant. */
  readonly grant_hash: string;
  readonly now_ms: number;
  readonly accept_deadline_ms: number;
}

/** What a claim or a receipt needs to know of a call's run (and its pinned versions). */
export interface CallRunFacts {
  readonly status: RunStatus;
  readonly agent_id: string;
  readonly agent_version: string;
  readonly subject: string;
  readonly toolset_id: string;
  readonly toolset_version: number;
}

/** A call with the facts of its run. */
export interface CallTarget {
  readonly call: CallRecord;
  readonly run: CallRunFacts;
}

/** What a claim or receipt decides on; `target` undefined when the call (or its run) does not exist. */
export interface CallContext {
  readonly target: CallTarget | undefined;
  readonly executor: ExecutorRecord | undefined;
  /** The receipt stored under the request's (call, claim, receipt) ID (receipts only). */
  readonly existing: ReceiptFacts | undefined;
  /** The run's whole row (with `input.whole_run`), read under the run's lock in a transaction. */
  readonly run?: RunRecord;
  /** How many `progress` receipts the call has stored (receipts without `input.whole_run`). */
  readonly progress_receipts?: number;
}

/** What a call context is read by (`claim_id`/`receipt_id` only for receipts). */
export interface CallContextInput {
  readonly run_id: string;
  readonly call_id: string;
  readonly executor_id: string;
  readonly claim_id?: string;
  readonly receipt_id?: string;
  /** Also the run's whole row (a settling receipt: the run's progress needs it). */
  readonly whole_run?: boolean;
}

/** The changed call, and how many other calls of its turn are not settled (as of the statement). */
export interface SettledCall {
  readonly call: CallRecord;
  readonly others_unsettled: number;
}

/** The claim holding a call, and the API key a receipt came from (it must own the claim's executor). */
export interface ClaimHolder {
  readonly call_id: string;
  readonly claim_id: string;
  /** The change is made only while this key opened the current connection of the call's executor. */
  readonly key_id: string;
}

/** A call named by its run and its ID. */
export interface CallRef {
  readonly run_id: string;
  readonly call_id: string;
}

/** The claim columns of tool calls: claiming, accepting, settling, and the deadline and accept-window sweeps. */
export interface CallClaimStore {
  /**
   * The call `callId` of run `runId` and its run's facts. Inside a transaction on PostgreSQL it locks
   * the run row and then the call row until commit (the order every call flow takes).
   */
  target(runId: string, callId: string): Promise<CallTarget | undefined>;
  /**
   * In one statement: the call with its run's facts, the executor `input.executor_id` and, with
   * `input.receipt`, the receipt stored under (call, claim_id, receipt_id). Inside a PostgreSQL
   * transaction a receipt's load also locks the run row and the call row until commit.
   */
  context(input: CallContextInput & { readonly receipt: boolean }): Promise<CallContext>;
  /**
   * One conditional UPDATE: the call becomes `claimed` by `input` when it is pending (or claimed with
   * a lapsed accept window), its deadline has not passed and the executor's connection is current,
   * online and leased. True for the one claim that wins.
   */
  claim(input: ClaimInput): Promise<boolean>;
  /** `claimed` → `accepted` for `holder` while its accept window is open; the updated call, if it changed. */
  accept(holder: ClaimHolder, nowMs: number): Promise<CallRecord | undefined>;
  /**
   * `accept` and storing the receipt that made it (`ReceiptStore.insertNext`), atomically — one
   * statement on PostgreSQL. When either does not happen it fails, and so does the transaction it is in
   * (neither is kept), with a StoredStateChangedError — on PostgreSQL inside a transaction at the
   * commit, since it is sent with it unanswered (stored-state-changed.ts).
   */
  acceptRecorded(holder: ClaimHolder, nowMs: number, receipt: Omit<ReceiptRecord, "seq">): Promise<void>;
  /**
   * Moves the call held by `holder` from `from` to `to` (a receipt's edge); the updated call, if it
   * changed, with the number of other calls of its turn still unsettled (meaningful under the run's lock).
   */
  settle(holder: ClaimHolder, from: CallStatus, to: CallStatus, nowMs: number): Promise<SettledCall | undefined>;
  /** Claims not accepted in time (`accept_deadline_ms < now`) return to `pending`; answers the released calls. */
  releaseLapsedClaims(nowMs: number, limit: number): Promise<CallRecord[]>;
  /** Calls in one of `statuses` whose deadline has passed (`deadline_ms <= now`), oldest deadline first. */
  overdue(statuses: readonly CallStatus[], nowMs: number, limit: number): Promise<CallRef[]>;
  /** Moves an overdue call from `from` to `to` if it is still in `from` and past its deadline; the updated call. */
  settleOverdue(callId: string, from: CallStatus, to: CallStatus, nowMs: number): Promise<CallRecord | undefined>;
}

/**
 * Receipts, each stored with its body exactly as received and its first answer. A receipt ID counts
 * once per claim: (call_id, claim_id, receipt_id) is the key, so one claim's IDs never reach another's.
 */
export interface ReceiptStore {
  /**
   * Stores a receipt numbered after the call's last one, in one statement. When (call_id, claim_id,
   * receipt_id) exists already nothing is written and it fails, and so does the transaction it is in,
   * with a StoredStateChangedError — on PostgreSQL inside a transaction at the commit, since it is sent
   * with it unanswered (stored-state-changed.ts).
   */
  insertNext(receipt: Omit<ReceiptRecord, "seq">): Promise<void>;
  /** One receipt of one claim on a call. */
  get(callId: string, claimId: string, receiptId: string): Promise<ReceiptRecord | undefined>;
  /** Every receipt of a call, in arrival order (`seq`). */
  listByCall(callId: string): Promise<ReceiptRecord[]>;
}

/** A claimable call as an executor sees it: IDs, tool, binding and time only. */
export type CandidateCall = Pick<
  CallRecord,
  "run_id" | "call_id" | "tool_name" | "binding_id" | "created_at_ms" | "trace_context"
>;

/** Which calls an executor may see as candidates. */
export interface CandidateQuery {
  readonly binding_ids: readonly string[];
  /** The credential's agent scope: calls of runs of other agents are left out. */
  readonly agents: IdScope;
  readonly now_ms: number;
}

/** A business-cancel request on a call an executor holds. */
export type CancellationRecord = Pick<CallRecord, "run_id" | "call_id"> & { readonly requested_at_ms: number };

/** A call returned to pending (with its business-cancel request, if one was made while it was held). */
export type ReleasedCall = Pick<
  CallRecord,
  "run_id" | "call_id" | "binding_id" | "tool_name" | "cancel_requested_at_ms"
>;

/** The connection a poll checks (`PendingCallStore.poll`): the executor's is named by the poll's cancellations. */
export interface PollConnection {
  readonly connection_id: string;
  readonly key_id: string;
}

/** What a poll found. */
export interface PolledCalls {
  readonly candidates: Page<CandidateCall>;
  readonly cancellations: CancellationRecord[];
  /** With a `connection` to check: whether it is live (else undefined). */
  readonly connection_live?: boolean;
}

/** What the executor routes read and change of tool calls. */
export interface PendingCallStore {
  /**
   * Claimable calls on `binding_ids`, oldest first, paged by (created_at_ms, call_id): `pending`, or
   * `claimed` with a lapsed accept window; deadline not passed; in an active run, or a compensation call.
   */
  candidates(query: CandidateQuery, page: PageRequest): Promise<Page<CandidateCall>>;
  /** Calls held by `executorId` (claimed, accepted, reconciliation_required) with a business cancel requested, oldest request first. */
  cancellationsFor(executorId: string, limit: number): Promise<CancellationRecord[]>;
  /**
   * `candidates` and `cancellationsFor` together, in one statement for the usual poll (one binding,
   * first page). With `connection`, the same statement also says whether it is the executor's current
   * connection, opened by that key, online and leased at `query.now_ms` (`connection_live`).
   */
  poll(
    query: CandidateQuery,
    page: PageRequest,
    cancellations: { readonly executor_id: string; readonly limit: number },
    connection?: PollConnection,
  ): Promise<PolledCalls>;
  /** Every `claimed` (not accepted) call of `executorId` returns to `pending`, its claim cleared; answers them. */
  releaseClaimedBy(executorId: string, nowMs: number): Promise<ReleasedCall[]>;
}

/** The receipts of one executor for one call, as a report needs them. */
export type ReportReceipt = Pick<ReceiptRecord, "receipt_id" | "kind" | "claim_id" | "seq">;

/** A call as a report needs it: the call, its run's status and this executor's receipts. */
export interface ReportFacts {
  readonly call: CallRecord;
  readonly run_status: RunStatus;
  /** Receipts `executorId` sent for the call, in arrival order. */
  readonly receipts: readonly ReportReceipt[];
}

/** What `calls/report` reads. */
export interface ExecutorReportStore {
  /** The calls among `callIds` on `bindingIds`, with their run status and `executorId`'s receipts, by call ID. */
  reportFacts(
    callIds: readonly string[],
    bindingIds: readonly string[],
    executorId: string,
  ): Promise<Map<string, ReportFacts>>;
}

/** Unsettled calls of one agent on one binding. */
export interface BindingCallCounts {
  readonly pending: number;
  readonly claimed: number;
  readonly accepted: number;
  readonly reconciliation_required: number;
  readonly oldest_pending_created_at_ms: number | null;
}

/** The latest completed call of one agent on one binding. */
export type VerifiedExecutionRecord = Pick<CallRecord, "run_id" | "call_id" | "tool_name"> & {
  readonly executor_id: string;
  readonly settled_at_ms: number;
};

/** Server-wide gauges read when `/metrics` is scraped. */
export interface CallStatsSnapshot {
  /** Unsettled tool calls per status (`pending`, `claimed`, `accepted`, `reconciliation_required`; 0 when none). */
  readonly calls_by_status: Readonly<Record<string, number>>;
  /** Creation time of the oldest pending call, or null when none is pending. */
  readonly oldest_pending_created_at_ms: number | null;
  /** Executors with an online connection. */
  readonly executors_online: number;
}

/** Pending calls and online executors per binding, for the opt-in per-binding gauges. */
export interface BindingLoadSnapshot {
  /** Pending calls per binding (bindings without any are absent). */
  readonly pending_by_binding: Readonly<Record<string, number>>;
  /** Online executors serving each binding (an executor counts once for each of its bindings). */
  readonly executors_online_by_binding: Readonly<Record<string, number>>;
}

/** What binding diagnostics (and the metrics) read of tool calls. */
export interface CallStatsStore {
  /** Unsettled calls per status across the database, the oldest pending call and the executors online. */
  snapshot(): Promise<CallStatsSnapshot>;
  /** Pending calls and online executors per binding. */
  bindingLoad(): Promise<BindingLoadSnapshot>;
  /** Counts of the agent's calls on the binding per unsettled status, and the oldest pending one's creation time. */
  countsFor(agentId: string, bindingId: string): Promise<BindingCallCounts>;
  /** The agent's latest call on the binding that an executor completed, if any. */
  lastCompleted(agentId: string, bindingId: string): Promise<VerifiedExecutionRecord | undefined>;
}

/** The calls aggregate's stores. */
export interface CallStores {
  readonly calls: CallStore;
  readonly callClaims: CallClaimStore;
  readonly receipts: ReceiptStore;
  readonly pendingCalls: PendingCallStore;
  readonly executorReports: ExecutorReportStore;
  readonly callStats: CallStatsStore;
}
