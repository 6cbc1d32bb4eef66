/**
 * 0013_run_limits: what the run limits need (docs/runs.md#limits).
 *
 * - `agent_versions.max_turns`, `max_tool_calls`, `run_timeout_ms`: the limits a version lowers below
 *   the server's; NULL (every version from before) means the server's limit.
 * - `runs.max_turns`, `runs.max_tool_calls`: the limits a run got at its creation (the version's,
 *   else the server's), so every turn reads them from the run it locks; older runs get the defaults.
 * - `runs.tool_call_count`: the tool calls the run's model asked for so far (refused ones included),
 *   backfilled from `tool_calls` (compensation calls are the product's, not the model's).
 * - `runs.deadline_ms`: when the run expires; the sweep reads the partial index `runs_deadline` (open
 *   runs only) in deadline order. Runs still open at the upgrade get the default hour from their
 *   creation; ended runs keep NULL.
 *
 * Additive; the same on both dialects.
 */

import { type Kysely, type Migration, sql } from "kysely";

/** The deadline given to runs still open when the migration runs (the default `runTimeoutMs`). */
export const BACKFILLED_RUN_TIMEOUT_MS = 3_600_000;

/** The turn limit given to runs from before the migration (the default `maxTurns`). */
export const BACKFILLED_MAX_TURNS = 100;

/** The tool call limit given to runs from before the migration (the default `maxToolCalls`). */
export const BACKFILLED_MAX_TOOL_CALLS = 500;

/** The 0013_run_limits migration. */
export const runLimitsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable("agent_versions").addColumn("max_turns", "integer").execute();
    await db.schema.alterTable("agent_versions").addColumn("max_tool_calls", "integer").execute();
    await db.schema.alterTable("agent_versions").addColumn("run_timeout_ms", "bigint").execute();
    await db.schema
      .alterTable("runs")
      .addColumn("max_turns", "integer", (c) => c.notNull().defaultTo(BACKFILLED_MAX_TURNS))
      .execute();
    await db.schema
      .alterTable("runs")
      .addColumn("max_tool_calls", "integer", (c) => c.notNull().defaultTo(BACKFILLED_MAX_TOOL_CALLS))
      .execute();
    await db.schema
      .alterTable("runs")
      .addColumn("tool_call_count", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable("runs").addColumn("deadline_ms", "bigint").execute();
    await sql`
      update runs set tool_call_count = (
        select count(*) from tool_calls c where c.run_id = runs.run_id and c.compensates is null
      )`.execute(db);
    await sql`
      update runs set deadline_ms = created_at_ms + ${sql.lit(BACKFILLED_RUN_TIMEOUT_MS)}
      where ended_at_ms is null`.execute(db);
    await db.schema
      .createIndex("runs_deadline")
      .on("runs")
      .columns(["deadline_ms", "run_id"])
      .where(sql.ref("ended_at_ms"), "is", null)
      .execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex("runs_deadline").execute();
    await db.schema.alterTable("runs").dropColumn("deadline_ms").execute();
    await db.schema.alterTable("runs").dropColumn("tool_call_count").execute();
    await db.schema.alterTable("runs").dropColumn("max_tool_calls").execute();
    await db.schema.alterTable("runs").dropColumn("max_turns").execute();
    await db.schema.alterTable("agent_versions").dropColumn("run_timeout_ms").execute();
    await db.schema.alterTable("agent_versions").dropColumn("max_tool_calls").execute();
    await db.schema.alterTable("agent_versions").dropColumn("max_turns").execute();
  },
};
