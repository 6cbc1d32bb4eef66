/**
 * 0001_initial: the configuration tables and the committed execution history.
 *
 * Stored tool definitions (`toolset_versions.tools_json`) written at this version may still carry the
 * legacy `max_result_tokens`; 0002 rewrites them. On PostgreSQL, ID columns use the "C" collation so
 * that IDs sort by code point, as SQLite's BINARY collation does: lists page in the same order on
 * both dialects.
 */

import { type ColumnDataType, type Expression, type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../storage.js";

/** The 0001_initial migration for `dialect`. */
export function initialMigration(dialect: Dialect): Migration {
  const id: ColumnDataType | Expression<unknown> = dialect === "postgres" ? sql`text collate "C"` : "text";
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("keys")
        .addColumn("key_id", id, (c) => c.primaryKey().notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("key_hash", "text", (c) => c.notNull())
        .addColumn("scopes_json", "text", (c) => c.notNull())
        .addColumn("agents_json", "text", (c) => c.notNull())
        .addColumn("bindings_json", "text", (c) => c.notNull())
        .addColumn("created_at_ms", "bigint", (c) => c.notNull())
        .addColumn("revoked_at_ms", "bigint")
        .execute();
      await db.schema.createIndex("keys_key_hash_unique").on("keys").column("key_hash").unique().execute();
      await db.schema.createIndex("keys_created").on("keys").columns(["created_at_ms", "key_id"]).execute();

      await db.schema
        .createTable("bindings")
        .addColumn("binding_id", id, (c) => c.primaryKey().notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("created_at_ms", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("bindings_created").on("bindings").columns(["created_at_ms", "binding_id"]).execute();

      await db.schema
        .createTable("toolsets")
        .addColumn("toolset_id", id, (c) => c.primaryKey().notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("latest_version", "integer", (c) => c.notNull())
        .addColumn("created_at_ms", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("toolsets_created").on("toolsets").columns(["created_at_ms", "toolset_id"]).execute();

      await db.schema
        .createTable("toolset_versions")
        .addColumn("toolset_id", id, (c) => c.notNull().references("toolsets.toolset_id"))
        .addColumn("version", "integer", (c) => c.notNull())
        .addColumn("tools_json", "text", (c) => c.notNull())
        .addColumn("created_at_ms", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("toolset_versions_pk", ["toolset_id", "version"])
        .execute();

      await db.schema
        .createTable("agents")
        .addColumn("agent_id", id, (c) => c.primaryKey().notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("latest_version_number", "integer", (c) => c.notNull())
        .addColumn("created_at_ms", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("agents_created").on("agents").columns(["created_at_ms", "agent_id"]).execute();

      await db.schema
        .createTable("agent_versions")
        .addColumn("agent_version", id, (c) => c.primaryKey().notNull())
        .addColumn("agent_id", id, (c) => c.notNull().references("agents.agent_id"))
        .addColumn("number", "integer", (c) => c.notNull())
        .addColumn("toolset_id", id, (c) => c.notNull())
        .addColumn("toolset_version", "integer", (c) => c.notNull())
        .addColumn("model_json", "text", (c) => c.notNull())
        .addColumn("instructions", "text", (c) => c.notNull())
        .addColumn("max_context_tokens", "integer", (c) => c.notNull())
        .addColumn("created_at_ms", "bigint", (c) => c.notNull())
        .addUniqueConstraint("agent_versions_agent_number_unique", ["agent_id", "number"])
        .addForeignKeyConstraint(
          "agent_versions_toolset_version_fk",
          ["toolset_id", "toolset_version"],
          "toolset_versions",
          ["toolset_id", "version"],
        )
        .execute();

      await db.schema
        .createTable("sessions")
        .addColumn("session_id", id, (c) => c.primaryKey().notNull())
        .addColumn("agent_version", id, (c) => c.notNull().references("agent_versions.agent_version"))
        .addColumn("agent_id", id, (c) => c.notNull().references("agents.agent_id"))
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("created_at_ms", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("sessions_created").on("sessions").columns(["created_at_ms", "session_id"]).execute();
      await db.schema
        .createIndex("sessions_agent_created")
        .on("sessions")
        .columns(["agent_id", "created_at_ms", "session_id"])
        .execute();

      await db.schema
        .createTable("execution_history")
        .addColumn("run_id", id, (c) => c.notNull())
        .addColumn("seq", "integer", (c) => c.notNull())
        .addColumn("item_json", "text", (c) => c.notNull())
        .addColumn("created_at_ms", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("execution_history_pk", ["run_id", "seq"])
        .execute();
    },

    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of [
        "execution_history",
        "sessions",
        "agent_versions",
        "agents",
        "toolset_versions",
        "toolsets",
        "bindings",
        "keys",
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
