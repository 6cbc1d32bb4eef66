/**
 * Storing a receipt numbered after its call's last one, in ONE statement: the next `seq` is read
 * inside the INSERT, and a receipt ID the claim used already is refused by the primary key
 * (call_id, claim_id, receipt_id) with `ON CONFLICT DO NOTHING` — nothing written, false answered.
 */

import { sql } from "kysely";
import { ReusableQuery } from "../engine/reusable-query.js";
import type { Db } from "../engine/store-context.js";
import type { ReceiptRecord, ReceiptResultReference } from "../records.js";
import type { Dialect } from "../storage.js";
import { storedDigest } from "./receipt-digest.js";
import { type StoredBody, storedBody } from "./receipt-envelope.js";

/**
 * A receipt to store: everything but its `seq`; `result_reference` when the body's result text is
 * stored already in the run's history (the body is then stored without it).
 */
export type NewReceipt = Omit<ReceiptRecord, "seq"> & { readonly result_reference?: ReceiptResultReference };

// Every receipt runs it: compiled once (reusable-query.ts).
const INSERT_NEXT = new ReusableQuery(
  (
    db,
    call_id: string,
    receipt_id: string,
    run_id: string,
    kind: string,
    executor_id: string,
    claim_id: string,
    body_text: string,
    body_grant: Uint8Array | null,
    body_digest: Uint8Array,
    answer_json: string | null,
    applied: number,
    created_at_ms: number,
    result_seq: number | null,
    result_at: number | null,
    result_from: number | null,
    result_length: number | null,
  ) =>
    db
      .insertInto("receipts")
      .values((eb) => ({
        call_id,
        receipt_id,
        seq: eb
          .selectFrom("receipts as last")
          .select(sql<number>`coalesce(max(last.seq), 0) + 1`.as("seq"))
          .where("last.call_id", "=", call_id),
        run_id,
        kind,
        executor_id,
        claim_id,
        body_text,
        body_grant,
        body_digest,
        answer_json,
        applied,
        created_at_ms,
        result_seq,
        result_at,
        result_from,
        result_length,
      }))
      .onConflict((conflict) => conflict.columns(["call_id", "claim_id", "receipt_id"]).doNothing()),
);

/** Runs the statement on `db`; false when the receipt ID was taken (nothing written). */
export async function insertNextReceipt(dialect: Dialect, db: Db, receipt: NewReceipt): Promise<boolean> {
  const reference = receipt.result_reference;
  const stored = storedReceiptBody(receipt);
  const inserted = await INSERT_NEXT.affected(
    dialect,
    db,
    receipt.call_id,
    receipt.receipt_id,
    receipt.run_id,
    receipt.kind,
    receipt.executor_id,
    receipt.claim_id,
    stored.body_text,
    stored.body_grant,
    storedDigest(receipt.body_digest),
    receipt.answer_json,
    receipt.applied ? 1 : 0,
    receipt.created_at_ms,
    reference?.seq ?? null,
    stored.result_at,
    reference?.from ?? null,
    reference?.length ?? null,
  );
  return inserted > 0n;
}

/**
 * The receipt's body as stored (receipt-envelope.ts): without its envelope when it opens with the
 * usual one, and without the result text the history holds (`result_at` is then into the stored text).
 */
export function storedReceiptBody(receipt: NewReceipt): StoredBody {
  const reference = receipt.result_reference;
  const result = reference === undefined ? undefined : { at: reference.at, length: reference.length };
  return storedBody(receipt.body_text, receipt, result);
}
