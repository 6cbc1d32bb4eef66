/**
 * 0006_run_output_json: a run's output (the model's final message) is kept as JSON text in
 * `runs.output_json` instead of raw text in `runs.output`. Raw text could not keep every string the
 * model may say: PostgreSQL text refuses U+0000 (the run stayed `waiting_for_tools` while the receipt
 * that completed it was refused on every redelivery), and both drivers encode a lone surrogate as
 * U+FFFD. As a JSON string literal (`\u0000`, `\ud800`) every string round-trips exactly. Existing
 * outputs are quoted in SQL, in place.
 */

import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../storage.js";

/** The 0006_run_output_json migration for `dialect`. */
export function runOutputJsonMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("runs").addColumn("output_json", "text").execute();
      const quoted = dialect === "postgres" ? sql`to_json(output)::text` : sql`json_quote(output)`;
      await sql`update runs set output_json = ${quoted} where output is not null`.execute(db);
      await db.schema.alterTable("runs").dropColumn("output").execute();
    },

    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("runs").addColumn("output", "text").execute();
      const unquoted = dialect === "postgres" ? sql`(output_json::json #>> '{}')` : sql`json_extract(output_json, '$')`;
      await sql`update runs set output = ${unquoted} where output_json is not null`.execute(db);
      await db.schema.alterTable("runs").dropColumn("output_json").execute();
    },
  };
}
