// Upgrading to model connections (both dialects): keys stored before 0012_key_connections reach every
// connection; agent versions stored with base_url/api_key_env stay readable as stored and their runs
// fail model_error saying they name no connection; a version whose connection the operator removed
// fails its runs model_error naming it — never a crash. A bad TOOLHOST_MODEL_CONNECTIONS (or
// `@file`) stops the server at start with a message naming the entry.

import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { startServer } from "../../src/index.js";
import { connectDatabase } from "../../src/storage/engine/connect-database.js";
import { applyMigrations, createMigrator } from "../../src/storage/migrations/migrator.js";
import { admin, expectStatus } from "../calls/calls-harness.js";
import { READ_TOOL } from "../runs/run-fixtures.js";
import { describeEachDialect, testDatabaseUrl } from "../support/test-databases.js";
import { startFakeModelServer } from "./fake-model-server.js";
import { KEY_ENV, MODEL_ENV, readJson, runEnded, startModelServer } from "./model-harness.js";

const LEGACY_MODEL = '{"provider":"openai","base_url":"http://127.0.0.1:9/v1","model":"gpt-4o","api_key_env":"HOME"}';

describeEachDialect("upgrading to model connections", (dialect) => {
  it("keeps old keys working with every connection; old versions read as stored and their runs fail model_error", async () => {
    const database = await testDatabaseUrl(dialect);
    const connection = await connectDatabase(database.url);
    try {
      await applyMigrations(createMigrator(connection), (m) => m.migrateTo("0010_history_length_trigger"));
      // biome-ignore lint/suspicious/noExplicitAny: the keys table as it is at 0010.
      await (connection.db as any)
        .insertInto("keys")
        .values({
          key_id: "key_old",
          name: "before connections",
          key_hash: "ab".repeat(32),
          scopes_json: '["runtime:read"]',
          agents_json: '["agt_x"]',
          bindings_json: '"*"',
          created_at_ms: 1,
          revoked_at_ms: null,
        })
        .execute();
    } finally {
      await connection.db.destroy();
    }
    const fake = await startFakeModelServer();
    const modelConnections = { retired: { provider: "openai", base_url: `${fake.url}/v1`, api_key_env: KEY_ENV } };
    const first = await startModelServer(dialect, { modelConnections }, database);
    const keys = await readJson(first, "/v1/keys");
    expect(keys.data.find((key: { key_id: string }) => key.key_id === "key_old")).toMatchObject({
      agents: ["agt_x"],
      bindings: "*",
      connections: "*",
    });

    const binding = expectStatus(
      await first.call("POST", "/v1/executor-bindings", { ...admin, body: { binding_id: "up-b", name: "b" } }),
      201,
    );
    const toolset = expectStatus(
      await first.call("POST", "/v1/toolsets", {
        ...admin,
        body: { name: "t", tools: [{ ...READ_TOOL, binding_id: binding.binding_id }] },
      }),
      201,
    );
    const agent = expectStatus(await first.call("POST", "/v1/agents", { ...admin, body: { name: "a" } }), 201);
    const retiring = expectStatus(
      await first.call("POST", `/v1/agents/${agent.agent_id}/versions`, {
        ...admin,
        body: {
          toolset_id: toolset.toolset_id,
          toolset_version: 1,
          model: { provider: "openai", connection: "retired", model: "gpt-4o" },
        },
      }),
      201,
    );
    // A version as the server stored it before model connections.
    const legacy = await first.server.storage.agents.appendVersion({
      agent_version: "agv_legacy",
      agent_id: agent.agent_id,
      toolset_id: toolset.toolset_id,
      toolset_version: 1,
      model_json: LEGACY_MODEL,
      instructions: "",
      max_turns: null,
      max_tool_calls: null,
      run_timeout_ms: null,
      max_context_tokens: 32_000,
      created_at_ms: 2,
    });
    expect(legacy).toBeDefined();
    await first.close();

    // The operator removed the connection.
    const server = await startModelServer(dialect, {}, database);
    const read = await server.call("GET", `/v1/agents/${agent.agent_id}/versions/agv_legacy`, admin);
    expect(read.status, read.text).toBe(200);
    expect(read.text).toContain(`"model":${LEGACY_MODEL}`);
    const listed = await readJson(server, `/v1/agents/${agent.agent_id}/versions`);
    expect(listed.data.map((version: { agent_version: string }) => version.agent_version)).toContain("agv_legacy");

    const runOf = async (agentVersion: string) => {
      const session = expectStatus(
        await server.call("POST", "/v1/sessions", { ...admin, body: { agent_version: agentVersion, subject: "s" } }),
        201,
      );
      const run = expectStatus(
        await server.call("POST", `/v1/sessions/${session.session_id}/runs`, { ...admin, body: { input: "hi" } }),
        201,
      );
      return runEnded(server, run.run_id);
    };
    const old = await runOf("agv_legacy");
    expect(old.status).toBe("failed");
    expect(old.error.code).toBe("model_error");
    expect(old.error.message).toMatch(/^this agent version names no model connection \(it was published with base_url/);
    const removed = await runOf(retiring.agent_version);
    expect(removed.status).toBe("failed");
    expect(removed.error).toEqual({
      code: "model_error",
      message: 'model connection "retired" is not declared on this server (TOOLHOST_MODEL_CONNECTIONS)',
    });
    expect(fake.requests.length).toBe(0);
    // Still serving.
    expect((await server.call("GET", "/v1/health")).status).toBe(200);
  }, 60_000);

  it("does not start on a bad TOOLHOST_MODEL_CONNECTIONS, naming the entry; reads @file", async () => {
    const database = await testDatabaseUrl(dialect);
    const start = (value: string) =>
      startServer(
        { databaseUrl: database.url, port: 0, logLevel: "silent" },
        { ...MODEL_ENV, TOOLHOST_MODEL_CONNECTIONS: value },
      );
    await expect(start('{"eu":{"provider":"openai","base_url":"https://x/v1"},"Bad":{}}')).rejects.toThrow(
      /^environment variable TOOLHOST_MODEL_CONNECTIONS: connection "Bad" \(at \/Bad\): connection ID "Bad" must be/,
    );
    await expect(start('{"eu":{"provider":"openai","base_url":"https://x/v1#"}}')).rejects.toThrow(
      'environment variable TOOLHOST_MODEL_CONNECTIONS: connection "eu" (at /eu/base_url): base_url must have no query and no fragment',
    );
    await expect(start('{"eu":{"provider":"gemini","base_url":"https://x"}}')).rejects.toThrow(
      /connection "eu" \(at \/eu\/provider\): provider must be one of "openai", "anthropic"/,
    );
    await expect(start("[1]")).rejects.toThrow(/TOOLHOST_MODEL_CONNECTIONS: model connections must be a JSON object/);
    await expect(start("{nope")).rejects.toThrow(/TOOLHOST_MODEL_CONNECTIONS: must be a JSON object or @path/);
    const directory = await mkdtemp(join(tmpdir(), "toolhost-connections-"));
    await expect(start(`@${join(directory, "missing.json")}`)).rejects.toThrow(/cannot read .*missing\.json.*ENOENT/);
    const file = join(directory, "connections.json");
    await writeFile(file, JSON.stringify({ local: { provider: "anthropic", base_url: "http://127.0.0.1:9" } }));
    const server = await start(`@${file}`);
    try {
      expect([...server.options.modelConnections]).toEqual([
        ["local", { provider: "anthropic", base_url: "http://127.0.0.1:9", api_key_env: null }],
      ]);
    } finally {
      await server.close();
      await database.dispose();
    }
  }, 60_000);
});
