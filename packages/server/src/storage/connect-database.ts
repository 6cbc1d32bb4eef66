/**
 * Opens the Kysely instance for a database URL (see `database-url.ts`), with the connection settings
 * the storage relies on. No migrations run here.
 */

import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import type { Database } from "./database-schema.js";
import { type DatabaseLocation, parseDatabaseUrl, redactDatabaseUrl, SQLITE_MEMORY_PATH } from "./database-url.js";
import { SqliteServerDialect } from "./sqlite-dialect.js";
import { StatementCachingDatabase } from "./sqlite-statement-cache.js";
import type { Dialect } from "./storage.js";

/** How long a SQLite statement waits for another process's write lock before failing. */
export const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/** An open database: its Kysely instance, dialect and (PostgreSQL) schema. */
export interface DatabaseConnection {
  readonly dialect: Dialect;
  readonly db: Kysely<Database>;
  /** The PostgreSQL schema the tables live in (the search_path's first schema); undefined on SQLite. */
  readonly schema: string | undefined;
}

/** Opens a database URL; throws a clear Error for an unknown scheme or an unreachable server. */
export async function connectDatabase(url: string): Promise<DatabaseConnection> {
  const location = parseDatabaseUrl(url);
  if (location.dialect === "sqlite") return connectSqlite(location.path);
  return connectPostgres(location, url);
}

function connectSqlite(path: string): DatabaseConnection {
  if (path !== SQLITE_MEMORY_PATH) mkdirSync(dirname(resolve(path)), { recursive: true });
  const database = new BetterSqlite3(path);
  try {
    // WAL: readers never block the writer. FULL: a COMMIT returns only once it is durable (one fsync
    // per commit, which the group committer amortises). Foreign keys are off by default in SQLite.
    database.pragma("journal_mode = WAL");
    database.pragma("synchronous = FULL");
    database.pragma("foreign_keys = ON");
    database.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    // Sorts (the candidates of every pending poll are ordered) in memory, not in a temporary file:
    // measured at about a third of that query's time. They hold at most a page of rows.
    database.pragma("temp_store = MEMORY");
  } catch (error) {
    database.close();
    throw error;
  }
  return {
    dialect: "sqlite",
    // Prepared statements are reused by SQL text: preparing costs more than running most queries.
    db: new Kysely<Database>({
      dialect: new SqliteServerDialect({ database: new StatementCachingDatabase(database) }),
    }),
    schema: undefined,
  };
}

const INT8_OID = 20;

/** Reads int8 (bigint, count(*)) as a JS number; refuses values a number cannot hold exactly. */
function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`int8 value ${text} is outside the safe integer range`);
  return value;
}

async function connectPostgres(
  location: Extract<DatabaseLocation, { dialect: "postgres" }>,
  url: string,
): Promise<DatabaseConnection> {
  // Per-pool type parsers: the process-wide `pg.types` stays untouched for other users of `pg`.
  const types = new pg.TypeOverrides();
  types.setTypeParser(INT8_OID, parseInt8);
  const pool = new pg.Pool({
    connectionString: location.connectionString,
    types,
    ...(location.options === undefined ? {} : { options: location.options }),
  });
  // An idle client losing its server emits here; the pool drops that client and the next checkout
  // reconnects. Without a listener the process would crash.
  pool.on("error", () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    if (location.schema !== undefined) await ensureSchema(db, location.schema);
    const row = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
    const schema = row.rows[0]?.schema ?? null;
    if (schema === null) {
      throw new Error("no schema of the search_path exists: add ?schema=NAME to the database URL");
    }
    return { dialect: "postgres", db, schema };
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
