/**
 * Appending items to a run's history in one statement, numbered on from `runs.history_length`:
 *
 * - PostgreSQL: a data-modifying CTE bumps the length and inserts the items. The bump takes the run's
 *   row lock, so concurrent appends get distinct, consecutive seqs.
 * - SQLite: one INSERT … SELECT reads the length; the trigger of migration 0010 bumps it per row.
 *   SQLite runs a row trigger's INSERT … SELECT from a materialised copy of the SELECT, so every item
 *   numbers from the length before the statement; the single writer orders concurrent appends.
 *
 * A missing run inserts nothing (the SELECT joins it): the caller sees fewer seqs than items.
 *
 * Items that settle the turn their run waited for mark it ready for the turn engine
 * (`runs.ready_at_ms`): on PostgreSQL in the same UPDATE that bumps the length, on SQLite by one
 * more UPDATE (`markReadyOnSqlite`).
 */

import { sql } from "kysely";
import { compilableSql, ReusableQuery, ShapedReusableQuery } from "../engine/reusable-query.js";
import type { Db } from "../engine/store-context.js";
import { GUARD_MARKER } from "../stored-state-changed.js";

/** One item to append: compact JSON, and when it was appended. */
export interface NewHistoryItem {
  readonly item_json: string;
  readonly created_at_ms: number;
}

/** What one append writes. */
export interface HistoryAppend {
  readonly runId: string;
  /** The items, in order. */
  readonly items: readonly NewHistoryItem[];
  /** When the items settled the turn the run waited for (it becomes ready for the engine), else undefined. */
  readonly readyAtMs?: number | undefined;
}

/** The seqs given to the inserted items, in any order. */
type Appended = Promise<{ rows: { seq: number | string }[] }>;

/** What a PostgreSQL append at a length that moved fails with (stored-state-changed.ts). */
const HISTORY_GREW = ` items stored, not the length read (${GUARD_MARKER}: the history grew while its lock was held)`;

// Every append is one of these statements, compiled once (reusable-query.ts); SQLite's per item count.
/**
 * PostgreSQL's append: one statement text whether or not the items make the run ready (a null keeps the
 * mark as it is) and whether or not it checks the length. With `expected` (the length read under the
 * run's lock), it is sent with COMMIT without waiting for its answer (`send`; history-store.ts), so the
 * check that no one else appended meanwhile is made by the statement itself — a run whose length moved
 * fails it (a cast that cannot succeed, reached only then; it names a column, so the planner cannot fold
 * it ahead of time), and the transaction rolls back with a StoredStateChangedError (stored-state-changed.ts).
 */
const POSTGRES_APPEND = new ReusableQuery(
  (
    db,
    count: number,
    readyAtMs: number | null,
    runId: string,
    expected: number | null,
    texts: readonly string[],
    times: readonly number[],
  ) =>
    compilableSql(
      db,
      sql<{ seq: number }>`
    with bumped as (
      update runs set history_length = history_length + ${count}::integer,
        ready_at_ms = coalesce(ready_at_ms, ${readyAtMs}::bigint)
      where run_id = ${runId}::text
      returning history_length - ${count}::integer as stored
    )
    insert into execution_history (run_id, seq, item_json, created_at_ms)
    select ${runId}::text,
      case when ${expected}::integer is null or bumped.stored = ${expected}::integer
        then bumped.stored + (item.n - 1)::integer
        else cast(bumped.stored || ${sql.lit(HISTORY_GREW)} as integer)
      end,
      item.item_json, item.at_ms
    from bumped, unnest(${texts}::text[], ${times}::bigint[]) with ordinality as item(item_json, at_ms, n)
    returning seq`,
    ),
);

/** PostgreSQL's append at the length `expected`, which fails when the run's length is another (see above). */
export function appendAtOnPostgres(
  db: Db,
  { runId, items, readyAtMs }: HistoryAppend,
  expected: number,
): Promise<void> {
  const texts = items.map((item) => item.item_json);
  const times = items.map((item) => item.created_at_ms);
  // For its effect only: inside the transaction it is not waited for (ReusableQuery.send).
  return POSTGRES_APPEND.send("postgres", db, items.length, readyAtMs ?? null, runId, expected, texts, times);
}

/** Appends of 1 to 64 items keep their form compiled; a longer one is compiled each time. */
const SQLITE_APPEND = new ShapedReusableQuery(64, (db, count: number, values) => {
  // values: each item's JSON and time, then the run's ID.
  const rows = sql.join(
    Array.from(
      { length: count },
      (_, index) => sql`(${sql.lit(index)}, ${values[2 * index]}, ${values[2 * index + 1]})`,
    ),
  );
  return compilableSql(
    db,
    sql<{ seq: number }>`
    insert into execution_history (run_id, seq, item_json, created_at_ms)
    select r.run_id, r.history_length + item.column1, item.column2, item.column3
    from runs as r, (values ${rows}) as item
    where r.run_id = ${values[2 * count]}
    order by item.column1
    returning seq`,
  );
});

/** PostgreSQL's append. */
export function appendOnPostgres(db: Db, { runId, items, readyAtMs }: HistoryAppend): Appended {
  const texts = items.map((item) => item.item_json);
  const times = items.map((item) => item.created_at_ms);
  return POSTGRES_APPEND.execute("postgres", db, items.length, readyAtMs ?? null, runId, null, texts, times);
}

/** SQLite's append (the trigger keeps `runs.history_length`). */
export function appendOnSqlite(db: Db, { runId, items }: HistoryAppend): Appended {
  const values: unknown[] = items.flatMap((item) => [item.item_json, item.created_at_ms]);
  values.push(runId);
  return SQLITE_APPEND.execute("sqlite", db, items.length, values);
}

const MARK_READY = new ReusableQuery((db, runId: string, readyAtMs: number) =>
  db.updateTable("runs").set({ ready_at_ms: readyAtMs }).where("run_id", "=", runId).where("ready_at_ms", "is", null),
);

/** SQLite's ready mark after an append whose items settled the run's turn (kept when marked already). */
export async function markReadyOnSqlite(db: Db, runId: string, readyAtMs: number): Promise<void> {
  await MARK_READY.execute("sqlite", db, runId, readyAtMs);
}
