/**
 * Prepared statements reused across queries on the SQLite connection.
 *
 * Why: Kysely's SQLite driver calls `database.prepare(sql)` for every query it runs. Preparing (parsing
 * and planning) costs SQLite tens of microseconds — many times more than running a point query — and a
 * tool-call cycle runs about fifty statements, so under load preparing was one of the server's largest
 * CPU costs. The server's statements come from a small set of query shapes, so the same SQL texts
 * recur: this wrapper hands Kysely the statement prepared earlier for the same text.
 *
 * Safe because the one connection runs one statement at a time (Kysely's connection mutex, and
 * better-sqlite3 is synchronous), the driver only uses `reader`, `all`, `run` and `iterate` (a streamed
 * statement holds the connection until it is done), and SQLite re-prepares a statement by itself when
 * the schema changed. Bounded: the least recently used statement is dropped beyond `capacity` (texts
 * vary with the length of `in (…)` lists), and a failing `prepare` is never cached.
 */

import type { SqliteDatabase, SqliteStatement } from "kysely";

/** Default number of prepared statements kept: several times the server's distinct query shapes. */
export const DEFAULT_STATEMENT_CACHE_SIZE = 512;

/** Counters of the cache, for tests and diagnostics. */
export interface StatementCacheStats {
  /** Statements prepared (cache misses). */
  prepared: number;
  /** Queries that reused a prepared statement. */
  reused: number;
  /** Statements currently kept. */
  size: number;
}

/** A SqliteDatabase for Kysely that reuses prepared statements by SQL text (LRU). */
export class StatementCachingDatabase implements SqliteDatabase {
  readonly #database: SqliteDatabase;
  readonly #capacity: number;
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  readonly #statements = new Map<string, SqliteStatement>();
  #prepared = 0;
  #reused = 0;

  constructor(database: SqliteDatabase, capacity = DEFAULT_STATEMENT_CACHE_SIZE) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) {
      throw new RangeError(`the statement cache capacity must be a positive integer, got ${capacity}`);
    }
    this.#database = database;
    this.#capacity = capacity;
  }

  prepare(sql: string): SqliteStatement {
    const cached = this.#statements.get(sql);
    if (cached !== undefined) {
      this.#reused++;
      this.#statements.delete(sql);
      this.#statements.set(sql, cached);
      return cached;
    }
    const statement = this.#database.prepare(sql);
    this.#prepared++;
    this.#statements.set(sql, statement);
    if (this.#statements.size > this.#capacity) {
      const oldest = this.#statements.keys().next();
      if (oldest.done !== true) this.#statements.delete(oldest.value);
    }
    return statement;
  }

  close(): void {
    this.#statements.clear();
    this.#database.close();
  }

  /** Counters since creation. */
  stats(): StatementCacheStats {
    return { prepared: this.#prepared, reused: this.#reused, size: this.#statements.size };
  }
}
