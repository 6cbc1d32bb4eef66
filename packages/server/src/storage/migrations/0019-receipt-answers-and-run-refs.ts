/**
 * 0019_receipt_answers_and_run_refs: two trims of what a completed call stores (docs/operations.md#retention).
 *
 * - `receipts.answer_json` may be NULL: a first answer with the usual members (`confirmed` exactly for
 *   `accepted`) is rebuilt from the receipt's ID, kind and `applied` when a replay answers it (a replay
 *   answers the call's and run's statuses, and `confirmed`, as they are now, never the stored ones), so
 *   new receipts store none. Rows written before keep their answer. On SQLite the table is rebuilt for
 *   it, WITHOUT ROWID keyed by its primary key (call_id, claim_id, receipt_id): the rows live in the
 *   key's b-tree, so the separate index SQLite kept for the key is gone.
 * - `receipts.body_digest` holds the digest's 32 bytes instead of `sha256:` and 64 hex digits (bytea
 *   on PostgreSQL); existing rows are converted.
 * - A `run.status` event of its own run stores `ref_id` as '' instead of the run's ID again (the event's
 *   `run_id`); existing rows are converted.
 *
 * Down puts an answer back into every NULL one, with the call's and run's statuses of now and
 * `confirmed: false` (what a replay answers does not depend on them), the digests' text and the run
 * IDs back.
 */

import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../storage.js";

/**
 * Recreates SQLite's receipts with `answer_json` nullable and binary digests WITHOUT ROWID (up) or as
 * before (down), copying every row.
 */
async function rebuildSqliteReceipts(db: Kysely<unknown>, up: boolean): Promise<void> {
  await sql`create table receipts_rebuilt (
      call_id text not null references tool_calls (call_id),
      receipt_id text not null,
      seq integer not null,
      run_id text not null,
      kind text not null,
      executor_id text not null,
      claim_id text not null,
      body_text text not null,
      body_digest ${up ? sql`blob` : sql`text`} not null,
      answer_json text ${up ? sql`` : sql`not null`},
      applied integer not null,
      created_at_ms bigint not null,
      result_seq integer,
      result_at integer,
      result_from integer,
      result_length integer,
      constraint receipts_pk primary key (call_id, claim_id, receipt_id),
      constraint receipts_call_seq_unique unique (call_id, seq)
    ) ${up ? sql`without rowid` : sql``}`.execute(db);
  await sql`insert into receipts_rebuilt (call_id, receipt_id, seq, run_id, kind, executor_id, claim_id, body_text,
      body_digest, answer_json, applied, created_at_ms, result_seq, result_at, result_from, result_length)
    select call_id, receipt_id, seq, run_id, kind, executor_id, claim_id, body_text,
      ${up ? sql`unhex(substr(body_digest, 8))` : sql`'sha256:' || lower(hex(body_digest))`}, answer_json, applied, created_at_ms, result_seq, result_at, result_from, result_length
    from receipts`.execute(db);
  await sql`drop table receipts`.execute(db);
  await sql`alter table receipts_rebuilt rename to receipts`.execute(db);
}

/** Gives every NULL answer one with the members a replay reads (statuses of now). */
async function fillAnswers(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const status = (table: "tool_calls" | "runs", key: "call_id" | "run_id") =>
    sql`(select t.status from ${sql.table(table)} t where t.${sql.ref(key)} = receipts.${sql.ref(key)})`;
  const answer =
    dialect === "sqlite"
      ? sql`case when kind = 'accepted'
          then json_object('receipt_id', receipt_id, 'kind', kind, 'replayed', json('false'), 'confirmed', json('false'),
            'applied', json(case when applied = 1 then 'true' else 'false' end),
            'call_status', ${status("tool_calls", "call_id")}, 'run_status', ${status("runs", "run_id")})
          else json_object('receipt_id', receipt_id, 'kind', kind, 'replayed', json('false'),
            'applied', json(case when applied = 1 then 'true' else 'false' end),
            'call_status', ${status("tool_calls", "call_id")}, 'run_status', ${status("runs", "run_id")}) end`
      : sql`case when kind = 'accepted'
          then json_build_object('receipt_id', receipt_id, 'kind', kind, 'replayed', false, 'confirmed', false,
            'applied', applied = 1, 'call_status', ${status("tool_calls", "call_id")},
            'run_status', ${status("runs", "run_id")})::text
          else json_build_object('receipt_id', receipt_id, 'kind', kind, 'replayed', false,
            'applied', applied = 1, 'call_status', ${status("tool_calls", "call_id")},
            'run_status', ${status("runs", "run_id")})::text end`;
  await sql`update receipts set answer_json = ${answer} where answer_json is null`.execute(db);
}

/** The 0019_receipt_answers_and_run_refs migration for `dialect`. */
export function receiptAnswersAndRunRefsMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === "sqlite") await rebuildSqliteReceipts(db, true);
      else {
        await sql`alter table receipts alter column answer_json drop not null`.execute(db);
        await sql`alter table receipts alter column body_digest type bytea
          using decode(substr(body_digest, 8), 'hex')`.execute(db);
      }
      await sql`update run_events set ref_id = '' where kind = 'run.status' and ref_id = run_id`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await sql`update run_events set ref_id = run_id where kind = 'run.status' and ref_id = ''`.execute(db);
      await fillAnswers(db, dialect);
      if (dialect === "sqlite") await rebuildSqliteReceipts(db, false);
      else {
        await sql`alter table receipts alter column answer_json set not null`.execute(db);
        await sql`alter table receipts alter column body_digest type text
          using 'sha256:' || encode(body_digest, 'hex')`.execute(db);
      }
    },
  };
}
