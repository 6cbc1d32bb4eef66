/**
 * The run event streams (`run_events`): append-only, `seq` 1, 2, … per run. Appends happen under the
 * run's lock (every flow that changes a run takes it first), so reading the last `seq` and inserting
 * after it never races; the primary key (run_id, seq) would refuse a duplicate anyway. A
 * `history.item` event stores only its item's `seq`: the item text is joined in when read, not copied.
 */

import { sql } from "kysely";
import type { NewRunEvent, RunEventKind, RunEventRecord } from "../records.js";
import type { RunEventStore } from "../storage.js";
import type { Db, StoreContext } from "../store-context.js";

/** Events of one run waiting for the transaction's commit. */
interface Deferred {
  runId: string;
  events: NewRunEvent[];
  atMs: number[];
}

/** The RunEventStore over Kysely (both dialects). */
export class KyselyRunEventStore implements RunEventStore {
  /** Events deferred to this transaction's commit, per run in first-append order. */
  #deferred: Deferred[] | undefined;

  constructor(private readonly ctx: StoreContext) {}

  async append(runId: string, events: readonly NewRunEvent[], atMs: number): Promise<number[]> {
    if (events.length === 0) return [];
    return this.ctx.write((db) =>
      insertEvents(
        db,
        runId,
        events,
        events.map(() => atMs),
      ),
    );
  }

  async appendAtCommit(runId: string, events: readonly NewRunEvent[], atMs: number): Promise<void> {
    if (events.length === 0) return;
    const hooks = this.ctx.commitHooks;
    if (hooks === undefined) {
      await this.append(runId, events, atMs);
      return;
    }
    if (this.#deferred === undefined) {
      const deferred: Deferred[] = [];
      this.#deferred = deferred;
      hooks.add(async (db) => {
        this.#deferred = undefined;
        for (const run of deferred) await insertEvents(db, run.runId, run.events, run.atMs);
      });
    }
    hooks.eventsAppended(runId);
    let run = this.#deferred.find((entry) => entry.runId === runId);
    if (run === undefined) {
      run = { runId, events: [], atMs: [] };
      this.#deferred.push(run);
    }
    for (const event of events) {
      run.events.push(event);
      run.atMs.push(atMs);
    }
  }

  async listAfter(
    runId: string,
    afterSeq: number,
    limit: number,
    maxDataBytes = Number.MAX_SAFE_INTEGER,
  ): Promise<RunEventRecord[]> {
    const rows = await this.ctx.read((db) =>
      db
        .selectFrom("run_events as e")
        .leftJoin("execution_history as h", (join) =>
          join.onRef("h.run_id", "=", "e.run_id").onRef("h.seq", "=", "e.history_seq"),
        )
        .select(["e.run_id", "e.seq", "e.kind", "e.history_seq", "e.created_at_ms"])
        // octet_length reads a text's size without its bytes (PostgreSQL: from the TOAST header), so
        // an oversized item is never loaded; the stream sends a reference to it instead.
        .select(sql<number>`octet_length(coalesce(e.data_json, h.item_json, 'null'))`.as("data_bytes"))
        .select(
          sql<
            string | null
          >`case when octet_length(coalesce(e.data_json, h.item_json, 'null')) <= cast(${maxDataBytes} as bigint) then e.data_json end`.as(
            "data_json",
          ),
        )
        .select(
          sql<
            string | null
          >`case when octet_length(coalesce(e.data_json, h.item_json, 'null')) <= cast(${maxDataBytes} as bigint) then h.item_json end`.as(
            "item_json",
          ),
        )
        .where("e.run_id", "=", runId)
        .where("e.seq", ">", afterSeq)
        .orderBy("e.seq")
        .limit(limit)
        .execute(),
    );
    return rows.map((row) => {
      const bytes = Number(row.data_bytes);
      const history = row.history_seq === null ? null : Number(row.history_seq);
      const fits = bytes <= maxDataBytes;
      return {
        run_id: row.run_id,
        seq: Number(row.seq),
        kind: row.kind as RunEventKind,
        data_json: !fits
          ? null
          : (row.data_json ??
            // The item's stored text goes in verbatim, as the history route serves it.
            `{"seq":${history},"item":${row.item_json ?? "null"}}`),
        data_bytes: bytes,
        history_seq: history,
        created_at_ms: row.created_at_ms,
      };
    });
  }
}

/**
 * Appends `events` (event i made at `atMs[i]`) after the run's last one in ONE statement: the next
 * seq is read inside the INSERT. VALUES columns are named column1… on both dialects; the casts type
 * them for PostgreSQL.
 */
async function insertEvents(
  db: Db,
  runId: string,
  events: readonly NewRunEvent[],
  atMs: readonly number[],
): Promise<number[]> {
  const rows = sql.join(
    events.map(
      (event, index) =>
        sql`(cast(${index + 1} as integer), cast(${event.kind} as text), cast(${"data_json" in event ? event.data_json : null} as text), cast(${"history_seq" in event ? event.history_seq : null} as integer), cast(${atMs[index]} as bigint))`,
    ),
  );
  const { rows: inserted } = await sql<{ seq: number }>`
    insert into run_events (run_id, seq, kind, data_json, history_seq, created_at_ms)
    select cast(${runId} as text), last.seq + e.column1, e.column2, e.column3, e.column4, e.column5
    from (select coalesce(max(seq), 0) as seq from run_events where run_id = ${runId}) as last,
      (values ${rows}) as e
    returning seq`.execute(db);
  return inserted.map((row) => Number(row.seq)).sort((a, b) => a - b);
}
