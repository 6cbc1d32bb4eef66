/**
 * A run's execution history in `execution_history`: append-only. Each item is compact JSON text,
 * written once and read back byte for byte; `runs.history_length` is the next item's `seq`. An append
 * is one statement (`history-append.ts`).
 */

import { decodeNumberCursor, encodeNumberCursor, pageOf } from "../page-cursor.js";
import type { HistoryItemRecord, Page, PageRequest } from "../records.js";
import type { HistoryStore } from "../storage.js";
import type { StoreContext } from "../store-context.js";
import { appendOnPostgres, appendOnSqlite } from "./history-append.js";

const LIST = "history";
const COLUMNS = ["run_id", "seq", "item_json", "created_at_ms"] as const;

/** The HistoryStore over Kysely (both dialects). */
export class KyselyHistoryStore implements HistoryStore {
  constructor(private readonly ctx: StoreContext) {}

  /**
   * One statement on both dialects (on the way of every run creation and settled call); atomic by
   * itself, and the new items number on from `runs.history_length`.
   */
  async append(runId: string, itemsJson: readonly string[], atMs: number): Promise<number[]> {
    if (itemsJson.length === 0) return [];
    const count = itemsJson.length;
    const { rows } = await this.ctx.write((db) =>
      this.ctx.dialect === "postgres"
        ? appendOnPostgres(db, { runId, itemsJson, atMs })
        : appendOnSqlite(db, { runId, itemsJson, atMs }),
    );
    if (rows.length !== count) throw new Error(`history of a missing run ${runId}`);
    return rows.map((row) => Number(row.seq)).sort((a, b) => a - b);
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
