/**
 * The runs aggregate's contract: runs and their history, the run event streams, the model turn
 * queue and model requests (0008), the token calibration and the retention of ended runs. A run's
 * status changes are conditional on the status read under its lock. `createRunStores` (index.ts)
 * makes the stores.
 */

import type { RunStatus } from "@toolhost/protocol";
import type {
  CalibrationSums,
  HistoryItemRecord,
  IdScope,
  ModelRequestRecord,
  ModelTurnRecord,
  NewRunEvent,
  Page,
  PageRequest,
  RunRecord,
  StoredRunEvent,
} from "../records.js";

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
  /**
   * `update` of a run the caller's transaction holds locked (`getForUpdate`, `lockReady`), from the
   * status it has in `locked`: answers `locked` with `change` applied, not read back (its
   * `history_length` is `locked`'s). On PostgreSQL inside a transaction the change is sent with the
   * next statement waited for. A run whose status is another fails it, and the transaction, with a
   * StoredStateChangedError (stored-state-changed.ts) — under the lock, a bug.
   */
  updateLocked(locked: RunRecord, change: RunChange): Promise<RunRecord>;
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

/** The runs aggregate's stores. */
export interface RunStores {
  readonly runs: RunStore;
  readonly history: HistoryStore;
  readonly modelTurns: ModelTurnStore;
  readonly modelRequests: ModelRequestStore;
  readonly tokenCalibrations: TokenCalibrationStore;
  readonly runEvents: RunEventStore;
  readonly runRetention: RunRetentionStore;
}
