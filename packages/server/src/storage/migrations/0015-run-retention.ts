/**
 * 0015_run_retention: an index of ended runs by when they ended, so that the retention sweep
 * (docs/operations.md#retention) reads the oldest ended runs in index order and stops at its batch
 * size instead of scanning every run. Partial (`ended_at_ms is not null`): runs still going are not in
 * it. Additive; the same on both dialects.
 */

import { type Kysely, type Migration, sql } from "kysely";

/** The index's name. */
export const RUNS_ENDED_INDEX = "runs_ended";

/** The 0015_run_retention migration. */
export const runRetentionMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`create index ${sql.id(RUNS_ENDED_INDEX)} on runs (ended_at_ms, run_id) where ended_at_ms is not null`.execute(
      db,
    );
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await sql`drop index if exists ${sql.id(RUNS_ENDED_INDEX)}`.execute(db);
  },
};
