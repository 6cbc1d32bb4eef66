/**
 * 0017_receipt_result_references: a `completed` receipt whose result text the history's context
 * preview holds byte for byte (a result within the tool's budget) stores its body without it, and
 * where to find it: `result_seq` (the run's history item), `result_from` and `result_length` (the
 * text's place in that item) and `result_at` (where it goes back into the body). The body is put back
 * together when read, so it is still answered exactly as received. Rows written before keep the four
 * NULL and their whole body. Additive; the same on both dialects.
 */

import { type Kysely, type Migration, sql } from "kysely";

const COLUMNS = ["result_seq", "result_at", "result_from", "result_length"] as const;

/** The 0017_receipt_result_references migration. */
export const receiptResultReferencesMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const column of COLUMNS) await sql`alter table receipts add column ${sql.id(column)} integer`.execute(db);
  },

  async down(db: Kysely<unknown>): Promise<void> {
    for (const column of COLUMNS) await sql`alter table receipts drop column ${sql.id(column)}`.execute(db);
  },
};
