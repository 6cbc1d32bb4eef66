/**
 * Counts the statements the storage sends to its database: every round trip on PostgreSQL (BEGIN,
 * COMMIT and SAVEPOINT included) and every statement executed on SQLite. The count is how the hot path
 * is kept short (`docs/storage.md`): a test pins the statements per request kind, so one added by a
 * change fails it. It also counts the rows statements answer and the text in them (UTF-16 code units
 * of string values), which is how a test keeps a model turn from re-reading the run's whole history.
 * Counting is a few increments per statement and row, so it is always on.
 */

import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  Kysely,
  QueryCompiler,
  TransactionSettings,
} from "kysely";

/** Sees each statement sent (the query-plan test EXPLAINs what the stores send). */
export type StatementObserver = (query: CompiledQuery) => void;

/** A running count of statements sent, shared by every connection of one database. */
export class StatementCounter {
  #count = 0;
  #roundTrips = 0;
  readonly #countsRoundTrips: boolean;
  #observer: StatementObserver | undefined;
  #rows = 0;
  #characters = 0;

  /** `countsRoundTrips`: the driver reports its round trips (PostgreSQL's pipelined driver). */
  constructor(countsRoundTrips = false) {
    this.#countsRoundTrips = countsRoundTrips;
  }

  /** Statements sent since the counter was created. */
  get count(): number {
    return this.#count;
  }

  /**
   * PostgreSQL: round trips since the counter was created — statements sent while nothing else of their
   * connection was on the way (the pipelined driver sends BEGIN and unanswered writes along with the
   * next statement: postgres-pipelined-driver.ts). SQLite has none: its statements are counted instead.
   */
  get roundTrips(): number {
    return this.#countsRoundTrips ? this.#roundTrips : this.#count;
  }

  /** Adds one round trip (the PostgreSQL driver calls it). */
  addRoundTrip(): void {
    this.#roundTrips++;
  }

  /** Rows answered since the counter was created. */
  get rowsRead(): number {
    return this.#rows;
  }

  /** Characters of string values in the rows answered since the counter was created. */
  get charactersRead(): number {
    return this.#characters;
  }

  /** Adds one statement. */
  add(query: CompiledQuery): void {
    this.#count++;
    this.#observer?.(query);
  }

  /** Shows every statement sent from now on to `observer` (undefined: to nobody). */
  observe(observer: StatementObserver | undefined): void {
    this.#observer = observer;
  }

  /** Adds the rows one statement answered. */
  addRows(rows: readonly unknown[]): void {
    this.#rows += rows.length;
    let characters = 0;
    for (const row of rows) {
      if (typeof row !== "object" || row === null) continue;
      // for…in, not Object.values: no array per row on the hot path (rows are plain objects).
      for (const name in row) {
        const value = (row as Record<string, unknown>)[name];
        if (typeof value === "string") characters += value.length;
      }
    }
    this.#characters += characters;
  }
}

/** Wraps a Kysely dialect so that every statement its connections execute is counted. */
export function countingDialect(inner: Dialect, counter: StatementCounter): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db: Kysely<unknown>) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver: () => new CountingDriver(inner.createDriver(), counter),
  };
}

const COUNTED = Symbol("counted connection");

/**
 * Delegates to the dialect's driver and counts on its connections. The connection objects are patched
 * in place rather than wrapped: the drivers keep private state on them (PostgreSQL marks a connection
 * whose ROLLBACK failed for discarding), and BEGIN/COMMIT run through their `executeQuery`.
 */
class CountingDriver implements Driver {
  readonly #inner: Driver;
  readonly #counter: StatementCounter;

  constructor(inner: Driver, counter: StatementCounter) {
    this.#inner = inner;
    this.#counter = counter;
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.#inner.acquireConnection();
    const marked = connection as DatabaseConnection & { [COUNTED]?: true };
    if (marked[COUNTED] !== true) {
      const counter = this.#counter;
      const execute = connection.executeQuery.bind(connection);
      const stream = connection.streamQuery.bind(connection);
      marked.executeQuery = async <R>(query: CompiledQuery) => {
        counter.add(query);
        const result = await execute<R>(query);
        counter.addRows(result.rows);
        return result;
      };
      marked.streamQuery = (query, chunkSize) => {
        counter.add(query);
        return stream(query, chunkSize);
      };
      marked[COUNTED] = true;
    }
    return connection;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(connection);
  }

  savepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler["compileQuery"]): Promise<void> {
    if (this.#inner.savepoint === undefined) throw new Error("this dialect has no savepoints");
    return this.#inner.savepoint(connection, name, compileQuery);
  }

  rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler["compileQuery"],
  ): Promise<void> {
    if (this.#inner.rollbackToSavepoint === undefined) throw new Error("this dialect has no savepoints");
    return this.#inner.rollbackToSavepoint(connection, name, compileQuery);
  }

  releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler["compileQuery"],
  ): Promise<void> {
    if (this.#inner.releaseSavepoint === undefined) throw new Error("this dialect has no savepoints");
    return this.#inner.releaseSavepoint(connection, name, compileQuery);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#inner.releaseConnection(connection);
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}
