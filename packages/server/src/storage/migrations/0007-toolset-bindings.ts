/**
 * 0007_toolset_bindings: `toolset_bindings` holds, per toolset, every executor binding any of its
 * versions references, so a toolset's visibility to a binding scope is decided in the SQL (a key
 * sees a toolset only when its binding scope holds every one of them; see docs/configuration.md).
 * Existing toolset versions are read once to fill it. Rows are only ever added: versions never
 * change, and a new version adds its bindings.
 *
 * No foreign key to `bindings`: the API only stores registered bindings, and the row records what a
 * version references whatever becomes of the binding.
 */

import { type ColumnDataType, type Expression, type Kysely, type Migration, sql } from "kysely";
import { bindingIdsOfTools } from "../config/tools-json.js";
import type { Dialect } from "../storage.js";

/** The tables as they are at this migration (migrations never use the current schema types). */
type Tables = {
  toolset_versions: { toolset_id: string; version: number; tools_json: string };
  toolset_bindings: { toolset_id: string; binding_id: string };
};

/** Toolset versions read per round trip while filling the table. */
const BATCH = 500;

/** The 0007_toolset_bindings migration for `dialect`. */
export function toolsetBindingsMigration(dialect: Dialect): Migration {
  const id: ColumnDataType | Expression<unknown> = dialect === "postgres" ? sql`text collate "C"` : "text";
  return {
    async up(anyDb: Kysely<unknown>): Promise<void> {
      await anyDb.schema
        .createTable("toolset_bindings")
        .addColumn("toolset_id", id, (c) => c.notNull().references("toolsets.toolset_id"))
        .addColumn("binding_id", id, (c) => c.notNull())
        .addPrimaryKeyConstraint("toolset_bindings_pk", ["toolset_id", "binding_id"])
        .execute();
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
          let bindingIds: string[];
          try {
            bindingIds = bindingIdsOfTools(row.tools_json);
          } catch (error) {
            const reason = error instanceof Error ? error.message : String(error);
            throw new Error(
              `toolset ${row.toolset_id} version ${row.version}: stored tools_json is unreadable: ${reason}`,
              { cause: error },
            );
          }
          if (bindingIds.length === 0) continue;
          await db
            .insertInto("toolset_bindings")
            .values(bindingIds.map((binding_id) => ({ toolset_id: row.toolset_id, binding_id })))
            .onConflict((conflict) => conflict.columns(["toolset_id", "binding_id"]).doNothing())
            .execute();
        }
        const last = rows[rows.length - 1];
        if (rows.length < BATCH || last === undefined) return;
        after = { toolset_id: last.toolset_id, version: last.version };
      }
    },

    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("toolset_bindings").execute();
    },
  };
}
