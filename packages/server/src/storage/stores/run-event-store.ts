/**
 * The run event streams (`run_events`): append-only, `seq` 1, 2, … per run. Appends happen under the
 * run's lock (every flow that changes a run takes it first), so reading the last `seq` and inserting
 * after it never races; the primary key (run_id, seq) would refuse a duplicate anyway. A
 * `history.item` event stores only its item's `seq`: the item text is joined in when read, not copied.
 */

import type { NewRunEvent, RunEventKind, RunEventRecord } from "../records.js";
import type { RunEventStore } from "../storage.js";
import type { StoreContext } from "../store-context.js";

/** The RunEventStore over Kysely (both dialects). */
export class KyselyRunEventStore implements RunEventStore {
  constructor(private readonly ctx: StoreContext) {}

  async append(runId: string, events: readonly NewRunEvent[], atMs: number): Promise<number[]> {
    if (events.length === 0) return [];
    return this.ctx.atomic(async (db) => {
      const last = await db
        .selectFrom("run_events")
        .select((eb) => eb.fn.max("seq").as("seq"))
        .where("run_id", "=", runId)
        .executeTakeFirst();
      const first = Number(last?.seq ?? 0) + 1;
      const rows = events.map((event, index) => ({
        run_id: runId,
        seq: first + index,
        kind: event.kind,
        data_json: "data_json" in event ? event.data_json : null,
        history_seq: "history_seq" in event ? event.history_seq : null,
        created_at_ms: atMs,
      }));
      await db.insertInto("run_events").values(rows).execute();
      return rows.map((row) => row.seq);
    });
  }

  async listAfter(runId: string, afterSeq: number, limit: number): Promise<RunEventRecord[]> {
    const rows = await this.ctx.read((db) =>
      db
        .selectFrom("run_events as e")
        .leftJoin("execution_history as h", (join) =>
          join.onRef("h.run_id", "=", "e.run_id").onRef("h.seq", "=", "e.history_seq"),
        )
        .select(["e.run_id", "e.seq", "e.kind", "e.data_json", "e.history_seq", "e.created_at_ms", "h.item_json"])
        .where("e.run_id", "=", runId)
        .where("e.seq", ">", afterSeq)
        .orderBy("e.seq")
        .limit(limit)
        .execute(),
    );
    return rows.map((row) => ({
      run_id: row.run_id,
      seq: Number(row.seq),
      kind: row.kind as RunEventKind,
      data_json:
        row.data_json ??
        // The item's stored text goes in verbatim, as the history route serves it.
        `{"seq":${row.history_seq},"item":${row.item_json ?? "null"}}`,
      created_at_ms: row.created_at_ms,
    }));
  }
}
