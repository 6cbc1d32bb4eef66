// 0006_run_output_json: outputs stored as raw text before it read back exactly afterwards (quoted as
// JSON in SQL on each dialect), and outputs raw text could not keep — U+0000, a lone surrogate — are
// kept exactly from then on.
import type { Kysely } from "kysely";
import { expect, it } from "vitest";
import { connectDatabase } from "../../src/storage/engine/connect-database.js";
import { applyMigrations, createMigrator } from "../../src/storage/migrations/migrator.js";
import { openStorage } from "../../src/storage/open-storage.js";
import { describeEachDialect, testDatabaseUrl } from "../support/test-databases.js";

/** Outputs a raw text column keeps on both dialects, in the spellings JSON quoting must get right. */
const OLD_OUTPUTS = [
  "plain",
  'quote " backslash \\ slash / newline \n tab \t',
  "unicode ✓ 😀 é",
  "\u0001\u001f\u007f",
  "",
];

// biome-ignore lint/suspicious/noExplicitAny: the tables as they are at 0003, not the current schema types.
async function seedRuns(db: Kysely<any>, outputs: ReadonlyArray<string | null>): Promise<void> {
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
  await db
    .insertInto("runs")
    .values(
      outputs.map((output, i) => ({
        run_id: `run_${i}`,
        session_id: "ses",
        agent_id: "agt",
        agent_version: "agv",
        subject: "s",
        status: output === null ? "failed" : "completed",
        input_json: "{}",
        turn: 1,
        output,
        error_json: null,
        history_length: 0,
        created_at_ms: 10 + i,
        updated_at_ms: 10 + i,
        ended_at_ms: 10 + i,
      })),
    )
    .execute();
}

describeEachDialect("0006_run_output_json", (dialect) => {
  it("keeps every earlier output exactly, and from then on any string at all", async () => {
    const database = await testDatabaseUrl(dialect);
    const connection = await connectDatabase(database.url);
    try {
      const migrator = createMigrator(connection);
      await applyMigrations(migrator, (m) => m.migrateTo("0003_runtime"));
      const outputs = [...OLD_OUTPUTS, null];
      await seedRuns(connection.db, outputs);
      expect((await applyMigrations(migrator)).applied).toContain("0006_run_output_json");
    } finally {
      await connection.db.destroy();
    }
    const storage = await openStorage(database.url);
    try {
      for (const [i, output] of [...OLD_OUTPUTS, null].entries()) {
        expect((await storage.runs.get(`run_${i}`, "*"))?.output, `run_${i}`).toBe(output);
      }
      const run = await storage.runs.get("run_0", "*");
      if (run === undefined) throw new Error("run_0 is missing");
      for (const [i, output] of ["a\u0000b", "lone \ud800 high", "lone \udc00 low", "\u0000"].entries()) {
        await storage.runs.insert({ ...run, run_id: `run_new_${i}`, output, created_at_ms: 100 + i });
        expect((await storage.runs.get(`run_new_${i}`, "*"))?.output).toBe(output);
      }
      const changed = await storage.runs.update("run_new_0", "completed", {
        status: "completed",
        updated_at_ms: 200,
        output: "c\u0000d",
      });
      expect(changed?.output).toBe("c\u0000d");
      expect((await storage.runs.get("run_new_0", "*"))?.output).toBe("c\u0000d");
    } finally {
      await storage.close();
      await database.dispose();
    }
  });
});
