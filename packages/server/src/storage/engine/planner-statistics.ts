/**
 * The planner statistics of the hot queries' tables (docs/storage.md, "Indexes of the hot queries").
 * Without statistics PostgreSQL guesses selectivities, and for the two deadline sweeps it then reads
 * the overdue rows with a bitmap scan and sorts them instead of reading their index in order up to the
 * limit. Autovacuum keeps statistics on a default cluster; a cluster (or table) with it off would never
 * have them, so the server analyses a hot table itself when it was never analysed or changed by more
 * than autovacuum's own threshold (50 rows + 10%) since. SQLite picks these plans without statistics:
 * nothing to do there.
 */

import { type Kysely, sql } from "kysely";
import type { Database } from "../database-schema.js";
import type { Dialect } from "../storage.js";

/** The tables the hot queries and sweeps read. */
export const HOT_QUERY_TABLES = ["tool_calls", "runs", "executors", "model_turns"] as const;

/** Rows changed since the last analysis after which a table's statistics are stale (autovacuum's default). */
const STALE_ROWS_BASE = 50;

/** Fraction of a table's live rows changed since the last analysis after which its statistics are stale. */
const STALE_ROWS_FRACTION = 0.1;

/** The hot tables of the current schema whose statistics are missing or stale (PostgreSQL). */
async function staleTables(db: Kysely<Database>): Promise<string[]> {
  const rows = await sql<{ relname: string }>`
    select relname from pg_stat_user_tables
    where schemaname = current_schema()
      and relname in (${sql.join(HOT_QUERY_TABLES.map((table) => sql.lit(table)))})
      and ((last_analyze is null and last_autoanalyze is null)
        or n_mod_since_analyze > ${sql.lit(STALE_ROWS_BASE)} + ${sql.lit(STALE_ROWS_FRACTION)} * n_live_tup)
    order by relname`.execute(db);
  return rows.rows.map((row) => row.relname);
}

/** Analyses the hot tables whose statistics are missing or stale; answers their names (none on SQLite). */
export async function refreshPlannerStatistics(dialect: Dialect, db: Kysely<Database>): Promise<string[]> {
  if (dialect !== "postgres") return [];
  const stale = await staleTables(db);
  // One table at a time: each ANALYZE samples at most 30,000 rows and blocks no reader or writer.
  for (const table of stale) await sql`analyze ${sql.table(table)}`.execute(db);
  return stale;
}
