/**
 * 0005_executor_tool_names: an executor's connection may declare the tools it runs (`tool_names` of
 * `POST /v1/executors/connect`), so binding diagnostics can name the tools no online executor serves.
 * One nullable column on `executors`: compact JSON array text, NULL when the connection declared none
 * (executors from before this migration, or that do not declare). Additive; the same on both dialects.
 */

import type { Kysely, Migration } from "kysely";

/** The 0005_executor_tool_names migration. */
export const executorToolNamesMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable("executors").addColumn("tool_names_json", "text").execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable("executors").dropColumn("tool_names_json").execute();
  },
};
