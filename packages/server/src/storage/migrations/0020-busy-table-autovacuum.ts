/**
 * 0020_busy_table_autovacuum: PostgreSQL only. `tool_calls` and `runs` are the tables whose rows
 * change: each status change of a call or run leaves a dead row version (and its index entries, the
 * status being indexed, so no HOT update) until VACUUM. With autovacuum's default scale factor (20 %
 * of the table) a large table carries dead versions of a fifth of its rows; these two are vacuumed
 * once 2 % of their rows are dead, so the space is reused soon (docs/operations.md#retention). Storage
 * parameters only: no row moves. SQLite has nothing to do.
 */

import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../storage.js";

/** The tables tuned, and autovacuum's scale factor for them. */
const TABLES = ["tool_calls", "runs"] as const;
const SCALE_FACTOR = 0.02;

/** The 0020_busy_table_autovacuum migration for `dialect`. */
export function busyTableAutovacuumMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== "postgres") return;
      for (const table of TABLES)
        await sql`alter table ${sql.table(table)} set (autovacuum_vacuum_scale_factor = ${sql.lit(SCALE_FACTOR)})`.execute(
          db,
        );
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect !== "postgres") return;
      for (const table of TABLES)
        await sql`alter table ${sql.table(table)} reset (autovacuum_vacuum_scale_factor)`.execute(db);
    },
  };
}
