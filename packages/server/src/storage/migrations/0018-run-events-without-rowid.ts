/**
 * 0018_run_events_without_rowid: SQLite only. `run_events` becomes a WITHOUT ROWID table keyed by its
 * primary key (run_id, seq): the rows live in the key's b-tree, so the separate index SQLite kept for
 * the key (about 500 bytes per completed call) is gone; every read of the stream is by that key. The
 * rows are copied once, in the migration's transaction (time grows with the events stored). PostgreSQL
 * keeps its table (it has no clustered tables): nothing to do.
 */

import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../storage.js";

/** Recreates run_events with `rowid` (true) or without (false), copying every row. */
async function rebuild(db: Kysely<unknown>, withoutRowid: boolean): Promise<void> {
  await sql`create table run_events_rebuilt (
      run_id text not null references runs (run_id),
      seq integer not null,
      kind text not null,
      data_json text,
      history_seq integer,
      created_at_ms bigint not null,
      ref_id text,
      constraint run_events_pk primary key (run_id, seq)
    ) ${withoutRowid ? sql`without rowid` : sql``}`.execute(db);
  await sql`insert into run_events_rebuilt (run_id, seq, kind, data_json, history_seq, created_at_ms, ref_id)
    select run_id, seq, kind, data_json, history_seq, created_at_ms, ref_id from run_events`.execute(db);
  await sql`drop table run_events`.execute(db);
  await sql`alter table run_events_rebuilt rename to run_events`.execute(db);
}

/** The 0018_run_events_without_rowid migration for `dialect`. */
export function runEventsWithoutRowidMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === "sqlite") await rebuild(db, true);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect === "sqlite") await rebuild(db, false);
    },
  };
}
