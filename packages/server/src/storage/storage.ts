/**
 * The storage interface the server's handlers use. One implementation (Kysely) serves SQLite and
 * PostgreSQL; a contract test suite runs against both. Every method is one logical operation;
 * ownership and scope conditions belong in the SQL of the store, not in the caller. When the database
 * is unavailable (down, unreachable, out of disk, locked), a method rejects with a
 * `StorageUnavailableError` (`storage-unavailable.ts`), which HTTP answers 503 `storage_unavailable`.
 */

import type { CallStatus, RunStatus } from "@toolhost/protocol";
import type {
  AgentRecord,
  AgentVersionRecord,
  BindingRecord,
  CalibrationSums,
  CallRecord,
  ExecutorRecord,
  HistoryItemRecord,
  IdScope,
  IdScopes,
  KeyRecord,
  ModelRequestRecord,
  ModelTurnRecord,
  NewRunEvent,
  Page,
  PageRequest,
  ReceiptFacts,
  ReceiptRecord,
  RunRecord,
  SessionRecord,
  StoredRunEvent,
  ToolsetRecord,
  ToolsetVersionRecord,
  Wakeup,
} from "./records.js";

/** The SQL dialects the server runs on. */
export const DIALECTS = {
  /** An embedded SQLite file (WAL; every commit fsynced before it is answered): the zero-setup default. */
  sqlite: "sqlite",
  /** PostgreSQL: several server instances on one database. */
  postgres: "postgres",
} as const;

/** One of the SQL dialects. */
export type Dialect = keyof typeof DIALECTS;

/** API keys. */
export interface KeyStore {
  /** Stores a new key. */
  insert(key: KeyRecord): Promise<void>;
  /** Stores the bootstrap key unless a key with the same hash exists; true when inserted. */
  ensure(key: KeyRecord): Promise<boolean>;
  /** The unrevoked key whose secret hashes to `keyHash`, if any. */
  findActiveByHash(keyHash: string): Promise<KeyRecord | undefined>;
  /** One key by ID (revoked or not). */
  get(keyId: string): Promise<KeyRecord | undefined>;
  /** Keys whose agents and bindings lie within `reach` (`keyWithinReach`), in creation order. */
  list(page: PageRequest, reach: IdScopes): Promise<Page<KeyRecord>>;
  /**
   * Marks a key revoked if its agents and bindings lie within `reach`; answers it as revoked, or
   * undefined when it does not exist or lies beyond `reach`. Revoking twice keeps the first time.
   */
  revoke(keyId: string, atMs: number, reach: IdScopes): Promise<KeyRecord | undefined>;
}

/** Executor bindings. */
export interface BindingStore {
  /** Stores a new binding; false when the ID is taken. */
  insert(binding: BindingRecord): Promise<boolean>;
  /** One binding, if it exists and lies in `scope`. */
  get(bindingId: string, scope: IdScope): Promise<BindingRecord | undefined>;
  /** Bindings in `scope`, in creation order. */
  list(page: PageRequest, scope: IdScope): Promise<Page<BindingRecord>>;
  /** Which of `bindingIds` exist (and lie in `scope`). */
  existing(bindingIds: readonly string[], scope: IdScope): Promise<Set<string>>;
}

/**
 * Toolsets and their immutable versions. A toolset lies in a binding scope when every binding any of
 * its versions references does (kept in `toolset_bindings` as versions are stored); one that
 * references none lies in every scope.
 */
export interface ToolsetStore {
  /** Stores a toolset with its version 1 (and the bindings it references). */
  insert(toolset: ToolsetRecord, first: ToolsetVersionRecord): Promise<void>;
  /**
   * Appends the next version if the toolset, with the bindings of `toolsJson` added, lies in `scope`
   * (checked under the toolset's row lock); answers it, or undefined when the toolset does not exist
   * or would lie beyond `scope` (nothing stored then).
   */
  appendVersion(
    toolsetId: string,
    toolsJson: string,
    atMs: number,
    scope: IdScope,
  ): Promise<ToolsetVersionRecord | undefined>;
  /** One toolset, if it lies in binding scope `scope`. */
  get(toolsetId: string, scope: IdScope): Promise<ToolsetRecord | undefined>;
  /** Toolsets in binding scope `scope`, in creation order. */
  list(page: PageRequest, scope: IdScope): Promise<Page<ToolsetRecord>>;
  /** One toolset version, unscoped (runs and dry-runs read it through an agent version; routes check `get` first). */
  getVersion(toolsetId: string, version: number): Promise<ToolsetVersionRecord | undefined>;
  /** Versions of one toolset, oldest first, unscoped (routes check `get` first). */
  listVersions(toolsetId: string, page: PageRequest): Promise<Page<ToolsetVersionRecord>>;
}

/** Agents and their immutable versions. */
export interface AgentStore {
  /** Stores a new agent. */
  insert(agent: AgentRecord): Promise<void>;
  /** One agent, if it lies in `scope`. */
  get(agentId: string, scope: IdScope): Promise<AgentRecord | undefined>;
  /** Agents in `scope`, in creation order. */
  list(page: PageRequest, scope: IdScope): Promise<Page<AgentRecord>>;
  /** Appends a version (its `number` is assigned here); answers it, or undefined when the agent does not exist. */
  appendVersion(version: Omit<AgentVersionRecord, "number">): Promise<AgentVersionRecord | undefined>;
  /** One agent version by its opaque ID, if its agent lies in `scope`. */
  getVersion(agentVersion: string, scope: IdScope): Promise<AgentVersionRecord | undefined>;
  /** Versions of one agent, oldest first. */
  listVersions(agentId: string, page: PageRequest): Promise<Page<AgentVersionRecord>>;
  /** Versions (of one agent) whose toolset version references `bindingId`. */
  versionsReferencingBinding(agentId: string, bindingId: string): Promise<AgentVersionRecord[]>;
}

/** Sessions. */
export interface SessionStore {
  /** Stores a new session. */
  insert(session: SessionRecord): Promise<void>;
  /** One session, if its agent lies in `scope`. */
  get(sessionId: string, scope: IdScope): Promise<SessionRecord | undefined>;
  /** Sessions whose agent lies in `scope`, in creation order. */
  list(page: PageRequest, scope: IdScope): Promise<Page<SessionRecord>>;
}

/*
 * Runs, their history and tool calls (the runs area). A run's status changes are conditional on the
 * status read under its lock; call status changes follow the protocol's transition table.
 */

/** What a conditional run update changes (status and time always; the rest when given). */
export type RunChange = Pick<RunRecord, "status" | "updated_at_ms"> &
  Partial<Pick<RunRecord, "turn" | "output" | "error_json" | "ended_at_ms" | "tool_call_count">> & {
    /** Null: the turn engine advanced the run (its readiness is consumed with this change). */
    readonly ready_at_ms?: null;
  };

/** A run locked by the turn engine, and whether it is still marked ready (`runs.ready_at_ms`). */
export interface LockedReadyRun {
  readonly run: RunRecord;
  readonly ready: boolean;
}

/** Runs (0003). Scope conditions apply to the run's agent. */
export interface RunStore {
  /** Stores a new run. */
  insert(run: RunRecord): Promise<void>;
  /** One run, if its agent lies in `scope`. */
  get(runId: string, scope: IdScope): Promise<RunRecord | undefined>;
  /** One run's status, if its agent lies in `scope`: never reads its input or output (an event stream opening). */
  getStatus(runId: string, scope: IdScope): Promise<RunStatus | undefined>;
  /**
   * One run, locked until the caller's transaction ends (PostgreSQL row lock; SQLite transactions
   * already run one at a time). Flows that change a run or its calls take this lock FIRST, so two
   * settling calls of one turn see each other and never deadlock with a run cancel.
   */
  getForUpdate(runId: string): Promise<RunRecord | undefined>;
  /** Runs of one session, in creation order. */
  listBySession(sessionId: string, page: PageRequest): Promise<Page<RunRecord>>;
  /** Runs whose agent lies in `scope` and that match `filter`, newest first (`GET /v1/runs`). */
  listRecent(page: PageRequest, scope: IdScope, filter?: RecentRunsFilter): Promise<Page<RunRecord>>;
  /** Applies `change` only while the run's status is still `from`: the changed run, else undefined. */
  update(runId: string, from: RunStatus, change: RunChange): Promise<RunRecord | undefined>;
  /** Open runs whose deadline is at or before `nowMs`, soonest first, at most `limit` (index `runs_deadline`). */
  overdue(nowMs: number, limit: number): Promise<string[]>;
  /**
   * The turn engine's lock: `runIds` that exist, locked in run ID order (PostgreSQL row locks, taken
   * in one order so two engines never deadlock), each with whether it is still marked ready.
   */
  lockReady(runIds: readonly string[]): Promise<LockedReadyRun[]>;
  /** Clears the ready marks of `runIds` (runs the engine found with nothing to advance). */
  clearReady(runIds: readonly string[]): Promise<void>;
  /**
   * Runs marked ready at or before `readyBeforeMs`, oldest mark first, at most `limit` (the
   * engine's recovery sweep; index `runs_ready`).
   */
  readySince(readyBeforeMs: number, limit: number): Promise<string[]>;
}

/** What `RunStore.listRecent` narrows to; an absent member does not narrow. */
export interface RecentRunsFilter {
  readonly status?: RunStatus | undefined;
  readonly agentId?: string | undefined;
}

/** Execution history (`execution_history`): append-only, items never rewritten. */
export interface HistoryStore {
  /**
   * Appends compact JSON items at the end of the run's history (bumping `runs.history_length`); answers
   * their `seq`s. `readyAtMs`: the items settle the turn the run waited for, so the same write marks it
   * ready for the turn engine (`runs.ready_at_ms`, kept when marked already).
   */
  append(runId: string, itemsJson: readonly string[], atMs: number, readyAtMs?: number): Promise<number[]>;
  /**
   * Inside a transaction whose flow holds the run's lock: the run's history has `length` items now,
   * so its appends may wait for the commit and go in as one statement (`list` in the same
   * transaction still answers them). Outside a transaction, and for a run told already, nothing.
   */
  lengthKnown(runId: string, length: number): void;
  /** Items of one run, oldest first (inside a transaction: its appends waiting for the commit too). */
  list(runId: string, page: PageRequest): Promise<Page<HistoryItemRecord>>;
  /**
   * Every item of one run, oldest first (inside a transaction: its appends waiting for the commit
   * too), reading from the database only those after the committed items this process read before.
   */
  items(runId: string): Promise<HistoryItemRecord[]>;
}

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

/*
 * Claims, receipts and secrets (the call protocol). Every status change is a conditional UPDATE
 * whose WHERE holds the status (and claim) it moves from; it answers whether it changed a row.
 */

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
   * statement on PostgreSQL. True when both happened; false when either did not (the caller then
   * fails its transaction, so neither is kept).
   */
  acceptRecorded(holder: ClaimHolder, nowMs: number, receipt: Omit<ReceiptRecord, "seq">): Promise<boolean>;
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
   * Stores a receipt numbered after the call's last one, in one statement; false (nothing written)
   * when (call_id, claim_id, receipt_id) exists already.
   */
  insertNext(receipt: Omit<ReceiptRecord, "seq">): Promise<boolean>;
  /** One receipt of one claim on a call. */
  get(callId: string, claimId: string, receiptId: string): Promise<ReceiptRecord | undefined>;
  /** Every receipt of a call, in arrival order (`seq`). */
  listByCall(callId: string): Promise<ReceiptRecord[]>;
}

/** Secrets shared by every server instance on the database (`server_secrets`). */
export interface SecretStore {
  /** The secret `name`; when absent, stores `candidate` first (insert-if-absent: concurrent callers all get the winner). */
  getOrCreate(name: string, candidate: string, nowMs: number): Promise<string>;
}

/*
 * Executors (the executor protocol): connections and leases, candidate calls, what a report and the
 * binding diagnostics read. Connection changes are conditional UPDATEs on (executor_id,
 * connection_id, online), so a superseded connection can never change the current one.
 */

/** What a connect writes: the new connection of a stable executor ID. */
export interface ExecutorConnectInput {
  readonly executor_id: string;
  readonly connection_id: string;
  readonly binding_ids: readonly string[];
  readonly key_id: string;
  readonly now_ms: number;
  readonly lease_expires_ms: number;
  /** The tools the connection declares (omitted or null: not declared). */
  readonly tool_names?: readonly string[] | null;
}

/** An executor's connection as a request names it, with the caller's API key. */
export interface OwnedConnection {
  readonly executor_id: string;
  readonly connection_id: string;
  /** The caller's key: nothing changes unless it is the key that opened the executor's current connection. */
  readonly key_id: string;
}

/** Executor connections and leases (`executors`, one row per stable executor ID). */
export interface ExecutorStore {
  /**
   * Connects `executor_id` in one statement (upsert): the first time with epoch 1, later with a new
   * connection ID and epoch + 1, superseding the older connection; online with a fresh lease.
   */
  connect(input: ExecutorConnectInput): Promise<ExecutorRecord>;
  /** One executor, if it ever connected. */
  get(executorId: string): Promise<ExecutorRecord | undefined>;
  /**
   * Renews the lease of the connection while it is current, opened with the caller's key, online and
   * live (`lease_expires_ms > now`); true when renewed.
   */
  heartbeat(connection: OwnedConnection, nowMs: number, leaseExpiresMs: number): Promise<boolean>;
  /** Takes the connection offline while it is current, opened with the caller's key and online (a detach); true when it changed. */
  disconnect(connection: OwnedConnection, nowMs: number): Promise<boolean>;
  /**
   * Executors whose current connection serves only bindings in `scope` (online or not), by executor
   * ID; a page may hold fewer than `limit` items only when it is the last.
   */
  list(page: PageRequest, scope: IdScope): Promise<Page<ExecutorRecord>>;
  /** Executors (online or not) whose current connection serves `bindingId`, latest heartbeat first. */
  listByBinding(bindingId: string): Promise<ExecutorRecord[]>;
  /** Online connections whose lease lapsed (`lease_expires_ms <= now`), oldest lease first. */
  listLapsed(nowMs: number, limit: number): Promise<ExecutorRecord[]>;
  /** Takes the connection offline if it is still current, online and lapsed at `nowMs`; true when it changed. */
  expireLease(executorId: string, connectionId: string, nowMs: number): Promise<boolean>;
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

/** What the executor routes read and change of tool calls. */
export interface PendingCallStore {
  /**
   * Claimable calls on `binding_ids`, oldest first, paged by (created_at_ms, call_id): `pending`, or
   * `claimed` with a lapsed accept window; deadline not passed; in an active run, or a compensation call.
   */
  candidates(query: CandidateQuery, page: PageRequest): Promise<Page<CandidateCall>>;
  /** Calls held by `executorId` (claimed, accepted, reconciliation_required) with a business cancel requested, oldest request first. */
  cancellationsFor(executorId: string, limit: number): Promise<CancellationRecord[]>;
  /** `candidates` and `cancellationsFor` together, in one statement for the usual poll (one binding, first page). */
  poll(
    query: CandidateQuery,
    page: PageRequest,
    cancellations: { readonly executor_id: string; readonly limit: number },
  ): Promise<{ candidates: Page<CandidateCall>; cancellations: CancellationRecord[] }>;
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

/*
 * Models (0008): the queue of runs waiting for a model request, the requests on record, the token
 * calibration and the run event stream.
 */

/** Runs waiting for a model request; instances lease them so that no two drive one run at once. */
export interface ModelTurnStore {
  /** Queues model turn `turn` of `runId` (replacing a queued one of the run), unleased. */
  enqueue(runId: string, turn: number, nowMs: number): Promise<void>;
  /** The run's queued turn, if any. */
  get(runId: string): Promise<ModelTurnRecord | undefined>;
  /** Up to `limit` queued turns nobody holds at `nowMs` (no owner, or a lapsed lease), oldest first. */
  claimable(nowMs: number, limit: number): Promise<ModelTurnRecord[]>;
  /** Leases the run's queued turn to `owner` when nobody holds it at `nowMs`; the leased row, if it won. */
  lease(runId: string, owner: string, nowMs: number, leaseExpiresMs: number): Promise<ModelTurnRecord | undefined>;
  /** Extends the lease while `owner` holds it; false when it lost it. */
  renew(runId: string, owner: string, nowMs: number, leaseExpiresMs: number): Promise<boolean>;
  /** Gives the lease up while `owner` holds it, so any instance may take the turn at once. */
  release(runId: string, owner: string, nowMs: number): Promise<boolean>;
  /** Removes the queued turn while `owner` holds it (its answer is being applied); false when it lost it. */
  complete(runId: string, owner: string): Promise<boolean>;
  /** Removes the run's queued turn, whoever holds it (the run ended). */
  remove(runId: string): Promise<void>;
}

/** Model requests on record. */
export interface ModelRequestStore {
  /** Stores one request. */
  insert(request: ModelRequestRecord): Promise<void>;
  /** Requests of one run, in creation order. */
  listByRun(runId: string, page: PageRequest): Promise<Page<ModelRequestRecord>>;
}

/** The token estimator's calibration, shared by every instance on the database. */
export interface TokenCalibrationStore {
  /** The sums of (provider, model), if any response calibrated them yet. */
  get(provider: string, model: string): Promise<CalibrationSums | undefined>;
  /**
   * Adds one observation's terms to the sums (an atomic increment: concurrent adds all count). A
   * model the provider has no row for yet gets one only while the provider has fewer than
   * `CALIBRATED_MODELS_PER_PROVIDER` (tenants choose model names); answers whether the terms were kept.
   */
  add(provider: string, model: string, terms: readonly number[], nowMs: number): Promise<boolean>;
}

/** The run event streams: append-only, `seq` 1, 2, … per run. */
export interface RunEventStore {
  /** Appends events to the run's stream (the caller holds the run's lock); answers their `seq`s. */
  append(runId: string, events: readonly NewRunEvent[], atMs: number): Promise<number[]>;
  /**
   * Inside `transaction(work)`: queues events to be appended, in order, just before the commit (one
   * statement for all of a transaction's events); outside a transaction, `append`.
   */
  appendAtCommit(runId: string, events: readonly NewRunEvent[], atMs: number): Promise<void>;
  /**
   * Up to `limit` events of the run after `afterSeq`, oldest first; an event whose stored text is
   * longer than `maxDataBytes` comes without its data (`data_json` null), never read into memory.
   * An event stored as a reference comes with its `source` (the row it is rebuilt from, joined in
   * the same statement) for the runs area to rebuild its data.
   */
  listAfter(runId: string, afterSeq: number, limit: number, maxDataBytes?: number): Promise<StoredRunEvent[]>;
}

/** An ended run as the retention sweep sees it. */
export interface RetainedRun {
  readonly run_id: string;
  readonly ended_at_ms: number;
  /** How many history items it holds (a measure of how many rows its deletion touches). */
  readonly history_length: number;
}

/** Retention of ended runs (docs/operations.md#retention). */
export interface RunRetentionStore {
  /**
   * Up to `limit` runs that ended before `endedBeforeMs` and hold no live call (pending, claimed,
   * accepted), oldest end first, read in the order of the ended-runs index.
   */
  expired(endedBeforeMs: number, limit: number): Promise<RetainedRun[]>;
  /**
   * Atomically deletes those of `runIds` that still ended before `endedBeforeMs` and hold no live
   * call, with every row of theirs (receipts, calls, history, events, model requests, model turn);
   * answers the IDs deleted, in the order of `runIds`.
   */
  deleteRuns(runIds: readonly string[], endedBeforeMs: number): Promise<string[]>;
}

/** What `migrate()` did. */
export interface MigrationReport {
  /** Names of the migrations applied by this call, in order (empty when already up to date). */
  applied: string[];
  /** The name of the newest applied migration after the call. */
  current: string | null;
}

/**
 * What a flow asks to happen once its writes are committed (docs/storage.md, "After-commit effects"):
 * inside `transaction(work)` registered effects run only after that transaction's COMMIT (never after a
 * rollback; of a retried transaction, only those of the attempt that committed); on the top-level
 * storage (autocommit writes) they run at once, so the caller registers them right after its write.
 */
export interface AfterCommit {
  /** Wakes long-polling executors: one waiter per claimable call, the holder's waits per cancel. */
  wakeExecutors(wakeups: Iterable<Wakeup>): void;
  /** Tells the turn engine that these runs wait to be advanced (the turn they waited for is settled). */
  runsReady(runIds: Iterable<string>): void;
  /** Tells the run driver that these runs queued a provider turn (it asks the model now, not at its next poll). */
  modelTurnsQueued(runIds: Iterable<string>): void;
}

/** Where committed effects go; the composition root wires them (`Storage.onCommittedEffects`). */
export interface CommittedEffectSinks {
  /** The committed wake-ups (never empty). */
  wakeExecutors(wakeups: readonly Wakeup[]): void;
  /** The committed ready runs, each once (never empty). */
  runsReady(runIds: readonly string[]): void;
  /** The runs whose queued provider turn committed, each once (never empty). */
  modelTurnsQueued(runIds: readonly string[]): void;
}

/** The stores of one database, usable inside and outside a transaction. */
export interface Stores {
  /** Effects to run once this transaction committed (at once outside a transaction). */
  readonly afterCommit: AfterCommit;
  readonly keys: KeyStore;
  readonly bindings: BindingStore;
  readonly toolsets: ToolsetStore;
  readonly agents: AgentStore;
  readonly sessions: SessionStore;
  readonly runs: RunStore;
  readonly history: HistoryStore;
  readonly calls: CallStore;
  readonly callClaims: CallClaimStore;
  readonly receipts: ReceiptStore;
  readonly secrets: SecretStore;
  readonly executors: ExecutorStore;
  readonly pendingCalls: PendingCallStore;
  readonly executorReports: ExecutorReportStore;
  readonly callStats: CallStatsStore;
  readonly modelTurns: ModelTurnStore;
  readonly modelRequests: ModelRequestStore;
  readonly tokenCalibrations: TokenCalibrationStore;
  readonly runEvents: RunEventStore;
  readonly runRetention: RunRetentionStore;
}

/** The server's storage: stores, transactions, migrations and lifecycle. */
export interface Storage extends Stores {
  /** Which SQL dialect this storage speaks. */
  readonly dialect: Dialect;
  /**
   * Runs `work` in one transaction; it commits when `work` resolves and rolls back when it throws.
   * On SQLite, concurrent transactions are grouped into one commit (one fsync) and each caller is
   * answered only after that commit is durable.
   */
  transaction<T>(work: (stores: Stores) => Promise<T>): Promise<T>;
  /** Applies pending numbered migrations (idempotent; safe when several instances start at once). */
  migrate(): Promise<MigrationReport>;
  /**
   * One round trip to the database and a look at its write path (readiness); rejects with a
   * StorageUnavailableError when it cannot be reached, within the connection's timeouts, or when
   * writes would fail (SQLite: under 1 MiB of room on the disk or under `max_page_count`, or
   * read-only; PostgreSQL: read-only).
   */
  ping(): Promise<void>;
  /**
   * Calls `listener` after each commit of this storage that appended run events, with those runs'
   * IDs (other instances' commits are not seen here); answers how to stop listening.
   */
  onRunEventsCommitted(listener: (runIds: readonly string[]) => void): () => void;
  /**
   * Hands every after-commit effect of this storage's committed transactions (and of its top-level
   * writes) to `sinks`, from now on; answers how to stop. A sink's failure is its own.
   */
  onCommittedEffects(sinks: CommittedEffectSinks): () => void;
  /**
   * Analyses the hot queries' tables whose planner statistics are missing or stale, so their plans
   * stay index reads in order (PostgreSQL; nothing on SQLite); answers the tables analysed.
   */
  refreshStatistics(): Promise<string[]>;
  /** Closes connections. */
  close(): Promise<void>;
}
