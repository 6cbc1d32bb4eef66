/**
 * Tool calls in `tool_calls`: creation, reads, and the status changes a run makes to its calls (run
 * end, business cancel). Each change is one conditional UPDATE whose WHERE holds the statuses it moves
 * from, read from the protocol's call transition table, so it never races a claim or a receipt.
 * (Claims and receipts live in call-claim-store.ts, pending candidates in pending-call-store.ts.)
 */

import { CALL_STATUSES, type CallStatus, FINAL_CALL_STATUSES } from "@toolhost/protocol";
import type { Insertable } from "kysely";
import type { ToolCallsTable } from "../database-schema.js";
import { definedColumns, ReusableQuery, ShapedReusableQuery } from "../engine/reusable-query.js";
import type { StoreContext } from "../engine/store-context.js";
import { decodeCreatedCursor, encodeCreatedCursor, pageOf } from "../page-cursor.js";
import type { CallRecord, Page, PageRequest } from "../records.js";
import { CALL_COLUMNS, callFromRow } from "./call-row.js";
import { CANCEL_UNCLAIMED_EDGES, RUN_ENDED_EDGES, type StoreCallMoves } from "./call-statuses.js";
import type { CallStore } from "./contract.js";

const LIST = "tool_calls";

const RUN_ENDED = RUN_ENDED_EDGES;
const CANCEL_UNCLAIMED = CANCEL_UNCLAIMED_EDGES;

/** The table's paths each statement of this store takes (a test walks them); a cancel request moves nothing. */
export const CALL_STORE_MOVES: StoreCallMoves<"cancelForRunEnd" | "cancelUnclaimed" | "requestCancel"> = {
  cancelForRunEnd: [[RUN_ENDED.event]],
  cancelUnclaimed: [[CANCEL_UNCLAIMED.event]],
  requestCancel: [],
};

/** Statuses in which an executor holds the call: a business cancel is a request to it. */
const HELD: CallStatus[] = Object.values(CALL_STATUSES).filter(
  (status) => !FINAL_CALL_STATUSES.has(status) && !CANCEL_UNCLAIMED.from.includes(status),
);

// Every settled call of a turn lists the turn's calls: compiled once (reusable-query.ts).
const LIST_BY_TURN = new ReusableQuery((db, runId: string, turn: number) =>
  db
    .selectFrom("tool_calls")
    .select(CALL_COLUMNS)
    .where("run_id", "=", runId)
    .where("turn", "=", turn)
    .where("compensates", "is", null)
    .orderBy("position"),
);

/**
 * A turn's calls go in as one INSERT: compiled once per form (how many rows, which columns each
 * defines; reusable-query.ts), at most 32 forms.
 */
const INSERT_MANY = new ShapedReusableQuery(32, (db, rows: readonly (keyof ToolCallsTable)[][], values) => {
  let next = 0;
  // The values are the records' own columns (definedColumns), so the cast restates their types.
  const objects = rows.map(
    (columns) => Object.fromEntries(columns.map((column) => [column, values[next++]])) as Insertable<ToolCallsTable>,
  );
  return db.insertInto("tool_calls").values(objects);
});

/** The CallStore over Kysely (both dialects). */
export class KyselyCallStore implements CallStore {
  constructor(private readonly ctx: StoreContext) {}

  async insertMany(calls: readonly CallRecord[]): Promise<void> {
    if (calls.length === 0) return;
    const forms = calls.map((call) => definedColumns(call, CALL_COLUMNS));
    const rows = forms.map((form) => form.names);
    const values = forms.flatMap((form) => form.values);
    // Nothing is read back: inside a PostgreSQL transaction it goes out with the next statement.
    await this.ctx.write((db) => INSERT_MANY.send(this.ctx.dialect, db, rows, values));
  }

  async get(runId: string, callId: string): Promise<CallRecord | undefined> {
    const row = await this.ctx.read((db) =>
      db
        .selectFrom("tool_calls")
        .select(CALL_COLUMNS)
        .where("call_id", "=", callId)
        .where("run_id", "=", runId)
        .executeTakeFirst(),
    );
    return row === undefined ? undefined : callFromRow(row);
  }

  async listByRun(runId: string, page: PageRequest): Promise<Page<CallRecord>> {
    const after = decodeCreatedCursor(LIST, page.cursor);
    return this.ctx.read(async (db) => {
      let query = db
        .selectFrom("tool_calls")
        .select(CALL_COLUMNS)
        .where("run_id", "=", runId)
        .orderBy("created_at_ms")
        .orderBy("call_id")
        .limit(page.limit + 1);
      if (after !== undefined) {
        query = query.where((eb) => eb(eb.refTuple("created_at_ms", "call_id"), ">", eb.tuple(after.at, after.id)));
      }
      const rows = await query.execute();
      return pageOf(rows.map(callFromRow), page.limit, (last) =>
        encodeCreatedCursor(LIST, { at: last.created_at_ms, id: last.call_id }),
      );
    });
  }

  async listByTurn(runId: string, turn: number): Promise<CallRecord[]> {
    const result = await this.ctx.read((db) => LIST_BY_TURN.execute(this.ctx.dialect, db, runId, turn));
    return result.rows.map(callFromRow);
  }

  async cancelForRunEnd(runId: string, atMs: number): Promise<CallRecord[]> {
    const rows = await this.ctx.write((db) =>
      db
        .updateTable("tool_calls")
        .set({ status: RUN_ENDED.to, settled_at_ms: atMs, updated_at_ms: atMs })
        .where("run_id", "=", runId)
        .where("status", "in", RUN_ENDED.from)
        // The run's end reaches only the calls it freezes (`runFreezesCall`): never a compensation call.
        .where("compensates", "is", null)
        .returning(CALL_COLUMNS)
        .execute(),
    );
    return rows.map(callFromRow).sort((a, b) => a.turn - b.turn || a.position - b.position);
  }

  async cancelUnclaimed(runId: string, callId: string, atMs: number): Promise<CallRecord | undefined> {
    const row = await this.ctx.write((db) =>
      db
        .updateTable("tool_calls")
        .set({ status: CANCEL_UNCLAIMED.to, cancel_requested_at_ms: atMs, settled_at_ms: atMs, updated_at_ms: atMs })
        .where("call_id", "=", callId)
        .where("run_id", "=", runId)
        .where("status", "in", CANCEL_UNCLAIMED.from)
        .returning(CALL_COLUMNS)
        .executeTakeFirst(),
    );
    return row === undefined ? undefined : callFromRow(row);
  }

  async requestCancel(runId: string, callId: string, atMs: number): Promise<CallRecord | undefined> {
    const row = await this.ctx.write((db) =>
      db
        .updateTable("tool_calls")
        // The first request time stays: asking again changes nothing the executor sees.
        .set((eb) => ({
          cancel_requested_at_ms: eb.fn.coalesce("cancel_requested_at_ms", eb.val(atMs)),
          updated_at_ms: atMs,
        }))
        .where("call_id", "=", callId)
        .where("run_id", "=", runId)
        .where("status", "in", HELD)
        .returning(CALL_COLUMNS)
        .executeTakeFirst(),
    );
    return row === undefined ? undefined : callFromRow(row);
  }
}
