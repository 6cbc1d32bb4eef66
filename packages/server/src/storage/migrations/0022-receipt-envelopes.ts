/**
 * 0022_receipt_envelopes: `receipts.body_grant`, the bytes of a receipt's grant (bytea on
 * PostgreSQL, blob on SQLite). A body that opens with exactly the envelope
 * (`{"executor_id":…,"claim_id":…,"grant":"…","receipt_id":…,"kind":…`, or the runners' order with
 * `receipt_id` first: receipt-envelope.ts) is stored without it: the
 * four values are the row's own columns, the grant is `body_grant`, and the envelope is rebuilt when
 * read (calls/receipt-envelope.ts), so the body still reads back byte for byte. `result_at` (0017)
 * is then an offset into the stored text, after the envelope. Rows written before keep `body_grant`
 * NULL and their whole body. Additive.
 *
 * Down gives every row with a grant its whole body back (the envelope rebuilt in front, `result_at`
 * moved by its length), then drops the column: nothing is lost.
 */

import { type Kysely, type Migration, sql } from "kysely";
import { envelopeText } from "../calls/receipt-envelope.js";
import type { Dialect } from "../storage.js";

/** Rows rewritten per statement batch in down. */
const BATCH = 500;

interface EnvelopedRow {
  call_id: string;
  claim_id: string;
  receipt_id: string;
  executor_id: string;
  kind: string;
  body_text: string;
  body_grant: Uint8Array;
  result_at: number | string | null;
}

/** Puts every elided body back together, a batch at a time (each rewritten row leaves the selection). */
async function restoreBodies(db: Kysely<unknown>): Promise<void> {
  for (;;) {
    const { rows } = await sql<EnvelopedRow>`select call_id, claim_id, receipt_id, executor_id, kind, body_text,
        body_grant, result_at
      from receipts where body_grant is not null
      order by call_id, claim_id, receipt_id limit ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    for (const row of rows) {
      const envelope = envelopeText(row, row.body_grant);
      const at = row.result_at === null ? null : Number(row.result_at) + envelope.length;
      await sql`update receipts set body_text = ${envelope + row.body_text}, result_at = ${at}, body_grant = null
        where call_id = ${row.call_id} and claim_id = ${row.claim_id} and receipt_id = ${row.receipt_id}`.execute(db);
    }
  }
}

/** The 0022_receipt_envelopes migration. */
export function receiptEnvelopesMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const type = dialect === "sqlite" ? sql`blob` : sql`bytea`;
      await sql`alter table receipts add column body_grant ${type}`.execute(db);
    },

    async down(db: Kysely<unknown>): Promise<void> {
      await restoreBodies(db);
      await sql`alter table receipts drop column body_grant`.execute(db);
    },
  };
}
