/**
 * The storage interface the server's handlers use. One implementation (Kysely) serves SQLite and
 * PostgreSQL; a contract test suite runs against both. Every method is one logical operation;
 * ownership and scope conditions belong in the SQL of the store, not in the caller. When the database
 * is unavailable (down, unreachable, out of disk, locked), a method rejects with a
 * `StorageUnavailableError` (`storage-unavailable.ts`), which HTTP answers 503 `storage_unavailable`.
 *
 * Each aggregate's store interfaces are written beside their implementations (`config/contract.ts`,
 * `executors/contract.ts`, `calls/contract.ts`, `runs/contract.ts`); `Stores` is derived from them
 * here and they are re-exported, so the rest of the server imports the whole contract from this file.
 */

import type { CallStores } from "./calls/contract.js";
import type { ConfigStores } from "./config/contract.js";
import type { ExecutorStores } from "./executors/contract.js";
import type { Wakeup } from "./records.js";
import type { RunStores } from "./runs/contract.js";

export type * from "./calls/contract.js";
export type * from "./config/contract.js";
export type * from "./executors/contract.js";
export type * from "./runs/contract.js";

/** The SQL dialects the server runs on. */
export const DIALECTS = {
  /** An embedded SQLite file (WAL; every commit fsynced before it is answered): the zero-setup default. */
  sqlite: "sqlite",
  /** PostgreSQL: several server instances on one database. */
  postgres: "postgres",
} as const;

/** One of the SQL dialects. */
export type Dialect = keyof typeof DIALECTS;

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

/** The stores of one database, usable inside and outside a transaction: every aggregate's, and its effects. */
export interface Stores extends ConfigStores, ExecutorStores, CallStores, RunStores {
  /** Effects to run once this transaction committed (at once outside a transaction). */
  readonly afterCommit: AfterCommit;
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
