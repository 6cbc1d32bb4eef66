/**
 * Opens the Kysely instance for a database URL (see `database-url.ts`), with the connection settings
 * the storage relies on. No migrations run here.
 *
 * A database that goes away must never end the process: on PostgreSQL every pooled client has an
 * 'error' listener for its whole life, and connects and statements are bounded by `DatabaseTimeouts`;
 * on SQLite a file deleted or replaced under the open connection is noticed before each commit
 * (SQLite itself would go on writing to the unlinked file, and those writes would be lost).
 */

import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from "kysely";
import pg from "pg";
import type { Database } from "../database-schema.js";
import { type DatabaseLocation, parseDatabaseUrl, redactDatabaseUrl, SQLITE_MEMORY_PATH } from "../database-url.js";
import type { Dialect } from "../storage.js";
import { StorageUnavailableError } from "../storage-unavailable.js";
import { PIPELINE_CLIENT_CONFIG, PipelinedPostgresDriver } from "./postgres-pipelined-driver.js";
import { usePreparedStatements } from "./postgres-prepared-statements.js";
import { SqliteServerDialect } from "./sqlite-dialect.js";
import { StatementCachingDatabase } from "./sqlite-statement-cache.js";
import { SqliteWalSync, type WalSync } from "./sqlite-wal-sync.js";
import { countingDialect, StatementCounter } from "./statement-counter.js";

/** How long a SQLite statement waits for another process's write lock before failing. */
export const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/** The pause between tries of a step SQLite refused as busy at once (`whileSqliteBusy`). */
const BUSY_RETRY_MS = 10;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `step` again while it fails with SQLITE_BUSY, for up to `timeoutMs`, then lets the error
 * through. SQLite answers some lock conflicts at once instead of through its busy handler (where
 * waiting could deadlock): seen on `journal_mode = WAL` when several processes open and migrate a new
 * file together. For opening only: it blocks the thread while it waits.
 */
export function whileSqliteBusy<T>(step: () => T, timeoutMs = SQLITE_BUSY_TIMEOUT_MS): T {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      return step();
    } catch (error) {
      const busy = typeof error === "object" && error !== null && (error as { code?: unknown }).code === "SQLITE_BUSY";
      if (!busy || performance.now() >= deadline) throw error;
      Atomics.wait(sleeper, 0, 0, BUSY_RETRY_MS);
    }
  }
}

/** Limits on waiting for PostgreSQL (0: no limit). SQLite waits `SQLITE_BUSY_TIMEOUT_MS` for locks. */
export interface DatabaseTimeouts {
  /** Longest wait for a new connection, or for a free one of the pool. */
  readonly connectTimeoutMs: number;
  /**
   * Longest one statement may run: the server's `statement_timeout` cancels it (the connection stays
   * usable); the client stops waiting `QUERY_TIMEOUT_GRACE_MS` later (a server that no longer answers).
   */
  readonly queryTimeoutMs: number;
}

/** No limits: for migrations and tools, which may legitimately run long statements. */
export const NO_DATABASE_TIMEOUTS: DatabaseTimeouts = { connectTimeoutMs: 0, queryTimeoutMs: 0 };

/** How much longer than `statement_timeout` the client waits for an answer before giving up by itself. */
export const QUERY_TIMEOUT_GRACE_MS = 1_000;

/** An open database: its Kysely instance, dialect and (PostgreSQL) schema. */
export interface DatabaseConnection {
  readonly dialect: Dialect;
  readonly db: Kysely<Database>;
  /** The PostgreSQL schema the tables live in (the search_path's first schema); undefined on SQLite. */
  readonly schema: string | undefined;
  /**
   * SQLite file databases: throws a StorageUnavailableError when the file was deleted or replaced since
   * it was opened (checked before every commit). Undefined for PostgreSQL and `sqlite::memory:`.
   */
  readonly verifyFile: (() => void) | undefined;
  /** SQLite file databases: the file's absolute path (readiness checks the room left beside it). */
  readonly filePath: string | undefined;
  /**
   * SQLite file databases: the fsync that makes commits durable (the connection runs with
   * `synchronous=NORMAL`); whoever commits on `db` calls it before acknowledging anything.
   * Undefined for PostgreSQL and `sqlite::memory:`.
   */
  readonly walSync: WalSync | undefined;
  /** Statements sent to the database through `db` (round trips on PostgreSQL). */
  readonly statements: StatementCounter;
}

/** Opens a database URL; throws a clear Error for an unknown scheme or an unreachable server. */
export async function connectDatabase(
  url: string,
  timeouts: DatabaseTimeouts = NO_DATABASE_TIMEOUTS,
): Promise<DatabaseConnection> {
  const location = parseDatabaseUrl(url);
  if (location.dialect === "sqlite") return connectSqlite(location.path);
  return connectPostgres(location, url, timeouts);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function connectSqlite(path: string): DatabaseConnection {
  // A missing directory is refused, never created: a mistyped path would silently make a new tree
  // with an empty database in it.
  if (path !== SQLITE_MEMORY_PATH) {
    const directory = dirname(resolve(path));
    if (!isDirectory(directory)) {
      throw new Error(`the directory ${directory} of the SQLite database does not exist; create it first`);
    }
  }
  const database = new BetterSqlite3(path);
  try {
    // WAL: readers never block the writer. NORMAL: a COMMIT writes the WAL without waiting for the
    // disk; the storage then fsyncs the WAL off the event loop before it answers (`walSync`), which
    // keeps FULL's durability (see sqlite-wal-sync.ts). Foreign keys are off by default in SQLite.
    // The busy timeout first: switching to WAL takes a lock another process opening the file may hold.
    database.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    whileSqliteBusy(() => database.pragma("journal_mode = WAL"));
    database.pragma("synchronous = NORMAL");
    database.pragma("foreign_keys = ON");
    // Sorts (the candidates of every pending poll are ordered) in memory, not in a temporary file:
    // measured at about a third of that query's time. They hold at most a page of rows.
    database.pragma("temp_store = MEMORY");
  } catch (error) {
    database.close();
    throw error;
  }
  const statements = new StatementCounter();
  return {
    dialect: "sqlite",
    // Prepared statements are reused by SQL text: preparing costs more than running most queries.
    db: new Kysely<Database>({
      dialect: countingDialect(
        new SqliteServerDialect({ database: new StatementCachingDatabase(database) }),
        statements,
      ),
    }),
    schema: undefined,
    verifyFile: path === SQLITE_MEMORY_PATH ? undefined : fileVerifier(resolve(path)),
    filePath: path === SQLITE_MEMORY_PATH ? undefined : resolve(path),
    walSync: path === SQLITE_MEMORY_PATH ? undefined : new SqliteWalSync(resolve(path)),
    statements,
  };
}

/** A check that `path` is still the file opened now (same device and inode). */
function fileVerifier(path: string): () => void {
  const opened = statSync(path);
  return () => {
    const now = statSync(path, { throwIfNoEntry: false });
    if (now === undefined || now.ino !== opened.ino || now.dev !== opened.dev) {
      throw new StorageUnavailableError(
        `the SQLite file ${path} was deleted or replaced while open; restore it and restart the server`,
      );
    }
  };
}

/** `off` sends every PostgreSQL statement unnamed (see `postgres-prepared-statements.ts`). */
export const PREPARED_STATEMENTS_VARIABLE = "TOOLHOST_POSTGRES_PREPARED_STATEMENTS";

const INT8_OID = 20;

/** Reads int8 (bigint, count(*)) as a JS number; refuses values a number cannot hold exactly. */
function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`int8 value ${text} is outside the safe integer range`);
  return value;
}

/** The pg client settings that bound waiting on the server (shared by the storage pool and the wake-up relay). */
export function postgresTimeoutConfig(timeouts: DatabaseTimeouts): pg.ClientConfig {
  const { connectTimeoutMs, queryTimeoutMs } = timeouts;
  return {
    // TCP keep-alive notices a server that vanished under an idle connection.
    keepAlive: true,
    ...(connectTimeoutMs > 0 ? { connectionTimeoutMillis: connectTimeoutMs } : {}),
    ...(queryTimeoutMs > 0
      ? { statement_timeout: queryTimeoutMs, query_timeout: queryTimeoutMs + QUERY_TIMEOUT_GRACE_MS }
      : {}),
  };
}

/**
 * Keeps a lost connection from ending the process. pg-pool listens for 'error' only on idle clients;
 * a client checked out (a transaction in progress) whose connection is cut emits 'error' with no
 * listener: an uncaught exception. Each client gets a listener for its whole life; the query in flight
 * rejects by itself and the pool discards the broken client on release.
 */
export function survivePostgresConnectionErrors(pool: pg.Pool): void {
  pool.on("connect", (client) => client.on("error", () => undefined));
  // An idle client losing its server emits here; the pool drops it and the next checkout reconnects.
  pool.on("error", () => undefined);
}

/**
 * Every statement runs its generic plan, made once per connection and statement (the server names its
 * hot statements: postgres-prepared-statements.ts). PostgreSQL's default plans a statement again for
 * each execution whenever its custom plans look cheaper: for the pending poll that was about 1 ms of
 * each poll at 10,000 queued calls (bench/scale). The plan test checks the generic plans of the hot
 * queries read their index in order (docs/storage.md).
 */
const GENERIC_PLANS_OPTION = "-c plan_cache_mode=force_generic_plan";

/**
 * The pool's startup options: the generic-plan mode, then the URL's (which may set another mode, and
 * the schema's search_path). Without prepared statements (a pooler such as PgBouncer in transaction
 * mode, which may refuse startup options too) only the URL's.
 */
function startupOptions(fromUrl: string | undefined): string | undefined {
  if (process.env[PREPARED_STATEMENTS_VARIABLE] === "off") return fromUrl;
  return fromUrl === undefined ? GENERIC_PLANS_OPTION : `${GENERIC_PLANS_OPTION} ${fromUrl}`;
}

async function connectPostgres(
  location: Extract<DatabaseLocation, { dialect: "postgres" }>,
  url: string,
  timeouts: DatabaseTimeouts,
): Promise<DatabaseConnection> {
  // Per-pool type parsers: the process-wide `pg.types` stays untouched for other users of `pg`.
  const types = new pg.TypeOverrides();
  types.setTypeParser(INT8_OID, parseInt8);
  const pool = new pg.Pool({
    connectionString: location.connectionString,
    types,
    ...postgresTimeoutConfig(timeouts),
    options: startupOptions(location.options),
    // Clients send each statement at once (pg's pipeline mode): the driver decides what waits.
    ...PIPELINE_CLIENT_CONFIG,
  });
  survivePostgresConnectionErrors(pool);
  // Off for a connection pooler that cannot keep named statements (PgBouncer in transaction mode).
  if (process.env[PREPARED_STATEMENTS_VARIABLE] !== "off") usePreparedStatements(pool);
  const statements = new StatementCounter(true);
  const dialect = {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PipelinedPostgresDriver(pool, statements),
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
  const db = new Kysely<Database>({ dialect: countingDialect(dialect, statements) });
  try {
    if (location.schema !== undefined) await ensureSchema(db, location.schema);
    const row = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
    const schema = row.rows[0]?.schema ?? null;
    if (schema === null) {
      throw new Error("no schema of the search_path exists: add ?schema=NAME to the database URL");
    }
    return {
      dialect: "postgres",
      db,
      schema,
      verifyFile: undefined,
      filePath: undefined,
      walSync: undefined,
      statements,
    };
  } catch (error) {
    await db.destroy();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot open PostgreSQL at ${redactDatabaseUrl(url)}: ${reason}`, { cause: error });
  }
}

/** Creates the schema unless it exists; tolerates another instance creating it at the same moment. */
async function ensureSchema(db: Kysely<Database>, schema: string): Promise<void> {
  try {
    await db.schema.createSchema(schema).ifNotExists().execute();
  } catch (error) {
    // Concurrent `CREATE SCHEMA IF NOT EXISTS` can still fail with a unique violation in PostgreSQL.
    const found = await sql<{ n: number }>`select count(*) as n from pg_namespace where nspname = ${schema}`.execute(
      db,
    );
    if ((found.rows[0]?.n ?? 0) === 0) throw error;
  }
}
