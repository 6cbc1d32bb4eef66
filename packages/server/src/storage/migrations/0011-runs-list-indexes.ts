/**
 * 0011_runs_list_indexes: `GET /v1/runs` lists runs newest first, optionally of one status or one
 * agent (docs/runs.md#listing-runs). Three indexes on `runs` let each form read its page in index
 * order — (created_at_ms, run_id), (status, created_at_ms, run_id), (agent_id, created_at_ms, run_id) —
 * instead of sorting every run. Additive; the same on both dialects.
 */

import type { Kysely, Migration } from "kysely";

/** The indexes this migration adds, by name, with their columns. */
export const RUNS_LIST_INDEXES = {
  runs_created: ["created_at_ms", "run_id"],
  runs_status_created: ["status", "created_at_ms", "run_id"],
  runs_agent_created: ["agent_id", "created_at_ms", "run_id"],
} as const;

/** The 0011_runs_list_indexes migration. */
export const runsListIndexesMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const [name, columns] of Object.entries(RUNS_LIST_INDEXES)) {
      await db.schema
        .createIndex(name)
        .on("runs")
        .columns([...columns])
        .execute();
    }
  },

  async down(db: Kysely<unknown>): Promise<void> {
    for (const name of Object.keys(RUNS_LIST_INDEXES)) await db.schema.dropIndex(name).execute();
  },
};
