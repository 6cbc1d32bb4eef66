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
const INSERT = new ReusableQuery(
  (
    db,
    call_id: string,
    receipt_id: string,
    seq: number,
    run_id: string,
    kind: string,
    executor_id: string,
    claim_id: string,
    body_text: string,
    body_digest: string,
    answer_json: string,
    applied: number,
    created_at_ms: number,
  ) =>
    db
      .insertInto("receipts")
      .values({
        call_id,
        receipt_id,
        seq,
        run_id,
        kind,
        executor_id,
        claim_id,
        body_text,
        body_digest,
        answer_json,
        applied,
        created_at_ms,
      })
      .onConflict((conflict) => conflict.columns(["call_id", "claim_id", "receipt_id"]).doNothing()),
);
const GET = new ReusableQuery((db, callId: string, claimId: string, receiptId: string) =>
  db
    .selectFrom("receipts")
    .selectAll()
    .where("call_id", "=", callId)
    .where("claim_id", "=", claimId)
    .where("receipt_id", "=", receiptId),
);
const LAST_SEQ = new ReusableQuery((db, callId: string) =>
  db
    .selectFrom("receipts")
    .select((eb) => eb.fn.max("seq").as("last"))
    .where("call_id", "=", callId),
);

/** The ReceiptStore over Kysely (both dialects). */
export class KyselyReceiptStore implements ReceiptStore {
  constructor(private readonly ctx: StoreContext) {}

  async insert(receipt: ReceiptRecord): Promise<boolean> {
    const row = toRow(receipt);
    return this.ctx.write(
      async (db) =>
        (await INSERT.affected(
          this.ctx.dialect,
          db,
          row.call_id,
          row.receipt_id,
          row.seq,
          row.run_id,
          row.kind,
          row.executor_id,
          row.claim_id,
          row.body_text,
          row.body_digest,
          row.answer_json,
          row.applied,
          row.created_at_ms,
        )) > 0n,
    );
  }

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

  async nextSeq(callId: string): Promise<number> {
    const row = await this.ctx.read((db) => LAST_SEQ.takeFirst(this.ctx.dialect, db, callId));
    const last = row?.last;
    return last === null || last === undefined ? 1 : Number(last) + 1;
  }
}

function toRow(receipt: ReceiptRecord): ReceiptsTable {
  return {
    call_id: receipt.call_id,
    receipt_id: receipt.receipt_id,
    seq: receipt.seq,
    run_id: receipt.run_id,
    kind: receipt.kind,
    executor_id: receipt.executor_id,
    claim_id: receipt.claim_id,
    body_text: receipt.body_text,
    body_digest: receipt.body_digest,
    answer_json: receipt.answer_json,
    applied: receipt.applied ? 1 : 0,
    created_at_ms: receipt.created_at_ms,
  };
}

/** The record of a stored receipt row. */
export function receiptFromRow(row: Selectable<ReceiptsTable>): ReceiptRecord {
  const { kind } = row;
  if (!isReceiptKind(kind))
    throw new Error(`stored receipt ${row.receipt_id} has an unknown kind ${JSON.stringify(kind)}`);
  return { ...row, kind, applied: row.applied === 1 };
}
