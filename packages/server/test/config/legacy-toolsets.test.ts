// Toolsets stored by the previous service version, read over HTTP after the server migrated them:
// `max_result_tokens` became `max_result_context_bytes: 16384`, fields the old version lacked read as
// their defaults, agent versions keep their pins, and restarting (migrating again) changes nothing.
import { expect, it } from "vitest";
import { connectDatabase } from "../../src/storage/engine/connect-database.js";
import { applyMigrations, createMigrator } from "../../src/storage/migrations/migrator.js";
import { startTestServer } from "../http/http-harness.js";
import { describeEachDialect, testDatabaseUrl } from "../support/test-databases.js";
import { admin, readAll } from "./config-fixtures.js";

const LEGACY_TOOLS =
  '[{"name":"search","binding_id":"b1","input_schema":{"type":"object"},"max_result_tokens":2000,"effect":"read"},' +
  '{"name":"fetch","binding_id":"b1","input_schema":{"type":"object"},"max_result_context_bytes":4096}]';

describeEachDialect("legacy toolsets", (dialect) => {
  it("reads migrated legacy tools with the 16 KiB default, once and for all", async () => {
    const database = await testDatabaseUrl(dialect);
    const connection = await connectDatabase(database.url);
    try {
      await applyMigrations(createMigrator(connection), (m) => m.migrateTo("0001_initial"));
      const { db } = connection;
      await db.insertInto("bindings").values({ binding_id: "b1", name: "B1", created_at_ms: 1_000 }).execute();
      await db
        .insertInto("toolsets")
        .values({ toolset_id: "ts_old", name: "Old", latest_version: 1, created_at_ms: 1_000 })
        .execute();
      await db
        .insertInto("toolset_versions")
        .values({ toolset_id: "ts_old", version: 1, tools_json: LEGACY_TOOLS, created_at_ms: 1_000 })
        .execute();
      await db
        .insertInto("agents")
        .values({ agent_id: "agt_old", name: "Old", latest_version_number: 1, created_at_ms: 1_000 })
        .execute();
      await db
        .insertInto("agent_versions")
        .values({
          agent_version: "agv_old",
          agent_id: "agt_old",
          number: 1,
          toolset_id: "ts_old",
          toolset_version: 1,
          model_json: '{"provider":"scripted","script":[{"message":"hi"}]}',
          instructions: "",
          max_context_tokens: 100_000,
          created_at_ms: 1_001,
        })
        .execute();
    } finally {
      await connection.db.destroy();
    }

    const first = await startTestServer(dialect, {}, database);
    const version = await first.call("GET", "/v1/toolsets/ts_old/versions/1", admin);
    expect(version.status).toBe(200);
    expect(version.body.tools).toEqual([
      {
        name: "search",
        description: "",
        binding_id: "b1",
        input_schema: { type: "object" },
        output_schema: {},
        max_result_context_bytes: 16384,
        effect: "read",
        timeout_ms: 300_000,
      },
      {
        name: "fetch",
        description: "",
        binding_id: "b1",
        input_schema: { type: "object" },
        output_schema: {},
        max_result_context_bytes: 4096,
        effect: "write",
        timeout_ms: 300_000,
      },
    ]);
    const pinned = await first.call("GET", "/v1/agents/agt_old/versions/agv_old", admin);
    expect(pinned.body).toMatchObject({ toolset_id: "ts_old", toolset_version: 1, max_context_tokens: 100_000 });
    const diagnostics = await first.call("GET", "/v1/agents/agt_old/executor-bindings/b1/diagnostics", admin);
    expect(diagnostics.body.tools).toEqual([
      { name: "search", agent_version: "agv_old", effect: "read", max_result_context_bytes: 16384 },
      { name: "fetch", agent_version: "agv_old", effect: "write", max_result_context_bytes: 4096 },
    ]);
    const texts = (await readAll(first, "/v1/toolsets/ts_old/versions")).texts;
    await first.close();

    // A restart runs the migrator again: nothing is left to rewrite, every answer stays byte for byte.
    const second = await startTestServer(dialect, {}, database);
    expect((await second.call("GET", "/v1/toolsets/ts_old/versions/1", admin)).text).toBe(version.text);
    expect((await readAll(second, "/v1/toolsets/ts_old/versions")).texts).toEqual(texts);
    await second.close();
  });
});
