/**
 * The Storage over Kysely, for SQLite and PostgreSQL alike: the stores hold one query code base; this
 * class wires them to the dialect's way of running statements and transactions.
 *
 * - PostgreSQL: statements run on the pool; `transaction(work)` is a normal Kysely transaction.
 * - SQLite: every transaction and every write outside one goes through the group committer
 *   (`sqlite-group-commit.ts`): many logical transactions, one fsync. Reads outside a transaction run
 *   directly; the driver's connection mutex keeps them out of an open batch.
 */

import { type Migrator, sql } from "kysely";
import { createStores } from "./create-stores.js";
import type { Database } from "./database-schema.js";
import { CommitHooks } from "./engine/commit-hooks.js";
import { CommittedEffects } from "./engine/committed-effects.js";
import type { DatabaseConnection } from "./engine/connect-database.js";
import { HistoryCache } from "./engine/history-cache.js";
import { ImmutableRowCache } from "./engine/immutable-row-cache.js";
import { refreshPlannerStatistics } from "./engine/planner-statistics.js";
import { SqliteGroupCommitter } from "./engine/sqlite-group-commit.js";
import type { StatementObserver } from "./engine/statement-counter.js";
import {
  type Db,
  postgresPoolContext,
  type StoreContext,
  sqliteTopLevelContext,
  transactionContext,
} from "./engine/store-context.js";
import { assertOutsideTransaction, runInTransactionScope } from "./engine/transaction-scope.js";
import { writePathFacts, writePathProblem } from "./engine/write-path-check.js";
import { applyMigrations, createMigrator } from "./migrations/migrator.js";
import type { CommittedEffectSinks, Dialect, MigrationReport, Storage, Stores } from "./storage.js";
import { StorageUnavailableError, translatingStorageFailures } from "./storage-unavailable.js";

/** Runs a transaction's work on the stores of `context`, then the writes it deferred to its commit. */
async function runWork<T>(work: (stores: Stores) => Promise<T>, context: StoreContext, db: Db): Promise<T> {
  const value = await work(createStores(context));
  await context.commitHooks?.run(db);
  return value;
}

/** Counters for diagnostics and tests. */
export interface StorageStats {
  /**
   * Logical transactions answered: `transaction()` calls, and on SQLite also writes made outside a
   * transaction (they go through the group committer as one-operation transactions).
   */
  transactions: number;
  /** Physical COMMITs that succeeded; on SQLite each one fsync (off the event loop), shared by a whole batch. */
  commits: number;
  /** Statements sent to the database (BEGIN and COMMIT included). */
  statements: number;
  /**
   * PostgreSQL: round trips, fewer than statements where the driver pipelines (BEGIN goes with the
   * first statement, unanswered writes with COMMIT). SQLite: the statements.
   */
  roundTrips: number;
  /** Rows the statements answered. */
  rowsRead: number;
  /** Characters of string values in those rows (how much text was read). */
  charactersRead: number;
}

/** Options of KyselyStorage. */
export interface KyselyStorageOptions {
  /** SQLite only: most logical transactions per physical commit (default 256; 1 turns grouping off). */
  maxCommitBatch?: number;
}

/**
 * The stores of the storage (its top-level `Stores`): declared by this interface, merged into the
 * class, and assigned from `createStores` in the constructor, so that the store list is written only
 * in the aggregates' contracts.
 */
export interface KyselyStorage extends Stores {}

/** The server's storage over one Kysely database. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the constructor assigns every store of Stores (createStores).
export class KyselyStorage implements Storage {
  readonly dialect: Dialect;
  // Plain (not #private) fields, so that a Proxy wrapped around the storage (as tests do to inject
  // failures) can still call its methods.
  private readonly connection: DatabaseConnection;
  private readonly committer: SqliteGroupCommitter<Database> | undefined;
  private readonly migrator: Migrator;
  private readonly immutableRows = new ImmutableRowCache();
  private readonly historyCache = new HistoryCache();
  private postgresTransactions = 0;
  private postgresCommits = 0;
  private closing: Promise<void> | undefined;
  private readonly runEventListeners = new Set<(runIds: readonly string[]) => void>();
  private readonly committedEffects = new CommittedEffects();

  constructor(connection: DatabaseConnection, options: KyselyStorageOptions = {}) {
    this.connection = connection;
    this.dialect = connection.dialect;
    let context: StoreContext;
    if (connection.dialect === "sqlite") {
      // A deleted or replaced file fails the batch instead of acknowledging writes that would be lost.
      const { walSync } = connection;
      this.committer = new SqliteGroupCommitter(connection.db, {
        maxBatchSize: options.maxCommitBatch,
        beforeCommit: connection.verifyFile,
        makeDurable: walSync && (() => walSync.sync()),
      });
      context = sqliteTopLevelContext(
        connection.db,
        this.committer,
        this.immutableRows,
        this.historyCache,
        this.committedEffects.immediate(),
      );
    } else {
      context = postgresPoolContext(
        connection.db,
        this.immutableRows,
        this.historyCache,
        this.committedEffects.immediate(),
      );
    }
    Object.assign(this, createStores(context));
    this.migrator = createMigrator(connection);
  }

  async transaction<T>(work: (stores: Stores) => Promise<T>): Promise<T> {
    const { dialect, immutableRows, historyCache, committer } = this;
    // The hooks of the attempt that committed (a batch may run the work again after a failure, and a
    // failed attempt's hooks must not be told it committed).
    let hooks: CommitHooks | undefined;
    const value =
      committer !== undefined
        ? await translatingStorageFailures(() =>
            committer.run((conn) => {
              hooks = new CommitHooks();
              return runWork(work, transactionContext(dialect, conn, immutableRows, historyCache, hooks), conn);
            }),
          )
        : await translatingStorageFailures(() =>
            this.postgresTransaction(work, (made) => {
              hooks = made;
            }),
          );
    hooks?.committed();
    const runs = hooks?.runsWithEvents;
    if (runs !== undefined && runs.size > 0) this.runEventsCommitted([...runs]);
    hooks?.handOver(this.committedEffects);
    return value;
  }

  onCommittedEffects(sinks: CommittedEffectSinks): () => void {
    return this.committedEffects.add(sinks);
  }

  onRunEventsCommitted(listener: (runIds: readonly string[]) => void): () => void {
    this.runEventListeners.add(listener);
    return () => this.runEventListeners.delete(listener);
  }

  private runEventsCommitted(runIds: readonly string[]): void {
    for (const listener of this.runEventListeners) {
      try {
        listener(runIds);
      } catch {
        // A listener's failure is its own: the commit it hears about is done.
      }
    }
  }

  async ping(): Promise<void> {
    if (this.closing !== undefined) throw new StorageUnavailableError("storage is closed");
    await translatingStorageFailures(async () => {
      this.connection.verifyFile?.();
      await sql`select 1`.execute(this.connection.db);
      const problem = writePathProblem(await writePathFacts(this.connection));
      if (problem !== undefined) throw new StorageUnavailableError(problem);
    });
  }

  private async postgresTransaction<T>(
    work: (stores: Stores) => Promise<T>,
    madeHooks: (hooks: CommitHooks) => void,
  ): Promise<T> {
    assertOutsideTransaction("storage.transaction()");
    if (this.closing !== undefined) throw new Error("storage is closed");
    try {
      const value = await this.connection.db.transaction().execute((trx) =>
        runInTransactionScope(() => {
          const hooks = new CommitHooks();
          madeHooks(hooks);
          return runWork(work, transactionContext("postgres", trx, this.immutableRows, this.historyCache, hooks), trx);
        }),
      );
      this.postgresCommits++;
      return value;
    } finally {
      this.postgresTransactions++;
    }
  }

  async migrate(): Promise<MigrationReport> {
    try {
      const report = await applyMigrations(this.migrator);
      // Migrations commit on the connection directly, not through the committer.
      await this.connection.walSync?.sync();
      return report;
    } finally {
      this.immutableRows.clear();
      this.historyCache.clear();
    }
  }

  refreshStatistics(): Promise<string[]> {
    return translatingStorageFailures(() => refreshPlannerStatistics(this.dialect, this.connection.db));
  }

  /** Transaction and commit counters since this storage was opened. */
  stats(): StorageStats {
    const counter = this.connection.statements;
    const reads = {
      statements: counter.count,
      roundTrips: counter.roundTrips,
      rowsRead: counter.rowsRead,
      charactersRead: counter.charactersRead,
    };
    if (this.committer !== undefined) return { ...this.committer.stats(), ...reads };
    return { transactions: this.postgresTransactions, commits: this.postgresCommits, ...reads };
  }

  /** Shows every statement this storage sends from now on to `observer` (undefined: stops). */
  observeStatements(observer: StatementObserver | undefined): void {
    this.connection.statements.observe(observer);
  }

  /** Waits for queued transactions, then closes the connections; calling it again is harmless. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.committer?.close();
      await this.connection.db.destroy();
      await this.connection.walSync?.close();
    })();
    return this.closing;
  }
}
