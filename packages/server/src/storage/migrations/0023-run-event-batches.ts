/**
 * 0023_run_event_batches: the small events one commit appends to a run share one `run_events` row of
 * kind `batch` keyed by its last event's `seq` (`runs/run-event-batch.ts`, docs/storage.md#run-events).
 * No column changes and rows written before stay as they are, so `up` has nothing to do; `down` puts
 * every batched event back in a row of its own, as code before it reads them.
 */

import { type Kysely, type Migration, sql } from "kysely";
import { BATCH_KIND, readBatch } from "../runs/run-event-batch.js";

/** Batch rows expanded per statement on the way down. */
const DOWN_PAGE = 500;

/** The 0023_run_event_batches migration (the same on both dialects). */
export const runEventBatchesMigration: Migration = {
  async up(): Promise<void> {},

  async down(db: Kysely<unknown>): Promise<void> {
    for (;;) {
      const { rows } = await sql<{ run_id: string; seq: number; data_json: string; created_at_ms: number }>`
        select run_id, seq, data_json, created_at_ms from run_events where kind = ${BATCH_KIND}
        order by run_id, seq limit ${DOWN_PAGE}`.execute(db);
      if (rows.length === 0) return;
      for (const row of rows) {
        await sql`delete from run_events where run_id = ${row.run_id} and seq = ${row.seq}`.execute(db);
        for (const event of readBatch(row.data_json, Number(row.seq), Number(row.created_at_ms))) {
          const historySeq = event.kind === "history.item" ? event.history_seq : null;
          const refId = event.kind === "history.item" ? null : event.ref_id;
          const data = event.kind === "history.item" ? null : event.snapshot_json;
          await sql`insert into run_events (run_id, seq, kind, data_json, history_seq, created_at_ms, ref_id)
            values (${row.run_id}, ${event.seq}, ${event.kind}, ${data}, ${historySeq}, ${event.created_at_ms}, ${refId})`.execute(
            db,
          );
        }
      }
    }
  },
};
