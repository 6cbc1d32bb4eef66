// /v1/agents: agents and immutable agent versions pinning a toolset version, the model settings,
// instructions and max_context_tokens; validation with pointers; agent scope (404) and who may create.
import { beforeAll, expect, it } from "vitest";
import { createKey, startTestServer, type TestServer } from "../http/http-harness.js";
import { describeEachDialect } from "../support/test-databases.js";
import {
  admin,
  createAgent,
  createAgentVersion,
  createBinding,
  createToolset,
  expectError,
  ISO_TIME,
  readAll,
  SCRIPTED_MODEL,
  snapshot,
  tool,
} from "./config-fixtures.js";

describeEachDialect("agents", (dialect) => {
  let server: TestServer;
  let toolsetId: string;
  beforeAll(async () => {
    // Never reached: publishing checks only that the connection is declared.
    server = await startTestServer(dialect, {
      modelConnections: {
        main: { provider: "openai", base_url: "http://127.0.0.1:9/v1" },
        claude: { provider: "anthropic", base_url: "http://127.0.0.1:9" },
      },
    });
    await createBinding(server, "tasks");
    toolsetId = await createToolset(server, [tool("tasks.read", "tasks")]);
  });

  /** POSTs a version of `agentId` with `patch` over a valid body. */
  function publish(agentId: string, patch: Record<string, unknown> = {}, key = admin.key) {
    const body = { toolset_id: toolsetId, toolset_version: 1, model: SCRIPTED_MODEL, ...patch };
    return server.call("POST", `/v1/agents/${agentId}/versions`, { key, body });
  }

  it("creates an agent: 201 with an agt_ ID", async () => {
    const answer = await server.call("POST", "/v1/agents", { ...admin, body: { name: "Support" } });
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body).sort()).toEqual(["agent_id", "created_at", "name"]);
    expect(answer.body.agent_id).toMatch(/^agt_[0-9a-z]{26}$/);
    expect(answer.body.name).toBe("Support");
    expect(answer.body.created_at).toMatch(ISO_TIME);
    expect((await server.call("GET", `/v1/agents/${answer.body.agent_id}`, admin)).body).toEqual(answer.body);
  });

  it("publishes a version: 201 with an opaque agv_ ID and the documented defaults", async () => {
    const agentId = await createAgent(server);
    const answer = await publish(agentId);
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body).sort()).toEqual([
      "agent_id",
      "agent_version",
      "created_at",
      "instructions",
      "max_context_tokens",
      "max_tool_calls",
      "max_turns",
      "model",
      "run_timeout_ms",
      "toolset_id",
      "toolset_version",
    ]);
    expect(answer.body.agent_version).toMatch(/^agv_[0-9a-z]{26}$/);
    expect(answer.body).toMatchObject({
      agent_id: agentId,
      toolset_id: toolsetId,
      toolset_version: 1,
      model: SCRIPTED_MODEL,
      instructions: "",
      max_context_tokens: 200_000,
      max_turns: null,
      max_tool_calls: null,
      run_timeout_ms: null,
    });
    const read = await server.call("GET", `/v1/agents/${agentId}/versions/${answer.body.agent_version}`, admin);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(answer.body);
  });

  it("keeps the instructions, window and every script step as sent", async () => {
    const agentId = await createAgent(server);
    const model = {
      provider: "scripted",
      script: [
        { tool_calls: [{ name: "tasks.read", arguments: { cursor: "页 2", nested: { n: [1, 2.5, null, true] } } }] },
        {
          tool_calls: [
            { name: "missing.tool", arguments: {} },
            { name: "tasks.read", arguments: {} },
          ],
        },
        { message: "完成 ✓" },
      ],
    };
    const answer = await publish(agentId, { model, instructions: "Be brief.", max_context_tokens: 1024 });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ model, instructions: "Be brief.", max_context_tokens: 1024 });
    expect((await publish(agentId, { max_context_tokens: 10_000_000 })).status).toBe(201);
  });

  it("answers the model exactly as stored: big integers and the sender's key order survive", async () => {
    const agentId = await createAgent(server);
    const args = '{"2":"b","1":"a","big":12345678901234567890123,"f":1.50,"e":1E5}';
    const text = `{"toolset_id":${JSON.stringify(toolsetId)},"toolset_version":1,"model":{"provider":"scripted","script":[{"tool_calls":[{"name":"tasks.read","arguments":${args}}]},{"message":"ok"}]}}`;
    const created = await server.call("POST", `/v1/agents/${agentId}/versions`, { ...admin, body: text });
    expect(created.status, created.text).toBe(201);
    // Compact, in the sender's order, numbers as the Python reference writes them.
    const stored = '{"2":"b","1":"a","big":12345678901234567890123,"f":1.5,"e":100000.0}';
    expect(created.text).toContain(`"arguments":${stored}`);
    const read = await server.call("GET", `/v1/agents/${agentId}/versions/${created.body.agent_version}`, admin);
    expect(read.text).toBe(created.text);
    const list = await server.call("GET", `/v1/agents/${agentId}/versions`, admin);
    expect(list.text).toBe(`{"data":[${created.text}],"next_cursor":null}`);
    // A number beyond the double range is refused as such, at its pointer.
    const huge = await server.call("POST", `/v1/agents/${agentId}/versions`, {
      ...admin,
      body: text.replace("1E5", "1E400"),
    });
    expectError(huge, 422, "number_out_of_range", "/model/script/0/tool_calls/0/arguments/e");
  });

  it("refuses invalid versions with their code and pointer, storing nothing", async () => {
    const agentId = await createAgent(server);
    await createToolset(server, []);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ toolset_id: "tls_missing" }, "unknown_reference", "/toolset_id"],
      [{ toolset_version: 2 }, "unknown_reference", "/toolset_version"],
      [{ toolset_version: 0 }, "validation_failed", "/toolset_version"],
      [{ toolset_version: "1" }, "validation_failed", "/toolset_version"],
      [{ model: { provider: "gpt", model: "gpt" } }, "validation_failed", "/model/provider"],
      [
        { model: { provider: "openai", connection: "main", model: "gpt", api_key: "sk-1" } },
        "unknown_field",
        "/model/api_key",
      ],
      [{ model: { provider: "openai", connection: "nope", model: "gpt" } }, "unknown_reference", "/model/connection"],
      [{ model: { provider: "openai", connection: "claude", model: "gpt" } }, "validation_failed", "/model/provider"],
      [
        {
          model: { provider: "openai", connection: "main", model: "gpt", max_output_tokens: 2048 },
          max_context_tokens: 2048,
        },
        "validation_failed",
        "/model/max_output_tokens",
      ],
      // The default output reservation (4096) does not fit a 1024-token window either.
      [
        { model: { provider: "anthropic", connection: "claude", model: "c" }, max_context_tokens: 1024 },
        "validation_failed",
        "/model/max_output_tokens",
      ],
      [{ model: { script: [{ message: "m" }] } }, "validation_failed", "/model/provider"],
      [{ model: "scripted" }, "validation_failed", "/model"],
      [{ model: { provider: "scripted", script: [] } }, "validation_failed", "/model/script"],
      [
        { model: { provider: "scripted", script: [{ message: "m" }], temperature: 0 } },
        "unknown_field",
        "/model/temperature",
      ],
      [
        { model: { provider: "scripted", script: [{ tool_calls: [] }] } },
        "validation_failed",
        "/model/script/0/tool_calls",
      ],
      [
        { model: { provider: "scripted", script: [{ tool_calls: [{ name: "a", arguments: 1 }] }] } },
        "validation_failed",
        "/model/script/0/tool_calls/0/arguments",
      ],
      [{ max_context_tokens: 1023 }, "validation_failed", "/max_context_tokens"],
      [{ max_context_tokens: 10_000_001 }, "validation_failed", "/max_context_tokens"],
      [{ max_context_tokens: 2048.5 }, "validation_failed", "/max_context_tokens"],
      [{ instructions: 5 }, "validation_failed", "/instructions"],
      [{ colour: "red" }, "unknown_field", "/colour"],
      [{ agent_version: "agv_mine" }, "unknown_field", "/agent_version"],
    ];
    const before = await snapshot(server);
    for (const [patch, code, pointer] of cases) expectError(await publish(agentId, patch), 422, code, pointer);
    expectError(
      await server.call("POST", `/v1/agents/${agentId}/versions`, {
        ...admin,
        body: { toolset_id: toolsetId, toolset_version: 1 },
      }),
      422,
      "validation_failed",
      "/model",
    );
    expectError(await publish("agt_missing"), 404, "not_found");
    expect(await snapshot(server)).toBe(before);
  });

  it("refuses bad agent bodies", async () => {
    const before = await snapshot(server);
    for (const [body, code, pointer] of [
      [{}, "validation_failed", "/name"],
      [{ name: "" }, "validation_failed", "/name"],
      [{ name: "a", agent_id: "agt_x" }, "unknown_field", "/agent_id"],
    ] as const) {
      expectError(await server.call("POST", "/v1/agents", { ...admin, body }), 422, code, pointer);
    }
    expect(await snapshot(server)).toBe(before);
  });

  it("publishes versions in order; earlier versions stay byte for byte; none can be changed", async () => {
    const agentId = await createAgent(server);
    const first = await publish(agentId);
    const firstText = (await server.call("GET", `/v1/agents/${agentId}/versions/${first.body.agent_version}`, admin))
      .text;
    const second = await publish(agentId, { max_context_tokens: 4096 });
    const third = await publish(agentId, { instructions: "v3" });
    const versions = await readAll(server, `/v1/agents/${agentId}/versions`, admin.key, 2);
    expect(versions.pages).toBe(2);
    expect(versions.items).toEqual([first.body, second.body, third.body]);
    expect(new Set(versions.items.map((v) => v.agent_version)).size).toBe(3);
    const path = `/v1/agents/${agentId}/versions/${first.body.agent_version}`;
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      expect((await server.call(method, path, { ...admin, body: {} })).status, method).toBe(405);
    }
    expect((await server.call("GET", path, admin)).text).toBe(firstText);
  });

  it("answers 404 for a version read under another agent", async () => {
    const a = await createAgent(server);
    const b = await createAgent(server);
    const version = (await publish(a)).body.agent_version;
    expectError(await server.call("GET", `/v1/agents/${b}/versions/${version}`, admin), 404, "not_found");
    expectError(await server.call("GET", `/v1/agents/${a}/versions/agv_missing`, admin), 404, "not_found");
    expectError(await server.call("GET", "/v1/agents/agt_missing", admin), 404, "not_found");
    expectError(await server.call("GET", "/v1/agents/agt_missing/versions", admin), 404, "not_found");
  });

  it("lists agents in creation order across pages", async () => {
    const made = [await createAgent(server), await createAgent(server), await createAgent(server)];
    const all = await readAll(server, "/v1/agents");
    const paged = await readAll(server, "/v1/agents", admin.key, 2);
    expect(paged.items).toEqual(all.items);
    expect(paged.pages).toBe(Math.ceil(all.items.length / 2));
    expect(all.items.slice(-3).map((a) => a.agent_id)).toEqual(made);
  });

  it("shows an agent-scoped key only its agents; it may publish their versions but not create agents", async () => {
    const mine = await createAgent(server);
    const theirs = await createAgent(server);
    const theirVersion = await createAgentVersion(server, theirs, toolsetId);
    const { key } = await createKey(server, {
      name: "one agent",
      scopes: ["configuration:read", "configuration:write"],
      agents: [mine],
    });
    expect((await readAll(server, "/v1/agents", key)).items.map((a) => a.agent_id)).toEqual([mine]);
    const before = await snapshot(server);
    expectError(await server.call("POST", "/v1/agents", { key, body: { name: "new" } }), 403, "forbidden");
    for (const path of [
      `/v1/agents/${theirs}`,
      `/v1/agents/${theirs}/versions`,
      `/v1/agents/${theirs}/versions/${theirVersion}`,
    ]) {
      expectError(await server.call("GET", path, { key }), 404, "not_found");
    }
    expectError(await publish(theirs, {}, key), 404, "not_found");
    expect(await snapshot(server)).toBe(before);
    const own = await publish(mine, {}, key);
    expect(own.status).toBe(201);
    expect((await server.call("GET", `/v1/agents/${mine}/versions/${own.body.agent_version}`, { key })).status).toBe(
      200,
    );
  });
});
