/**
 * Receipts in `receipts`: each one's body exactly as received (`body_text`) and the first answer given
 * (`answer_json`). The primary key (call_id, claim_id, receipt_id) (0004) makes a receipt ID count
 * once per claim: a later claim on the same call can never collide with, or take over, an earlier
 * claim's receipt IDs. `seq` still numbers a call's receipts in arrival order. A `completed`
 * receipt whose result text the run's history holds already is stored without it and put back
 * together when read (`result_seq` … , 0017), so the result is stored once. A body that opens with
 * the usual envelope (executor, claim, grant, receipt ID, kind; or the runners' order, receipt ID
 * first) is stored without it, the grant's bytes in `body_grant`, and rebuilt when read (0022, receipt-envelope.ts).
 */

import { isReceiptKind } from "@toolhost/protocol";
import type { Selectable } from "kysely";
import type { ReceiptsTable } from "../database-schema.js";
import { ReusableQuery } from "../engine/reusable-query.js";
import type { Db, StoreContext } from "../engine/store-context.js";
import type { ReceiptFacts, ReceiptRecord } from "../records.js";
import type { ReceiptStore } from "./contract.js";
import { insertNextReceipt, type NewReceipt } from "./insert-receipt-query.js";
import { digestOfStored } from "./receipt-digest.js";
import { wholeStoredBody } from "./receipt-envelope.js";

/** The receipt's columns, its body's result text put back from the history item it names. */
function withHistoryItem(db: Db) {
  return db
    .selectFrom("receipts as r")
    .leftJoin("execution_history as h", (join) =>
      join.onRef("h.run_id", "=", "r.run_id").onRef("h.seq", "=", "r.result_seq"),
    )
    .selectAll("r")
    .select("h.item_json as result_item_json");
}

// Compiled once (reusable-query.ts); storing a receipt is `insert-receipt-query.ts`.
const GET = new ReusableQuery((db, callId: string, claimId: string, receiptId: string) =>
  withHistoryItem(db)
    .where("r.call_id", "=", callId)
    .where("r.claim_id", "=", claimId)
    .where("r.receipt_id", "=", receiptId),
);

/** The ReceiptStore over Kysely (both dialects). */
export class KyselyReceiptStore implements ReceiptStore {
  constructor(private readonly ctx: StoreContext) {}

  async insertNext(receipt: NewReceipt): Promise<void> {
    return this.ctx.write((db) => insertNextReceipt(this.ctx.dialect, db, receipt));
  }

  async get(callId: string, claimId: string, receiptId: string): Promise<ReceiptRecord | undefined> {
    const row = await this.ctx.read((db) => GET.takeFirst(this.ctx.dialect, db, callId, claimId, receiptId));
    return row === undefined ? undefined : receiptFromRow(row);
  }

  async listByCall(callId: string): Promise<ReceiptRecord[]> {
    return this.ctx.read(async (db) => {
      const rows = await withHistoryItem(db).where("r.call_id", "=", callId).orderBy("r.seq").execute();
      return rows.map(receiptFromRow);
    });
  }
}

/** A stored receipt row, with the history item its result text is in (when it names one). */
type ReceiptRow = Selectable<ReceiptsTable> & { result_item_json: string | null };

/** The record of a stored receipt row without its body (the columns a decision reads). */
export function receiptFactsFromRow(row: Omit<Selectable<ReceiptsTable>, "body_text" | "body_grant">): ReceiptFacts {
  const { kind, result_seq: _seq, result_at: _at, result_from: _from, result_length: _length, ...rest } = row;
  if (!isReceiptKind(kind))
    throw new Error(`stored receipt ${row.receipt_id} has an unknown kind ${JSON.stringify(kind)}`);
  return { ...rest, kind, body_digest: digestOfStored(row.body_digest), applied: row.applied === 1 };
}

/** The record of a stored receipt row: its body exactly as received, the result text put back. */
function receiptFromRow(row: ReceiptRow): ReceiptRecord {
  const { body_text, body_grant, result_item_json, ...rest } = row;
  return { ...receiptFactsFromRow(rest), body_text: wholeBody(row) };
}

/**
 * The body as received: the stored text, with the result text from the history item put back, then
 * the envelope (receipt-envelope.ts).
 */
function wholeBody(row: ReceiptRow): string {
  const { body_text: body, result_seq: seq, result_at: at, result_from: from, result_length: length } = row;
  const grant = row.body_grant;
  if (seq === null) return wholeStoredBody(body, grant, row);
  const item = row.result_item_json;
  if (item === null || at === null || from === null || length === null)
    throw new Error(`stored receipt ${row.receipt_id}: its result's history item ${seq} is not stored`);
  const text = item.slice(Number(from), Number(from) + Number(length));
  return wholeStoredBody(body, grant, row, { at: Number(at), text });
}
