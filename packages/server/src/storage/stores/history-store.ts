/**
 * A run's execution history in `execution_history`: append-only. Each item is compact JSON text,
 * written once and read back byte for byte; `runs.history_length` is the next item's `seq`.
 */

import { sql } from "kysely";
import { decodeNumberCursor, encodeNumberCursor, pageOf } from "../page-cursor.js";
import type { HistoryItemRecord, Page, PageRequest } from "../records.js";
import { ReusableQuery } from "../reusable-query.js";
import type { HistoryStore } from "../storage.js";
import type { StoreContext } from "../store-context.js";

const LIST = "history";
const COLUMNS = ["run_id", "seq", "item_json", "created_at_ms"] as const;

// Every model turn and settled call appends: the two statements are compiled once (reusable-query.ts).
const BUMP_LENGTH = new ReusableQuery((db, count: number, runId: string) =>
  db
    .updateTable("runs")
    .set((eb) => ({ history_length: eb("history_length", "+", count) }))
    .where("run_id", "=", runId)
    .returning("history_length"),
);
const INSERT_ONE = new ReusableQuery((db, runId: string, seq: number, itemJson: string, atMs: number) =>
  db.insertInto("execution_history").values([{ run_id: runId, seq, item_json: itemJson, created_at_ms: atMs }]),
);

/** The HistoryStore over Kysely (both dialects). */
export class KyselyHistoryStore implements HistoryStore {
  constructor(private readonly ctx: StoreContext) {}

  async append(runId: string, itemsJson: readonly string[], atMs: number): Promise<number[]> {
    if (itemsJson.length === 0) return [];
    const dialect = this.ctx.dialect;
    if (dialect === "postgres") return this.appendInOneStatement(runId, itemsJson, atMs);
    return this.ctx.atomic(async (db) => {
      // Bumping the length takes the run's row lock (PostgreSQL) or runs under the write lock
      // (SQLite), so concurrent appends get distinct, consecutive seqs.
      const bumped = await BUMP_LENGTH.takeFirst(dialect, db, itemsJson.length, runId);
      if (bumped === undefined) throw new Error(`history of a missing run ${runId}`);
      const first = bumped.history_length - itemsJson.length;
      const rows = itemsJson.map((item_json, index) => ({
        run_id: runId,
        seq: first + index,
        item_json,
        created_at_ms: atMs,
      }));
      const [row, ...more] = rows;
      if (row !== undefined && more.length === 0) {
        await INSERT_ONE.execute(dialect, db, row.run_id, row.seq, row.item_json, row.created_at_ms);
      } else {
        await db.insertInto("execution_history").values(rows).execute();
      }
      return rows.map((row) => row.seq);
    });
  }

  /**
   * PostgreSQL: the bump and the inserts as one statement (a data-modifying CTE), one round trip
   * instead of two on the way of every run creation and settled call. Atomic by itself; the bump
   * takes the run's row lock as the two-statement form does.
   */
  private async appendInOneStatement(runId: string, itemsJson: readonly string[], atMs: number): Promise<number[]> {
    const count = itemsJson.length;
    const { rows } = await this.ctx.write((db) =>
      sql<{ seq: number }>`
        with bumped as (
          update runs set history_length = history_length + ${count}::integer
          where run_id = ${runId}::text
          returning history_length
        )
        insert into execution_history (run_id, seq, item_json, created_at_ms)
        select ${runId}::text, bumped.history_length - ${count}::integer + (item.n - 1)::integer, item.item_json, ${atMs}::bigint
        from bumped, unnest(${[...itemsJson]}::text[]) with ordinality as item(item_json, n)
        returning seq`.execute(db),
    );
    if (rows.length !== count) throw new Error(`history of a missing run ${runId}`);
    return rows.map((row) => row.seq).sort((a, b) => a - b);
  }

  async list(runId: string, page: PageRequest): Promise<Page<HistoryItemRecord>> {
    const after = decodeNumberCursor(LIST, page.cursor);
    return this.ctx.read(async (db) => {
      let query = db
        .selectFrom("execution_history")
        .select(COLUMNS)
        .where("run_id", "=", runId)
        .orderBy("seq")
        .limit(page.limit + 1);
      if (after !== undefined) query = query.where("seq", ">", after);
      const rows = await query.execute();
      return pageOf(rows, page.limit, (last) => encodeNumberCursor(LIST, last.seq));
    });
  }
}
