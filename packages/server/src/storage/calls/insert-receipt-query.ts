/**
 * Storing a receipt numbered after its call's last one, in ONE statement: the next `seq` is read
 * inside the INSERT, and a receipt ID the claim used already is refused by the primary key
 * (call_id, claim_id, receipt_id) with `ON CONFLICT DO NOTHING` — nothing written, and the statement
 * fails with a StoredStateChangedError (see `insertNextReceipt`).
 */

import { type QueryCreator, sql } from "kysely";
import type { Database, ReceiptsTable } from "../database-schema.js";
import { NamedReusableQuery } from "../engine/reusable-query.js";
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

/** A receipt's row, but its `seq` (read inside the statement). */
type ReceiptRow = Omit<ReceiptsTable, "seq">;

/** The row's columns: the reusable queries' inputs, in order. */
const ROW_COLUMNS = [
  "call_id",
  "receipt_id",
  "run_id",
  "kind",
  "executor_id",
  "claim_id",
  "body_text",
  "body_grant",
  "body_digest",
  "answer_json",
  "applied",
  "created_at_ms",
  "result_seq",
  "result_at",
  "result_from",
  "result_length",
] as const satisfies readonly (keyof ReceiptRow)[];

function insertNext(db: QueryCreator<Database>, row: ReceiptRow) {
  return db
    .insertInto("receipts")
    .values((eb) => ({
      ...row,
      seq: eb
        .selectFrom("receipts as last")
        .select(sql<number>`coalesce(max(last.seq), 0) + 1`.as("seq"))
        .where("last.call_id", "=", row.call_id),
    }))
    .onConflict((conflict) => conflict.columns(["call_id", "claim_id", "receipt_id"]).doNothing());
}

// Every receipt runs one of them: compiled once (reusable-query.ts).
const INSERT_NEXT = new NamedReusableQuery<ReceiptRow, unknown>(ROW_COLUMNS, insertNext);

/**
 * PostgreSQL's, sent with COMMIT without waiting for its answer (the receipt flow holds the call's
 * lock): a receipt ID stored meanwhile fails it (stored-state-changed.ts) rather than answering no row.
 */
const SEND_NEXT_GUARDED = new NamedReusableQuery<ReceiptRow, { one: number }>(ROW_COLUMNS, (db, row) =>
  db
    .with("stored", (qc) => insertNext(qc, row).returning(sql<number>`1`.as("one")))
    .selectFrom("stored")
    .select(
      oneUnlessGuardFails(sql`count(*) = 1`, sql`count(*)`, "receipts stored, the receipt ID was taken").as("one"),
    ),
);

/** The row of `receipt`. */
function rowOf(receipt: NewReceipt): ReceiptRow {
  const reference = receipt.result_reference;
  const stored = storedReceiptBody(receipt);
  return {
    call_id: receipt.call_id,
    receipt_id: receipt.receipt_id,
    run_id: receipt.run_id,
    kind: receipt.kind,
    executor_id: receipt.executor_id,
    claim_id: receipt.claim_id,
    body_text: stored.body_text,
    body_grant: stored.body_grant,
    body_digest: storedDigest(receipt.body_digest),
    answer_json: receipt.answer_json,
    applied: receipt.applied ? 1 : 0,
    created_at_ms: receipt.created_at_ms,
    result_seq: reference?.seq ?? null,
    result_at: stored.result_at,
    result_from: reference?.from ?? null,
    result_length: reference?.length ?? null,
  };
}

/**
 * Runs the statement on `db`; a taken receipt ID (nothing written) fails it with a
 * StoredStateChangedError. On PostgreSQL inside a transaction it is not waited for: the failure is the
 * transaction's, at its commit.
 */
export async function insertNextReceipt(dialect: Dialect, db: Db, receipt: NewReceipt): Promise<void> {
  if (dialect === "postgres") return SEND_NEXT_GUARDED.send(dialect, db, rowOf(receipt));
  if ((await INSERT_NEXT.affected(dialect, db, rowOf(receipt))) === 0n) throw receiptIdTaken();
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
