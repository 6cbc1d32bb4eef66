/**
 * Every row of every table of a test database, as sorted JSON lines per table: two dumps compare equal
 * exactly when nothing was inserted, changed or deleted in between (either dialect). A receipt whose
 * body is stored without its result text (the history holds it: 0017) or its envelope (0022) shows its
 * whole body, as the receipt store reads it (and `body_grant` NULL).
 */

import Database from "better-sqlite3";
import pg from "pg";
import { parseDatabaseUrl } from "../../src/storage/database-url.js";
import { type RawReceiptRow, wholeReceiptBody } from "./stored-receipt-body.js";

/** Table name → its rows as JSON text, sorted. */
export type TableDump = Record<string, string[]>;

/** Dumps every table of the database at `url` (a test database URL). */
export async function dumpTables(url: string): Promise<TableDump> {
  return withWholeReceiptBodies(await dumpStoredTables(url));
}

/** Dumps every table as stored (receipt bodies without the result text the history holds or their envelope). */
export async function dumpStoredTables(url: string): Promise<TableDump> {
  const location = parseDatabaseUrl(url);
  const dump: TableDump = {};
  if (location.dialect === "sqlite") {
    const db = new Database(location.path, { readonly: true });
    try {
      const tables = db.prepare("select name from sqlite_master where type = 'table' order by name").all() as Array<{
        name: string;
      }>;
      for (const { name } of tables) dump[name] = rowsText(db.prepare(`select * from "${name}"`).all());
    } finally {
      db.close();
    }
    return dump;
  }
  const client = new pg.Client({ connectionString: location.connectionString, options: location.options });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = current_schema() order by table_name",
    );
    for (const { table_name } of tables.rows) {
      dump[table_name] = rowsText((await client.query(`select * from "${table_name}"`)).rows);
    }
  } finally {
    await client.end();
  }
  return dump;
}

/**
 * The dump with each receipt's `body_text` put back together from the history item holding its result
 * and from its envelope's columns and grant.
 */
function withWholeReceiptBodies(dump: TableDump): TableDump {
  const receipts = dump.receipts;
  if (receipts === undefined) return dump;
  const items = new Map<string, string>();
  for (const line of dump.execution_history ?? []) {
    const item = JSON.parse(line) as { run_id: string; seq: number | string; item_json: string };
    items.set(`${item.run_id} ${Number(item.seq)}`, item.item_json);
  }
  const whole = receipts.map((line) => {
    const row = JSON.parse(line) as Record<string, unknown>;
    const noResult = row.result_seq === null || row.result_seq === undefined;
    if (noResult && (row.body_grant === null || row.body_grant === undefined)) return line;
    const item = noResult ? undefined : items.get(`${row.run_id} ${Number(row.result_seq)}`);
    row.body_text = wholeReceiptBody(row as unknown as RawReceiptRow, item);
    if (row.body_grant !== undefined) row.body_grant = null;
    return JSON.stringify(row);
  });
  return { ...dump, receipts: whole.sort() };
}

function rowsText(rows: unknown[]): string[] {
  return rows
    .map((row) => JSON.stringify(row, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value)))
    .sort();
}
