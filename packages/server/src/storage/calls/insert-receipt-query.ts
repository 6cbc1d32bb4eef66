/**
 * Storing a receipt numbered after its call's last one, in ONE statement: the next `seq` is read
 * inside the INSERT, and a receipt ID the claim used already is refused by the primary key
 * (call_id, claim_id, receipt_id) with `ON CONFLICT DO NOTHING` — nothing written, and the statement
 * fails with a StoredStateChangedError (see `insertNextReceipt`).
 */

import { type QueryCreator, sql } from "kysely";
import type { Database } from "../database-schema.js";
import { ReusableQuery } from "../engine/reusable-query.js";
import type { Db } from "../engine/store-context.js";
import type { ReceiptRecord, ReceiptResultReference } from "../records.js";
import type { Dialect } from "../storage.js";
import { oneUnlessGuardFails, StoredStateChangedError } from "../stored-state-changed.js";
import { storedDigest } from "./receipt-digest.js";
import { type StoredBody, storedBody } from "./receipt-envelope.js";

/**
 * A receipt to store: everything but its `seq`; `result_reference` when the body's result text is
 * stored already in the run's history (the body is then stored without it).
 */
export type NewReceipt = Omit<ReceiptRecord, "seq"> & { readonly result_reference?: ReceiptResultReference };

/** The statement's values, in order. */
type ReceiptValues = [
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
];

function insertNext(
  db: QueryCreator<Database>,
  ...[
    call_id,
    receipt_id,
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
  ]: ReceiptValues
) {
  return db
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
    .onConflict((conflict) => conflict.columns(["call_id", "claim_id", "receipt_id"]).doNothing());
}

// Every receipt runs one of them: compiled once (reusable-query.ts).
const INSERT_NEXT = new ReusableQuery((db, ...values: ReceiptValues) => insertNext(db, ...values));

/**
 * PostgreSQL's, sent with COMMIT without waiting for its answer (the receipt flow holds the call's
 * lock): a receipt ID stored meanwhile fails it (stored-state-changed.ts) rather than answering no row.
 */
const SEND_NEXT_GUARDED = new ReusableQuery((db, ...values: ReceiptValues) =>
  db
    .with("stored", (qc) => insertNext(qc, ...values).returning(sql<number>`1`.as("one")))
    .selectFrom("stored")
    .select(
      oneUnlessGuardFails(sql`count(*) = 1`, sql`count(*)`, "receipts stored, the receipt ID was taken").as("one"),
    ),
);

/** The statement's values for `receipt`. */
function valuesOf(receipt: NewReceipt): ReceiptValues {
  const reference = receipt.result_reference;
  const stored = storedReceiptBody(receipt);
  return [
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
  ];
}

/**
 * Runs the statement on `db`; a taken receipt ID (nothing written) fails it with a
 * StoredStateChangedError. On PostgreSQL inside a transaction it is not waited for: the failure is the
 * transaction's, at its commit.
 */
export async function insertNextReceipt(dialect: Dialect, db: Db, receipt: NewReceipt): Promise<void> {
  if (dialect === "postgres") return SEND_NEXT_GUARDED.send(dialect, db, ...valuesOf(receipt));
  if ((await INSERT_NEXT.affected(dialect, db, ...valuesOf(receipt))) === 0n) throw receiptIdTaken();
}

/** What a receipt ID stored already fails with (PostgreSQL's guard says the same). */
export function receiptIdTaken(): StoredStateChangedError {
  return new StoredStateChangedError("the stored state changed meanwhile: the receipt ID was taken");
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
