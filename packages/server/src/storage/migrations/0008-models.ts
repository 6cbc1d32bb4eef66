/**
 * 0008_models: what runs with real models keep in the database (see docs/runs.md).
 *
 * - `model_turns`: a run waiting for a model request to be made, one row per run, claimed by one
 *   server instance at a time through a lease (`owner`, `lease_expires_ms`), so a restarted or
 *   second instance continues a run whose request was in flight and no two instances drive one run.
 * - `model_requests`: every model request made, with its size, the estimated and the real input
 *   tokens, for auditing the window and the estimator.
 * - `token_calibrations`: per (provider, model), the sums of a least-squares fit of real input tokens
 *   on request features; updated by adding to the sums, so concurrent instances never lose an update.
 * - `run_events`: the run's event stream (`GET /v1/runs/{run_id}/events`), `seq` increasing per run;
 *   a `history.item` event names its history item (`history_seq`) instead of copying its text.
 */

import { type ColumnDataType, type Expression, type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../storage.js";

/** The sums a calibration row keeps: the upper triangle of XᵀX (5×5) and Xᵀy, by feature index. */
export const CALIBRATION_SUM_COLUMNS = [
  "xx00",
  "xx01",
  "xx02",
  "xx03",
  "xx04",
  "xx11",
  "xx12",
  "xx13",
  "xx14",
  "xx22",
  "xx23",
  "xx24",
  "xx33",
  "xx34",
  "xx44",
  "xy0",
  "xy1",
  "xy2",
  "xy3",
  "xy4",
] as const;

/** The 0008_models migration for `dialect`. */
export function modelsMigration(dialect: Dialect): Migration {
  const id: ColumnDataType | Expression<unknown> = dialect === "postgres" ? sql`text collate "C"` : "text";
  const double: ColumnDataType = dialect === "postgres" ? "double precision" : "real";
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("model_turns")
        .addColumn("run_id", id, (c) => c.primaryKey().notNull().references("runs.run_id"))
        .addColumn("turn", "integer", (c) => c.notNull())
        .addColumn("owner", "text")
        .addColumn("lease_expires_ms", "bigint", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull())
        .addColumn("created_at_ms", "bigint", (c) => c.notNull())
        .addColumn("updated_at_ms", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("model_turns_lease")
        .on("model_turns")
        .columns(["lease_expires_ms", "created_at_ms"])
        .execute();

      await db.schema
        .createTable("model_requests")
        .addColumn("request_id", id, (c) => c.primaryKey().notNull())
        .addColumn("run_id", id, (c) => c.notNull().references("runs.run_id"))
        .addColumn("turn", "integer", (c) => c.notNull())
        .addColumn("purpose", "text", (c) => c.notNull())
        .addColumn("provider", "text", (c) => c.notNull())
        .addColumn("model", "text", (c) => c.notNull())
        .addColumn("request_bytes", "bigint", (c) => c.notNull())
        .addColumn("estimated_input_tokens", "bigint", (c) => c.notNull())
        .addColumn("actual_input_tokens", "bigint")
        .addColumn("output_tokens", "bigint")
        .addColumn("compacted", "integer", (c) => c.notNull())
        .addColumn("latency_ms", "bigint", (c) => c.notNull())
        .addColumn("error_json", "text")
        .addColumn("created_at_ms", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("model_requests_run")
        .on("model_requests")
        .columns(["run_id", "created_at_ms", "request_id"])
        .execute();

      let calibrations = db.schema
        .createTable("token_calibrations")
        .addColumn("provider", "text", (c) => c.notNull())
        .addColumn("model", "text", (c) => c.notNull())
        .addColumn("observations", "bigint", (c) => c.notNull());
      for (const column of CALIBRATION_SUM_COLUMNS) {
        calibrations = calibrations.addColumn(column, double, (c) => c.notNull());
      }
      await calibrations
        .addColumn("updated_at_ms", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("token_calibrations_pk", ["provider", "model"])
        .execute();

      await db.schema
        .createTable("run_events")
        .addColumn("run_id", id, (c) => c.notNull().references("runs.run_id"))
        .addColumn("seq", "integer", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("data_json", "text")
        .addColumn("history_seq", "integer")
        .addColumn("created_at_ms", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("run_events_pk", ["run_id", "seq"])
        .execute();
    },

    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of ["run_events", "token_calibrations", "model_requests", "model_turns"]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
