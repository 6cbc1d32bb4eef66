/**
 * Receipts in `receipts`: each one's body exactly as received (`body_text`) and the first answer given
 * (`answer_json`). The primary key (call_id, claim_id, receipt_id) (0004) makes a receipt ID count
 * once per claim: a later claim on the same call can never collide with, or take over, an earlier
 * claim's receipt IDs. `seq` still numbers a call's receipts in arrival order.
 */

import { isReceiptKind } from "@toolhost/protocol";
import type { Selectable } from "kysely";
import type { ReceiptsTable } from "../database-schema.js";
import type { ReceiptRecord } from "../records.js";
import { ReusableQuery } from "../reusable-query.js";
import type { ReceiptStore } from "../storage.js";
import type { StoreContext } from "../store-context.js";
import { insertNextReceipt, type NewReceipt } from "./insert-receipt-query.js";

// Compiled once (reusable-query.ts); storing a receipt is `insert-receipt-query.ts`.
const GET = new ReusableQuery((db, callId: string, claimId: string, receiptId: string) =>
  db
    .selectFrom("receipts")
    .selectAll()
    .where("call_id", "=", callId)
    .where("claim_id", "=", claimId)
    .where("receipt_id", "=", receiptId),
);

/** The ReceiptStore over Kysely (both dialects). */
export class KyselyReceiptStore implements ReceiptStore {
  constructor(private readonly ctx: StoreContext) {}

  async insertNext(receipt: NewReceipt): Promise<boolean> {
    return this.ctx.write((db) => insertNextReceipt(this.ctx.dialect, db, receipt));
  }

  async get(callId: string, claimId: string, receiptId: string): Promise<ReceiptRecord | undefined> {
    const row = await this.ctx.read((db) => GET.takeFirst(this.ctx.dialect, db, callId, claimId, receiptId));
    return row === undefined ? undefined : receiptFromRow(row);
  }

  async listByCall(callId: string): Promise<ReceiptRecord[]> {
    return this.ctx.read(async (db) => {
      const rows = await db.selectFrom("receipts").selectAll().where("call_id", "=", callId).orderBy("seq").execute();
      return rows.map(receiptFromRow);
    });
  }
}

/** The record of a stored receipt row. */
export function receiptFromRow(row: Selectable<ReceiptsTable>): ReceiptRecord {
  const { kind } = row;
  if (!isReceiptKind(kind))
    throw new Error(`stored receipt ${row.receipt_id} has an unknown kind ${JSON.stringify(kind)}`);
  return { ...row, kind, applied: row.applied === 1 };
}
