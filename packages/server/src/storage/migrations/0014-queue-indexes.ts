/**
 * 0014_queue_indexes: the indexes that keep every poll and periodic sweep O(1) in queue depth — each
 * hot query reads one of these in order and stops at its limit (docs/storage.md, "Indexes of the hot
 * queries"; `test/storage/query-plans.test.ts` fails when a plan sorts or scans a table). The partial
 * indexes hold only the rows their query can want, so a poll never walks past settled calls, and
 * their predicates are spelled in the queries with the same literals (a bound parameter could not
 * prove them). The status lists are frozen here as they were when written: a change of the call
 * transition table shows in the plan test.
 */

import { type Kysely, type Migration, sql } from "kysely";

/** One index: its name and the rest of its CREATE INDEX statement. */
const INDEXES: ReadonlyArray<readonly [name: string, definition: string]> = [
  // The pending branch of the candidates, per binding, oldest first.
  ["tool_calls_pending_queue", "tool_calls (binding_id, created_at_ms, call_id) where status = 'pending'"],
  // The accept-window sweep: claims by accept deadline. `claimed_at_ms is not null` (true of every
  // claim) is said by the sweep only: it keeps the candidates' lapsed branch, which must read in
  // creation order, off this index (PostgreSQL would read it and sort).
  [
    "tool_calls_claims_by_accept_deadline",
    "tool_calls (accept_deadline_ms, call_id) where status = 'claimed' and claimed_at_ms is not null",
  ],
  // The deadline sweep: the calls the deadline event moves, by deadline.
  [
    "tool_calls_live_by_deadline",
    "tool_calls (deadline_ms, call_id) where status in ('pending', 'claimed', 'accepted')",
  ],
  // The cancellations of every poll: held calls whose business cancel was asked, per executor.
  [
    "tool_calls_held_cancellations",
    "tool_calls (executor_id, cancel_requested_at_ms, call_id) where cancel_requested_at_ms is not null " +
      "and status in ('claimed', 'accepted', 'reconciliation_required')",
  ],
  // The executor lease sweep: online connections by lease expiry.
  ["executors_online_by_lease", "executors (lease_expires_ms, executor_id) where online = 1"],
  // The model-turn scan: queued turns, oldest first (the leased ones are few, skipped while reading).
  ["model_turns_queue", "model_turns (created_at_ms, run_id)"],
];

/** The 0014_queue_indexes migration (the same SQL on both dialects). */
export const queueIndexesMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const [name, definition] of INDEXES) {
      await sql`create index ${sql.id(name)} on ${sql.raw(definition)}`.execute(db);
    }
    // Replaced: `tool_calls_live_by_deadline` serves the deadline sweep (and SQLite without statistics
    // took this one for the candidates: a range of one status by deadline, then a sort of the queue);
    // `model_turns_queue` serves the turn scan (this one made it read every queued turn and sort).
    await sql`drop index if exists tool_calls_status_deadline`.execute(db);
    await sql`drop index if exists model_turns_lease`.execute(db);
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await sql`create index model_turns_lease on model_turns (lease_expires_ms, created_at_ms)`.execute(db);
    await sql`create index tool_calls_status_deadline on tool_calls (status, deadline_ms)`.execute(db);
    for (const [name] of [...INDEXES].reverse()) await sql`drop index if exists ${sql.id(name)}`.execute(db);
  },
};
