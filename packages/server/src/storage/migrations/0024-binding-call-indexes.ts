/**
 * 0024_binding_call_indexes: `tool_calls_binding_status` held an entry for every version of every call
 * of a binding — about 210 bytes per completed call on PostgreSQL (one per status it passed through)
 * — though what reads it only wants the calls still live, or the latest completed one. Two partial
 * indexes replace it:
 *
 * - `tool_calls_live_by_binding`: the unsettled calls per binding and status, in creation order (the
 *   candidates' lapsed claims, a binding's diagnostics counts); a call leaves it when it settles;
 * - `tool_calls_completed_by_binding`: completed calls per binding by settling time (the diagnostics'
 *   latest verified execution reads it backwards and stops at the first of the agent's).
 *
 * Their predicates are spelled in the queries with the same literals (`status-literals.ts`). The
 * same SQL on both dialects.
 */

import { type Kysely, type Migration, sql } from "kysely";

/** The statuses of a call not settled yet, as the live index lists them. */
export const LIVE_BY_BINDING_STATUSES = ["pending", "claimed", "accepted", "reconciliation_required"] as const;

const INDEXES: ReadonlyArray<readonly [name: string, definition: string]> = [
  [
    "tool_calls_live_by_binding",
    `tool_calls (binding_id, status, created_at_ms, call_id) where status in (${LIVE_BY_BINDING_STATUSES.map((status) => `'${status}'`).join(", ")})`,
  ],
  ["tool_calls_completed_by_binding", "tool_calls (binding_id, settled_at_ms, call_id) where status = 'completed'"],
];

/** The 0024_binding_call_indexes migration. */
export const bindingCallIndexesMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const [name, definition] of INDEXES) {
      await sql`create index ${sql.id(name)} on ${sql.raw(definition)}`.execute(db);
    }
    await sql`drop index if exists tool_calls_binding_status`.execute(db);
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await sql`create index tool_calls_binding_status on tool_calls (binding_id, status, created_at_ms, call_id)`.execute(
      db,
    );
    for (const [name] of [...INDEXES].reverse()) await sql`drop index if exists ${sql.id(name)}`.execute(db);
  },
};
