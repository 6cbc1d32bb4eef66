/**
 * 0003_runtime: runs, tool calls, receipts, executor connections and the server's secrets.
 *
 * - `tool_calls` carries the claim (executor, claim ID, grant hash) in the row itself, so that
 *   ownership is checked in the SQL (`WHERE call_id = ? AND claim_id = ? AND status = ?`) and the
 *   first claim wins by a single conditional UPDATE on both dialects.
 * - `receipts` keeps each receipt's body exactly as received (`body_text`, the request's UTF-8 text)
 *   and the first answer (`answer_json`), so a redelivery is answered byte for byte the same.
 * - `executors` holds one row per stable executor ID: its current connection (ID and epoch) and lease.
 * - `server_secrets` holds the grant key shared by every instance on one database.
 */

import { type ColumnDataType, type Expression, type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../storage.js";

/** The 0003_runtime migration for `dialect`. */
export function runtimeMigration(dialect: Dialect): Migration {
  const id: ColumnDataType | Expression<unknown> = dialect === "postgres" ? sql`text collate "C"` : "text";
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("runs")
        .addColumn("run_id", id, (c) => c.primaryKey().notNull())
        .addColumn("session_id", id, (c) => c.notNull().references("sessions.session_id"))
        .addColumn("agent_id", id, (c) => c.notNull())
        .addColumn("agent_version", id, (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("input_json", "text", (c) => c.notNull())
        .addColumn("turn", "integer", (c) => c.notNull())
        .addColumn("output", "text")
        .addColumn("error_json", "text")
        .addColumn("history_length", "integer", (c) => c.notNull())
        .addColumn("created_at_ms", "bigint", (c) => c.notNull())
        .addColumn("updated_at_ms", "bigint", (c) => c.notNull())
        .addColumn("ended_at_ms", "bigint")
        .execute();
      await db.schema
        .createIndex("runs_session_created")
        .on("runs")
        .columns(["session_id", "created_at_ms", "run_id"])
        .execute();

      await db.schema
        .createTable("tool_calls")
        .addColumn("call_id", id, (c) => c.primaryKey().notNull())
        .addColumn("run_id", id, (c) => c.notNull().references("runs.run_id"))
        .addColumn("turn", "integer", (c) => c.notNull())
        .addColumn("position", "integer", (c) => c.notNull())
        .addColumn("tool_name", "text", (c) => c.notNull())
        .addColumn("binding_id", id, (c) => c.notNull())
        .addColumn("effect", "text", (c) => c.notNull())
        .addColumn("max_result_context_bytes", "integer", (c) => c.notNull())
        .addColumn("arguments_json", "text", (c) => c.notNull())
        .addColumn("arguments_digest", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("executor_id", "text")
        .addColumn("claim_id", "text")
        .addColumn("grant_hash", "text")
        .addColumn("claimed_at_ms", "bigint")
        .addColumn("accept_deadline_ms", "bigint")
        .addColumn("accepted_at_ms", "bigint")
        .addColumn("settled_at_ms", "bigint")
        .addColumn("deadline_ms", "bigint", (c) => c.notNull())
        .addColumn("cancel_requested_at_ms", "bigint")
        .addColumn("compensates", id)
        .addColumn("created_at_ms", "bigint", (c) => c.notNull())
        .addColumn("updated_at_ms", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("tool_calls_run").on("tool_calls").columns(["run_id", "turn", "position"]).execute();
      await db.schema
        .createIndex("tool_calls_binding_status")
        .on("tool_calls")
        .columns(["binding_id", "status", "created_at_ms", "call_id"])
        .execute();
      await db.schema.createIndex("tool_calls_executor").on("tool_calls").columns(["executor_id", "status"]).execute();
      await db.schema
        .createIndex("tool_calls_status_deadline")
        .on("tool_calls")
        .columns(["status", "deadline_ms"])
        .execute();

      await db.schema
        .createTable("receipts")
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
        .addPrimaryKeyConstraint("receipts_pk", ["call_id", "receipt_id"])
        .addUniqueConstraint("receipts_call_seq_unique", ["call_id", "seq"])
        .execute();

      await db.schema
        .createTable("executors")
        .addColumn("executor_id", "text", (c) => c.primaryKey().notNull())
        .addColumn("connection_id", "text", (c) => c.notNull())
        .addColumn("epoch", "integer", (c) => c.notNull())
        .addColumn("binding_ids_json", "text", (c) => c.notNull())
        .addColumn("key_id", "text", (c) => c.notNull())
        .addColumn("online", "integer", (c) => c.notNull())
        .addColumn("connected_at_ms", "bigint", (c) => c.notNull())
        .addColumn("last_heartbeat_ms", "bigint", (c) => c.notNull())
        .addColumn("lease_expires_ms", "bigint", (c) => c.notNull())
        .addColumn("disconnected_at_ms", "bigint")
        .execute();

      await db.schema
        .createTable("server_secrets")
        .addColumn("name", "text", (c) => c.primaryKey().notNull())
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("created_at_ms", "bigint", (c) => c.notNull())
        .execute();
    },

    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of ["server_secrets", "executors", "receipts", "tool_calls", "runs"]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
