/**
 * 0002_result_context_bytes: stored tool definitions that still carry `max_result_tokens` are
 * rewritten once to `max_result_context_bytes: 16384` (docs/configuration.md, see `legacy-budget-rewrite.ts`).
 * Only `toolset_versions.tools_json` changes, and only in rows holding such a tool; committed execution
 * history is not touched. The migrator records the migration, and the rewrite is idempotent anyway: a
 * second pass finds nothing to change.
 */

import type { Kysely, Migration } from "kysely";
import { rewriteLegacyBudgets } from "./legacy-budget-rewrite.js";

/** The table as it is at this migration (migrations never use the current schema types). */
type Tables = {
  toolset_versions: { toolset_id: string; version: number; tools_json: string };
};

/** Rows read per round trip. */
const BATCH = 500;

/** The 0002_result_context_bytes migration (the same on both dialects). */
export const resultContextBytesMigration: Migration = {
  async up(anyDb: Kysely<unknown>): Promise<void> {
    const db = anyDb.withTables<Tables>();
    let after: { toolset_id: string; version: number } | undefined;
    for (;;) {
      let query = db
        .selectFrom("toolset_versions")
        .select(["toolset_id", "version", "tools_json"])
        .orderBy("toolset_id")
        .orderBy("version")
        .limit(BATCH);
      if (after !== undefined) {
        const { toolset_id, version } = after;
        query = query.where((eb) => eb(eb.refTuple("toolset_id", "version"), ">", eb.tuple(toolset_id, version)));
      }
      const rows = await query.execute();
      for (const row of rows) {
        let rewritten: string | undefined;
        try {
          rewritten = rewriteLegacyBudgets(row.tools_json);
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          throw new Error(
            `toolset ${row.toolset_id} version ${row.version}: stored tools_json is unreadable: ${reason}`,
            {
              cause: error,
            },
          );
        }
        if (rewritten === undefined) continue;
        await db
          .updateTable("toolset_versions")
          .set({ tools_json: rewritten })
          .where("toolset_id", "=", row.toolset_id)
          .where("version", "=", row.version)
          .execute();
      }
      const last = rows[rows.length - 1];
      if (rows.length < BATCH || last === undefined) return;
      after = { toolset_id: last.toolset_id, version: last.version };
    }
  },

  // A down migration cannot know which tools held the legacy field: it leaves the data as it is.
  async down(): Promise<void> {},
};
