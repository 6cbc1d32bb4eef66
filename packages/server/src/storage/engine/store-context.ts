/**
 * How a store reaches the database. The stores hold one query code base for both dialects and say per
 * method what it needs (a read, one write, or several statements that must be atomic); the context
 * decides how: inside the caller's transaction, in a transaction of its own on the PostgreSQL pool, or
 * through the SQLite group committer.
 */

import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import type { AfterCommit, Dialect } from "../storage.js";
import { translatingStorageFailures } from "../storage-unavailable.js";
import type { CommitHooks } from "./commit-hooks.js";
import type { HistoryCache } from "./history-cache.js";
import type { ImmutableRowCache } from "./immutable-row-cache.js";
import type { SqliteGroupCommitter } from "./sqlite-group-commit.js";
import { assertOutsideTransaction } from "./transaction-scope.js";

/** A database handle for one store operation. */
export type Db = Kysely<Database>;

/** What a store method runs its statements through. */
export interface StoreContext {
  /** The SQL dialect (for the few statements that differ, such as row locks). */
  readonly dialect: Dialect;
  /** True inside `transaction(work)`: row locks taken now are held until the caller's commit. */
  readonly inTransaction: boolean;
  /** The storage's cache of rows that never change (versions, sessions), shared by every context. */
  readonly immutableRows: ImmutableRowCache;
  /** The storage's cache of committed run histories (`history-cache.ts`), shared by every context. */
  readonly historyCache: HistoryCache;
  /** Runs statements that only read. */
  read<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  /** Runs one writing statement (atomic by itself). */
  write<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  /** Runs several statements atomically: in the caller's transaction, or in one of their own. */
  atomic<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  /** Inside `transaction(work)`: writes deferred to just before its commit; undefined outside one. */
  readonly commitHooks: CommitHooks | undefined;
  /** The effects to run once the writes committed: the transaction's hooks, or at once outside one. */
  readonly afterCommit: AfterCommit;
}

/** The context of the stores handed to `transaction(work)`: everything runs on the transaction. */
export function transactionContext(
  dialect: Dialect,
  trx: Db,
  immutableRows: ImmutableRowCache,
  historyCache: HistoryCache,
  commitHooks: CommitHooks,
): StoreContext {
  const direct = <T>(fn: (db: Db) => Promise<T>): Promise<T> => fn(trx);
  return {
    dialect,
    inTransaction: true,
    immutableRows,
    historyCache,
    read: direct,
    write: direct,
    atomic: direct,
    commitHooks,
    afterCommit: commitHooks,
  };
}

/** The top-level context on PostgreSQL: statements on the pool, atomic groups in a transaction each. */
export function postgresPoolContext(
  db: Db,
  immutableRows: ImmutableRowCache,
  historyCache: HistoryCache,
  afterCommit: AfterCommit,
): StoreContext {
  return {
    dialect: "postgres",
    inTransaction: false,
    immutableRows,
    historyCache,
    read: (fn) => guarded(() => fn(db)),
    write: (fn) => guarded(() => fn(db)),
    atomic: (fn) => guarded(() => db.transaction().execute(fn)),
    commitHooks: undefined,
    afterCommit,
  };
}

/**
 * The top-level context on SQLite: writes go through the group committer (grouped, and never inside
 * another open batch); reads run directly, since the driver's connection mutex already keeps them out
 * of an open batch and they need no commit.
 */
export function sqliteTopLevelContext(
  db: Db,
  committer: SqliteGroupCommitter<Database>,
  immutableRows: ImmutableRowCache,
  historyCache: HistoryCache,
  afterCommit: AfterCommit,
): StoreContext {
  return {
    dialect: "sqlite",
    inTransaction: false,
    immutableRows,
    historyCache,
    read: (fn) => guarded(() => fn(db)),
    // One statement: alone in its batch it runs without BEGIN/COMMIT (sqlite-group-commit.ts).
    write: (fn) => translatingStorageFailures(() => committer.run(fn, { oneStatement: true })),
    atomic: (fn) => translatingStorageFailures(() => committer.run(fn)),
    commitHooks: undefined,
    afterCommit,
  };
}

/** Runs a top-level operation: never inside a transaction; an unavailable database's failure translated. */
function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    assertOutsideTransaction("a storage method");
  } catch (error) {
    return Promise.reject(error);
  }
  return translatingStorageFailures(run);
}
