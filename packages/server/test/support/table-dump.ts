/**
 * Every row of every table of a test database, as sorted JSON lines per table: two dumps compare equal
 * exactly when nothing was inserted, changed or deleted in between (either dialect).
 */

import Database from "better-sqlite3";
import pg from "pg";
import { parseDatabaseUrl } from "../../src/storage/database-url.js";

/** Table name → its rows as JSON text, sorted. */
export type TableDump = Record<string, string[]>;

/** Dumps every table of the database at `url` (a test database URL). */
export async function dumpTables(url: string): Promise<TableDump> {
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

function rowsText(rows: unknown[]): string[] {
  return rows
    .map((row) => JSON.stringify(row, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value)))
    .sort();
}
