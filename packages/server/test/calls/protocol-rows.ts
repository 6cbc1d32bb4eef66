/**
 * Reads the rows no public route shows — stored receipt bodies and executor connections — straight
 * from a test database (either dialect), so the protocol model can check that every acknowledged
 * receipt is kept byte for byte and that connections and leases are what the protocol says.
 */

import Database from "better-sqlite3";
import pg from "pg";
import { parseDatabaseUrl } from "../../src/storage/database-url.js";
import { wholeReceiptBody } from "../support/stored-receipt-body.js";

/** One stored receipt: where it belongs and its body exactly as stored. */
export interface ReceiptRow {
  readonly call_id: string;
  readonly claim_id: string;
  readonly receipt_id: string;
  readonly body_text: string;
}

/** One executor's current connection. */
export interface ExecutorRow {
  readonly executor_id: string;
  readonly connection_id: string;
  readonly epoch: number;
  readonly online: boolean;
  readonly lease_expires_ms: number;
  readonly key_id: string;
}

/** A read-only view of the protocol's rows in one test database. */
export interface ProtocolRows {
  /** Every receipt stored for the calls of `runIds`. */
  receipts(runIds: readonly string[]): Promise<ReceiptRow[]>;
  /** The rows of `executorIds` (absent ones are left out). */
  executors(executorIds: readonly string[]): Promise<ExecutorRow[]>;
  close(): Promise<void>;
}

// A body stored without its result text (0017) is put back together from the history item holding it,
// one stored without its envelope (0022) from the row's columns and grant.
const RECEIPTS_SQL = (marks: string) =>
  `select r.call_id, r.claim_id, r.receipt_id, r.executor_id, r.kind, r.body_text, r.body_grant, r.result_at,
     r.result_from, r.result_length, h.item_json from receipts r
   left join execution_history h on h.run_id = r.run_id and h.seq = r.result_seq
   where r.run_id in (${marks})`;

// biome-ignore lint/suspicious/noExplicitAny: rows of either driver, normalised here.
function receiptRow(row: any): ReceiptRow {
  const whole = wholeReceiptBody(row, row.item_json);
  return { call_id: row.call_id, claim_id: row.claim_id, receipt_id: row.receipt_id, body_text: whole };
}
const EXECUTORS_SQL = (marks: string) =>
  `select executor_id, connection_id, epoch, online, lease_expires_ms, key_id from executors where executor_id in (${marks})`;

// biome-ignore lint/suspicious/noExplicitAny: rows of either driver, normalised here.
function executorRow(row: any): ExecutorRow {
  return {
    executor_id: row.executor_id,
    connection_id: row.connection_id,
    epoch: Number(row.epoch),
    online: Number(row.online) === 1,
    lease_expires_ms: Number(row.lease_expires_ms),
    key_id: row.key_id,
  };
}

/** Opens a reader on the database at `url` (a test database URL); close it when done. */
export async function openProtocolRows(url: string): Promise<ProtocolRows> {
  const location = parseDatabaseUrl(url);
  if (location.dialect === "sqlite") {
    // WAL mode: this read-only connection sees every committed write and never blocks the server.
    const db = new Database(location.path, { readonly: true });
    const marks = (n: number) => Array.from({ length: n }, () => "?").join(", ");
    return {
      receipts: async (runIds) =>
        runIds.length === 0
          ? []
          : db
              .prepare(RECEIPTS_SQL(marks(runIds.length)))
              .all(...runIds)
              .map(receiptRow),
      executors: async (ids) =>
        ids.length === 0
          ? []
          : db
              .prepare(EXECUTORS_SQL(marks(ids.length)))
              .all(...ids)
              .map(executorRow),
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client({ connectionString: location.connectionString, options: location.options });
  await client.connect();
  const marks = (n: number) => Array.from({ length: n }, (_, i) => `$${i + 1}`).join(", ");
  return {
    receipts: async (runIds) =>
      runIds.length === 0
        ? []
        : (await client.query(RECEIPTS_SQL(marks(runIds.length)), [...runIds])).rows.map(receiptRow),
    executors: async (ids) =>
      ids.length === 0 ? [] : (await client.query(EXECUTORS_SQL(marks(ids.length)), [...ids])).rows.map(executorRow),
    close: () => client.end(),
  };
}
