/**
 * 0016_run_event_references: `run_events.ref_id`, the row a `run.status`, `tool_call.status` or
 * `model.request` event is rebuilt from when read (the run, the call, the model request), so the
 * event stores only what changed (`data_json` then holds that snapshot, or nothing for a model
 * request) instead of the whole wire form (docs/runs.md#the-event-stream). Rows written before keep
 * `ref_id` NULL and their wire form in `data_json`, and are read as they are. Additive; the same on
 * both dialects.
 */

import { type Kysely, type Migration, sql } from "kysely";

/** The 0016_run_event_references migration. */
export const runEventReferencesMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`alter table run_events add column ref_id text`.execute(db);
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await sql`alter table run_events drop column ref_id`.execute(db);
  },
};
