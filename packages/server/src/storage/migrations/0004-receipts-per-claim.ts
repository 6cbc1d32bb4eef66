/**
 * 0004_receipts_per_claim: a receipt ID counts once per claim, not once per call. The primary key of
 * `receipts` becomes (call_id, claim_id, receipt_id), so a later claim on the same call (after an
 * accept window lapsed, by another executor or by the same one) can neither collide with nor take
 * over an earlier claim's receipt IDs. `seq` stays unique per call (arrival order).
 *
 * Every stored row is kept as it is: IDs that were unique per call are unique per claim too.
 * PostgreSQL swaps the constraint in place; SQLite cannot change a primary key, so the table is
 * rebuilt (create the new table, copy every row, drop the old one, rename) inside the migration's
 * transaction. Nothing references `receipts`, so the rebuild touches no other table.
 */

import { type ColumnDataType, type Expression, type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../storage.js";

/** The columns of `receipts`, in table order (unchanged since 0003). */
const COLUMNS = [
  "call_id",
  "receipt_id",
  "seq",
  "run_id",
  "kind",
  "executor_id",
  "claim_id",
  "body_text",
  "body_digest",
  "answer_json",
  "applied",
  "created_at_ms",
] as const;

/** One column of `receipts`. */
type Column = (typeof COLUMNS)[number];

/** The primary key before (0003) and after this migration. */
const KEY_PER_CALL: readonly Column[] = ["call_id", "receipt_id"];
const KEY_PER_CLAIM: readonly Column[] = ["call_id", "claim_id", "receipt_id"];

/** The 0004_receipts_per_claim migration for `dialect`. */
export function receiptsPerClaimMigration(dialect: Dialect): Migration {
  return {
    up: (db) => (dialect === "postgres" ? swapPrimaryKey(db, KEY_PER_CLAIM) : rebuildSqlite(db, KEY_PER_CLAIM)),
    // Back to one ID per call: fails (and changes nothing) if two claims of a call used the same ID.
    down: (db) => (dialect === "postgres" ? swapPrimaryKey(db, KEY_PER_CALL) : rebuildSqlite(db, KEY_PER_CALL)),
  };
}

async function swapPrimaryKey(db: Kysely<unknown>, key: readonly Column[]): Promise<void> {
  await db.schema.alterTable("receipts").dropConstraint("receipts_pk").execute();
  await db.schema
    .alterTable("receipts")
    .addPrimaryKeyConstraint("receipts_pk", [...key])
    .execute();
}

async function rebuildSqlite(db: Kysely<unknown>, key: readonly Column[]): Promise<void> {
  const id: ColumnDataType | Expression<unknown> = "text";
  const rebuilt = "receipts_0004";
  await db.schema
    .createTable(rebuilt)
    .addColumn("call_id", id, (c) => c.notNull().references("tool_calls.call_id"))
    .addColumn("receipt_id", "text", (c) => c.notNull())
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("run_id", id, (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("executor_id", "text", (c) => c.notNull())
    .addColumn("claim_id", "text", (c) => c.notNull())
    .addColumn("body_text", "text", (c) => c.notNull())
    .addColumn("body_digest", "text", (c) => c.notNull())
    .addColumn("answer_json", "text", (c) => c.notNull())
    .addColumn("applied", "integer", (c) => c.notNull())
    .addColumn("created_at_ms", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("receipts_pk", [...key])
    .addUniqueConstraint("receipts_call_seq_unique", ["call_id", "seq"])
    .execute();
  const columns = sql.join(COLUMNS.map((column) => sql.ref(column)));
  await sql`insert into ${sql.table(rebuilt)} (${columns}) select ${columns} from ${sql.table("receipts")}`.execute(db);
  await db.schema.dropTable("receipts").execute();
  await db.schema.alterTable(rebuilt).renameTo("receipts").execute();
}
