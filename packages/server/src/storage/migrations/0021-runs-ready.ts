/**
 * 0021_runs_ready: `runs.ready_at_ms`, when the turn a run waited for settled and the turn engine has
 * not advanced it yet (docs/runs.md#the-turn-engine). The transaction that settles a turn's last call
 * sets it; the engine's own transaction clears it with the turn it makes. A crash between the two
 * leaves it set, and the engine's recovery sweep reads the partial index `runs_ready` (ready runs
 * only, a handful at any time) in order. Additive; the same on both dialects.
 */

import { type Kysely, type Migration, sql } from "kysely";

/** The index's name. */
export const RUNS_READY_INDEX = "runs_ready";

/** The 0021_runs_ready migration. */
export const runsReadyMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable("runs").addColumn("ready_at_ms", "bigint").execute();
    await sql`create index ${sql.id(RUNS_READY_INDEX)} on runs (ready_at_ms, run_id) where ready_at_ms is not null`.execute(
      db,
    );
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await sql`drop index if exists ${sql.id(RUNS_READY_INDEX)}`.execute(db);
    await db.schema.alterTable("runs").dropColumn("ready_at_ms").execute();
  },
};
