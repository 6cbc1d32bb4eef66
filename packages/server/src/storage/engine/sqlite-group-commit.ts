/**
 * Group commit for SQLite.
 *
 * Why: every commit waits for an fsync of the WAL — milliseconds on real disks, the bottleneck of a
 * write-heavy server. Many concurrent requests can share one fsync: their logical transactions run one
 * after another inside one physical transaction, and one COMMIT plus one fsync makes all of them
 * durable at once. The fsync (`makeDurable`, see `sqlite-wal-sync.ts`) runs off the event loop, so
 * requests go on being parsed and validated — and queue for the next batch — while the disk works.
 *
 * How:
 * - `run(work)` queues a logical transaction. When the connection is free, the committer first yields
 *   one event-loop turn (`setImmediate`), so that every request that arrived in the same I/O phase is
 *   queued too, then takes up to `maxBatchSize` queued transactions as one batch. Transactions queued
 *   while a batch runs go to the next batch.
 * - A batch is `BEGIN IMMEDIATE` (take the write lock up front, so `busy_timeout` applies if another
 *   process writes the file), then for each logical transaction `SAVEPOINT`, its work, and `RELEASE`
 *   on success or `ROLLBACK TO` + `RELEASE` on failure — one failing transaction never affects the
 *   others — then one `COMMIT`. A batch of one transaction (an idle server's every request) runs
 *   without the savepoint: `BEGIN IMMEDIATE`, its work, `COMMIT` (or `ROLLBACK` when it failed). A
 *   batch of one that is a single statement (`run(work, { oneStatement: true })`: the storage's writes
 *   outside a transaction, such as a claim) runs in SQLite's autocommit mode instead: the statement is
 *   its own transaction, committed when it returns, then made durable as a COMMIT is — two statements
 *   fewer on an idle server's way. Under load such writes share a batch as before.
 * - Every caller's promise settles only after that COMMIT returned and `makeDurable` resolved, i.e.
 *   once its writes are on disk (a failed transaction is answered then too); the connection stays held
 *   meanwhile, so no other statement reads rows that are not durable yet. When the batch itself fails
 *   (BEGIN, a savepoint statement or the COMMIT), everything is rolled back and every transaction of
 *   the batch is rejected; so is it when SQLite rolled the batch back by itself after a transaction's
 *   error (disk full, I/O). When the fsync fails, the batch is committed but not known durable: every
 *   transaction of it is rejected with a StorageUnavailableError (an unknown outcome, as a connection
 *   lost during a PostgreSQL COMMIT), and the committer goes on with the next batch.
 *
 * Interleaving: the batch holds Kysely's single SQLite connection (`db.connection()`, guarded by the
 * driver's mutex) from BEGIN to COMMIT, so any other statement on the same Kysely instance — a plain
 * read, a migration — waits for the mutex and can never run inside an open batch. Writes outside
 * `transaction()` are routed through this committer too, so they are grouped as well.
 *
 * Logical transactions run one at a time: a transaction that never settles blocks the queue, and a
 * transaction's work must not wait for another storage call outside its own stores (see
 * `transaction-scope.ts`, which turns that deadlock into an immediate error).
 */

import { CompiledQuery, type Kysely } from "kysely";
import { StorageUnavailableError } from "../storage-unavailable.js";
import { assertOutsideTransaction, runInTransactionScope } from "./transaction-scope.js";

/** Counters of the committer since it was created. */
export interface GroupCommitStats {
  /** Logical transactions answered (committed or rolled back). */
  transactions: number;
  /** Physical COMMITs that succeeded (each followed by one `makeDurable`). */
  commits: number;
}

/** Options of SqliteGroupCommitter. */
export interface GroupCommitOptions {
  /** Most logical transactions in one physical commit (default 256; 1 disables grouping, for comparison). */
  readonly maxBatchSize?: number | undefined;
  /** Runs before each COMMIT; when it throws, the batch rolls back and every transaction of it fails. */
  readonly beforeCommit?: (() => void) | undefined;
  /** Makes a committed batch durable (the WAL's fsync); awaited before any of it is answered. */
  readonly makeDurable?: (() => Promise<void>) | undefined;
}

/** The default largest number of logical transactions in one physical commit. */
export const DEFAULT_MAX_BATCH_SIZE = 256;

interface Pending<DB> {
  work: (db: Kysely<DB>) => Promise<unknown>;
  /** The work is one statement (atomic by itself): alone, it needs no BEGIN/COMMIT around it. */
  oneStatement: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Runs logical transactions on one SQLite connection, many per physical commit. */
export class SqliteGroupCommitter<DB> {
  readonly #db: Kysely<DB>;
  readonly #maxBatchSize: number;
  readonly #beforeCommit: (() => void) | undefined;
  readonly #makeDurable: (() => Promise<void>) | undefined;
  #queue: Pending<DB>[] = [];
  #draining: Promise<void> | undefined;
  #closed = false;
  #transactions = 0;
  #commits = 0;

  constructor(db: Kysely<DB>, options: GroupCommitOptions = {}) {
    const maxBatchSize = options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE;
    if (!Number.isSafeInteger(maxBatchSize) || maxBatchSize < 1) {
      throw new RangeError(`maxBatchSize must be a positive integer, got ${maxBatchSize}`);
    }
    this.#db = db;
    this.#maxBatchSize = maxBatchSize;
    this.#beforeCommit = options.beforeCommit;
    this.#makeDurable = options.makeDurable;
  }

  /**
   * Queues `work` as one logical transaction; settles after the commit that holds it.
   * `oneStatement`: `work` runs exactly one statement (see the header).
   */
  run<T>(work: (db: Kysely<DB>) => Promise<T>, options: { oneStatement?: boolean } = {}): Promise<T> {
    try {
      assertOutsideTransaction("storage.transaction() or a storage method");
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.#closed) return Promise.reject(new Error("storage is closed"));
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({
        work,
        oneStatement: options.oneStatement === true,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      this.#draining ??= this.#drain();
    });
  }

  /** Counters since creation. */
  stats(): GroupCommitStats {
    return { transactions: this.#transactions, commits: this.#commits };
  }

  /** Refuses new transactions and waits until the queued ones are answered. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#draining;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        // Let the rest of this I/O phase queue its transactions before the batch is cut.
        await new Promise<void>((resolve) => setImmediate(resolve));
        await this.#db.connection().execute(async (conn) => {
          await this.#runBatch(conn, this.#queue.splice(0, this.#maxBatchSize));
        });
      }
    } catch (error) {
      // Only acquiring the connection can fail here (#runBatch answers everything itself).
      for (const pending of this.#queue.splice(0)) pending.reject(error);
    } finally {
      this.#draining = undefined;
    }
  }

  async #runBatch(conn: Kysely<DB>, batch: Pending<DB>[]): Promise<void> {
    const [alone, ...others] = batch;
    if (alone?.oneStatement === true && others.length === 0) {
      await this.#runAutocommit(conn, alone);
      return;
    }
    const outcomes: Outcome[] = [];
    let failure: { error: unknown } | undefined;
    let begun = false;
    let committed = false;
    try {
      // Transaction control as compiled statements: Kysely would compile a sql`…` template on every run.
      await conn.executeQuery(CompiledQuery.raw("begin immediate"));
      begun = true;
      // A batch of one needs no savepoint: when it fails, the whole transaction rolls back instead.
      const nested = batch.length > 1;
      for (const pending of batch) {
        if (nested) await conn.executeQuery(CompiledQuery.raw("savepoint toolhost_tx"));
        let outcome: Outcome;
        try {
          outcome = { ok: true, value: await runInTransactionScope(() => pending.work(conn)) };
        } catch (error) {
          outcome = { ok: false, error };
        }
        if (nested) {
          if (!outcome.ok) await rollbackToSavepoint(conn, outcome.error);
          await conn.executeQuery(CompiledQuery.raw("release toolhost_tx"));
        }
        outcomes.push(outcome);
      }
      if (!nested && outcomes[0]?.ok === false) {
        // SQLite may already have rolled back by itself (e.g. on SQLITE_FULL); then this fails harmlessly.
        await conn.executeQuery(CompiledQuery.raw("rollback")).catch(() => undefined);
      } else {
        this.#beforeCommit?.();
        await conn.executeQuery(CompiledQuery.raw("commit"));
        this.#commits++;
        committed = true;
        await this.#makeDurable?.();
      }
    } catch (error) {
      if (committed) {
        failure = { error: notDurable(error) };
      } else {
        failure = { error };
        // SQLite may already have rolled back by itself (e.g. on SQLITE_FULL); then this fails harmlessly.
        if (begun) await conn.executeQuery(CompiledQuery.raw("rollback")).catch(() => undefined);
      }
    }
    this.#transactions += batch.length;
    batch.forEach((pending, index) => {
      const outcome = outcomes[index];
      if (outcome !== undefined && !outcome.ok) pending.reject(outcome.error);
      else if (failure !== undefined || outcome === undefined) pending.reject(failure?.error);
      else pending.resolve(outcome.value);
    });
  }

  /**
   * One statement alone, as its own (autocommit) transaction: SQLite commits it when it returns; it is
   * answered once `makeDurable` resolved (a failed fsync: an unknown outcome, as for a batch).
   */
  async #runAutocommit(conn: Kysely<DB>, pending: Pending<DB>): Promise<void> {
    this.#transactions++;
    let value: unknown;
    try {
      // The file check runs before the write here: a deleted or replaced file fails it unwritten.
      this.#beforeCommit?.();
      value = await runInTransactionScope(() => pending.work(conn));
    } catch (error) {
      // SQLite rolled the statement back by itself.
      pending.reject(error);
      return;
    }
    this.#commits++;
    try {
      await this.#makeDurable?.();
    } catch (error) {
      pending.reject(notDurable(error));
      return;
    }
    pending.resolve(value);
  }
}

/**
 * Undoes one failed logical transaction. When SQLite already rolled the whole batch back by itself
 * (it does on SQLITE_FULL, SQLITE_IOERR, SQLITE_BUSY and SQLITE_NOMEM), the savepoint is gone: the
 * batch fails with the transaction's own error, which says why (not "no such savepoint").
 */
async function rollbackToSavepoint<DB>(conn: Kysely<DB>, cause: unknown): Promise<void> {
  try {
    await conn.executeQuery(CompiledQuery.raw("rollback to toolhost_tx"));
  } catch {
    throw cause;
  }
}

/** The error of a commit whose fsync failed: it happened, but may not survive a power loss. */
function notDurable(cause: unknown): StorageUnavailableError {
  return new StorageUnavailableError(
    `the commit could not be made durable (fsync of the SQLite WAL failed: ${(cause as Error).message}); ` +
      "its outcome is unknown",
    { cause },
  );
}
