// 0013_run_limits on each dialect: runs from before it get the default limits, their tool call count
// from their model's calls (not the product's compensations), and the open ones a deadline an hour
// after their creation, which the deadline index then lists in order; agent versions get no limits
// of their own (null: the server's).
import type { Kysely } from "kysely";
import { expect, it } from "vitest";
import { connectDatabase } from "../../src/storage/engine/connect-database.js";
import { applyMigrations, createMigrator } from "../../src/storage/migrations/migrator.js";
import { openStorage } from "../../src/storage/open-storage.js";
import { callRecord } from "../support/call-fixtures.js";
import { describeEachDialect, testDatabaseUrl } from "../support/test-databases.js";

// biome-ignore lint/suspicious/noExplicitAny: the tables as they are at 0010, not the current schema types.
async function seed(db: Kysely<any>): Promise<void> {
  await db
    .insertInto("toolsets")
    .values({ toolset_id: "ts", name: "T", latest_version: 1, created_at_ms: 1 })
    .execute();
  await db
    .insertInto("toolset_versions")
    .values({ toolset_id: "ts", version: 1, tools_json: "[]", created_at_ms: 1 })
    .execute();
  await db
    .insertInto("agents")
    .values({ agent_id: "agt", name: "A", latest_version_number: 1, created_at_ms: 1 })
    .execute();
  await db
    .insertInto("agent_versions")
    .values({
      agent_version: "agv",
      agent_id: "agt",
      number: 1,
      toolset_id: "ts",
      toolset_version: 1,
      model_json: '{"provider":"scripted","script":[{"message":"x"}]}',
      instructions: "",
      max_context_tokens: 1000,
      created_at_ms: 1,
    })
    .execute();
  await db
    .insertInto("sessions")
    .values({ session_id: "ses", agent_version: "agv", agent_id: "agt", subject: "s", created_at_ms: 1 })
    .execute();
  const run = (runId: string, status: string, createdAtMs: number, endedAtMs: number | null) => ({
    run_id: runId,
    session_id: "ses",
    agent_id: "agt",
    agent_version: "agv",
    subject: "s",
    status,
    input_json: "{}",
    turn: 1,
    output_json: null,
    error_json: null,
    history_length: 0,
    created_at_ms: createdAtMs,
    updated_at_ms: createdAtMs,
    ended_at_ms: endedAtMs,
  });
  await db
    .insertInto("runs")
    .values([
      run("run_open_late", "waiting_for_tools", 5_000, null),
      run("run_open_early", "waiting_for_tools", 2_000, null),
      run("run_ended", "completed", 1_000, 1_500),
    ])
    .execute();
  const call = callRecord("run_open_late", "c1");
  await db
    .insertInto("tool_calls")
    .values([
      call,
      { ...call, call_id: "c2", position: 1 },
      { ...call, call_id: "c3", position: 2, compensates: "c1" },
      { ...call, call_id: "c4", run_id: "run_ended" },
    ])
    .execute();
}

describeEachDialect("0013_run_limits", (dialect) => {
  it("backfills limits, tool call counts and open runs' deadlines, which the deadline index lists in order", async () => {
    const database = await testDatabaseUrl(dialect);
    const connection = await connectDatabase(database.url);
    try {
      const migrator = createMigrator(connection);
      await applyMigrations(migrator, (m) => m.migrateTo("0010_history_length_trigger"));
      await seed(connection.db);
      expect((await applyMigrations(migrator)).applied).toContain("0013_run_limits");
    } finally {
      await connection.db.destroy();
    }
    const storage = await openStorage(database.url);
    try {
      const late = await storage.runs.get("run_open_late", "*");
      expect(late).toMatchObject({ max_turns: 100, max_tool_calls: 500, tool_call_count: 2, deadline_ms: 3_605_000 });
      expect(await storage.runs.get("run_open_early", "*")).toMatchObject({
        tool_call_count: 0,
        deadline_ms: 3_602_000,
      });
      expect(await storage.runs.get("run_ended", "*")).toMatchObject({ tool_call_count: 1, deadline_ms: null });
      expect(await storage.agents.getVersion("agv", "*")).toMatchObject({
        max_turns: null,
        max_tool_calls: null,
        run_timeout_ms: null,
      });
      expect(await storage.runs.overdue(3_601_999, 10)).toEqual([]);
      expect(await storage.runs.overdue(3_610_000, 10)).toEqual(["run_open_early", "run_open_late"]);
      expect(await storage.runs.overdue(3_610_000, 1)).toEqual(["run_open_early"]);
    } finally {
      await storage.close();
      await database.dispose();
    }
  });
});
