// /v1/toolsets: publish toolsets and immutable versions; every tool rule answers its own code and
// pointer (field_removed, unknown_field, invalid_budget, …); bindings must be registered and in scope;
// a refused request stores nothing; versions only grow and never change.
import { beforeAll, expect, it } from "vitest";
import { createKey, startTestServer, type TestServer } from "../http/http-harness.js";
import { describeEachDialect } from "../support/test-databases.js";
import {
  admin,
  createBinding,
  createToolset,
  expectError,
  ISO_TIME,
  readAll,
  snapshot,
  tool,
} from "./config-fixtures.js";

const FULL_TOOL = {
  name: "tasks.read",
  description: "分页读取任务",
  binding_id: "tasks",
  input_schema: { type: "object", properties: { cursor: { type: "string" } } },
  output_schema: { type: "object" },
  max_result_context_bytes: 4096,
  effect: "read",
  timeout_ms: 30_000,
};

describeEachDialect("toolsets", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    await createBinding(server, "tasks");
    await createBinding(server, "mail");
  });

  /** POSTs `tools` to a new toolset (or as a version of `toolsetId`) with `key` (default: admin). */
  function publish(tools: unknown, toolsetId?: string, key = admin.key) {
    return toolsetId === undefined
      ? server.call("POST", "/v1/toolsets", { key, body: { name: "ts", tools } })
      : server.call("POST", `/v1/toolsets/${toolsetId}/versions`, { key, body: { tools } });
  }

  it("creates a toolset: 201 with version 1 and every default filled in", async () => {
    const answer = await server.call("POST", "/v1/toolsets", {
      ...admin,
      body: {
        name: "Tasks",
        tools: [FULL_TOOL, { name: "mail.send", binding_id: "mail", input_schema: { type: "object" } }],
      },
    });
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body).sort()).toEqual(["created_at", "name", "tools", "toolset_id", "version"]);
    expect(answer.body.toolset_id).toMatch(/^tls_[0-9a-z]{26}$/);
    expect(answer.body).toMatchObject({ version: 1, name: "Tasks" });
    expect(answer.body.created_at).toMatch(ISO_TIME);
    expect(answer.body.tools).toEqual([
      FULL_TOOL,
      {
        name: "mail.send",
        description: "",
        binding_id: "mail",
        input_schema: { type: "object" },
        output_schema: {},
        max_result_context_bytes: 16384,
        effect: "write",
        timeout_ms: 300_000,
      },
    ]);
    const id = answer.body.toolset_id;
    const toolset = await server.call("GET", `/v1/toolsets/${id}`, admin);
    expect(toolset.body).toEqual({
      toolset_id: id,
      name: "Tasks",
      latest_version: 1,
      created_at: answer.body.created_at,
    });
    const version = await server.call("GET", `/v1/toolsets/${id}/versions/1`, admin);
    expect(version.status).toBe(200);
    expect(version.body).toEqual({
      toolset_id: id,
      version: 1,
      tools: answer.body.tools,
      created_at: answer.body.created_at,
    });
  });

  it("accepts an empty tool list and the budget bounds 1,024 and 32,768", async () => {
    expect((await publish([])).body.tools).toEqual([]);
    const answer = await publish([
      tool("small", "tasks", { max_result_context_bytes: 1024 }),
      tool("large", "tasks", { max_result_context_bytes: 32768 }),
    ]);
    expect(answer.status).toBe(201);
    expect(answer.body.tools.map((t: { max_result_context_bytes: number }) => t.max_result_context_bytes)).toEqual([
      1024, 32768,
    ]);
  });

  /** Each refused tool list: its code and pointer, the same on creation and on a new version. */
  const REFUSED: Array<[string, unknown, string, string]> = [
    [
      "the removed max_result_tokens",
      [tool("a", "tasks", { max_result_tokens: 2000 })],
      "field_removed",
      "/tools/0/max_result_tokens",
    ],
    [
      "the removed max_result_bytes",
      [tool("a", "tasks", { max_result_bytes: 2000 })],
      "field_removed",
      "/tools/0/max_result_bytes",
    ],
    ["an unknown tool field", [tool("a", "tasks", { colour: "red" })], "unknown_field", "/tools/0/colour"],
    [
      "a budget of 1023",
      [tool("a", "tasks", { max_result_context_bytes: 1023 })],
      "invalid_budget",
      "/tools/0/max_result_context_bytes",
    ],
    [
      "a budget of 32769",
      [tool("a", "tasks"), tool("b", "tasks", { max_result_context_bytes: 32769 })],
      "invalid_budget",
      "/tools/1/max_result_context_bytes",
    ],
    [
      "a fractional budget",
      [tool("a", "tasks", { max_result_context_bytes: 2048.5 })],
      "invalid_budget",
      "/tools/0/max_result_context_bytes",
    ],
    [
      "a budget as text",
      [tool("a", "tasks", { max_result_context_bytes: "16384" })],
      "invalid_budget",
      "/tools/0/max_result_context_bytes",
    ],
    [
      "a null budget",
      [tool("a", "tasks", { max_result_context_bytes: null })],
      "invalid_budget",
      "/tools/0/max_result_context_bytes",
    ],
    [
      "an input schema that is not of type object",
      [tool("a", "tasks", { input_schema: { type: "string" } })],
      "invalid_schema",
      "/tools/0/input_schema/type",
    ],
    [
      "an invalid JSON Schema",
      [tool("a", "tasks", { input_schema: { type: "object", minProperties: -1 } })],
      "invalid_schema",
      "/tools/0/input_schema/minProperties",
    ],
    ["a repeated tool name", [tool("a", "tasks"), tool("a", "mail")], "duplicate_tool_name", "/tools/1/name"],
    [
      "a tool without a name",
      [{ binding_id: "tasks", input_schema: { type: "object" } }],
      "validation_failed",
      "/tools/0/name",
    ],
    ["a tool name with a space", [tool("a b", "tasks")], "validation_failed", "/tools/0/name"],
    ["an unknown effect", [tool("a", "tasks", { effect: "delete" })], "validation_failed", "/tools/0/effect"],
    ["a timeout of 0", [tool("a", "tasks", { timeout_ms: 0 })], "validation_failed", "/tools/0/timeout_ms"],
    ["a tool that is not an object", ["tasks.read"], "validation_failed", "/tools/0"],
    ["tools that are not a list", { a: tool("a", "tasks") }, "validation_failed", "/tools"],
    ["an unregistered binding", [tool("a", "tasks"), tool("b", "nowhere")], "unknown_reference", "/tools/1/binding_id"],
    ["a binding ID no binding can have", [tool("a", "not an id")], "unknown_reference", "/tools/0/binding_id"],
    [
      "129 tools, one more than a toolset version holds",
      Array.from({ length: 129 }, (_, i) => tool(`t${i}`, "tasks")),
      "too_many_tools",
      "/tools",
    ],
  ];

  for (const [what, tools, code, pointer] of REFUSED) {
    it(`refuses ${what}: 422 ${code} at ${pointer}, on creation and on a new version, storing nothing`, async () => {
      const existing = await createToolset(server, [tool("kept", "tasks")]);
      const before = await snapshot(server);
      expectError(await publish(tools), 422, code, pointer);
      expectError(await publish(tools, existing), 422, code, pointer);
      expect(await snapshot(server)).toBe(before);
    });
  }

  it("keeps a toolset version of 128 tools, the most one holds", async () => {
    const tools = Array.from({ length: 128 }, (_, i) => tool(`t${i}`, "tasks"));
    const toolsetId = await createToolset(server, tools);
    const read = await server.call("GET", `/v1/toolsets/${toolsetId}/versions/1`, admin);
    expect(read.status, read.text).toBe(200);
    expect(read.body.tools).toHaveLength(128);
  });

  it("names the replacement of a removed field, without alias", async () => {
    const answer = await publish([tool("a", "tasks", { max_result_tokens: 2000 })]);
    expect(answer.body.error.message).toContain("max_result_context_bytes");
    expect(answer.body.error.details).toMatchObject({
      field: "max_result_tokens",
      replacement: "max_result_context_bytes",
    });
  });

  it("refuses bad toolset bodies with the pointer at fault", async () => {
    const before = await snapshot(server);
    const cases: Array<[string, string, unknown, string, string]> = [
      ["POST", "/v1/toolsets", { tools: [] }, "validation_failed", "/name"],
      ["POST", "/v1/toolsets", { name: "x" }, "validation_failed", "/tools"],
      ["POST", "/v1/toolsets", { name: "", tools: [] }, "validation_failed", "/name"],
      ["POST", "/v1/toolsets", { name: "x", tools: [], colour: 1 }, "unknown_field", "/colour"],
      ["POST", "/v1/toolsets", { name: "x", tools: [], version: 2 }, "unknown_field", "/version"],
    ];
    for (const [method, path, body, code, pointer] of cases) {
      expectError(await server.call(method, path, { ...admin, body }), 422, code, pointer);
    }
    expect(await snapshot(server)).toBe(before);
  });

  it("answers 404 for an unknown toolset or version, 422 for a version that is not a number", async () => {
    const id = await createToolset(server, []);
    expectError(await server.call("GET", "/v1/toolsets/tls_nope", admin), 404, "not_found");
    expectError(await server.call("GET", "/v1/toolsets/tls_nope/versions", admin), 404, "not_found");
    expectError(await server.call("GET", `/v1/toolsets/${id}/versions/2`, admin), 404, "not_found");
    expectError(await server.call("GET", `/v1/toolsets/${id}/versions/2147483647`, admin), 404, "not_found");
    expectError(await publish([], "tls_nope"), 404, "not_found");
    for (const version of ["0", "one", "1.5", "2147483648"]) {
      const answer = await server.call("GET", `/v1/toolsets/${id}/versions/${version}`, admin);
      expectError(answer, 422, "validation_failed", "/version");
    }
  });

  it("publishes versions 2, 3 …; earlier versions stay byte for byte; there is no route to change one", async () => {
    const id = await createToolset(server, [tool("a", "tasks", { max_result_context_bytes: 2048 })]);
    const v1 = await server.call("GET", `/v1/toolsets/${id}/versions/1`, admin);
    const second = await publish([tool("a", "tasks", { max_result_context_bytes: 8192 })], id);
    expect(second.status).toBe(201);
    expect(Object.keys(second.body).sort()).toEqual(["created_at", "tools", "toolset_id", "version"]);
    expect(second.body).toMatchObject({ toolset_id: id, version: 2 });
    expect(second.body.tools[0].max_result_context_bytes).toBe(8192);
    const third = await publish([tool("b", "mail")], id);
    expect(third.body.version).toBe(3);
    expect((await server.call("GET", `/v1/toolsets/${id}/versions/1`, admin)).text).toBe(v1.text);
    expect((await server.call("GET", `/v1/toolsets/${id}`, admin)).body.latest_version).toBe(3);
    const versions = await readAll(server, `/v1/toolsets/${id}/versions`, admin.key, 1);
    expect(versions.pages).toBe(3);
    expect(versions.items.map((v) => v.version)).toEqual([1, 2, 3]);
    expect(versions.items[0]).toEqual(v1.body);
    expect(versions.items[1]).toEqual(second.body);
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const answer = await server.call(method, `/v1/toolsets/${id}/versions/1`, { ...admin, body: { tools: [] } });
      expect(answer.status, method).toBe(405);
      expect(answer.body.error.code).toBe("method_not_allowed");
    }
    expect((await server.call("GET", `/v1/toolsets/${id}/versions/1`, admin)).text).toBe(v1.text);
  });

  it("gives concurrent new versions distinct, consecutive numbers", async () => {
    const id = await createToolset(server, []);
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => publish([], id)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(answers.map((a) => a.body.version).sort()).toEqual([2, 3, 4, 5, 6]);
  });

  it("lists toolsets in creation order across pages", async () => {
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push(await createToolset(server, []));
    const all = await readAll(server, "/v1/toolsets");
    const paged = await readAll(server, "/v1/toolsets", admin.key, 2);
    expect(paged.items).toEqual(all.items);
    expect(paged.pages).toBe(Math.ceil(all.items.length / 2));
    expect(all.items.slice(-3).map((t) => t.toolset_id)).toEqual(made);
    expect(Object.keys(all.items[0] ?? {}).sort()).toEqual(["created_at", "latest_version", "name", "toolset_id"]);
  });

  it("refuses a binding outside the key's binding scope exactly like a missing one", async () => {
    const { key } = await createKey(server, {
      name: "tasks only",
      scopes: ["configuration:write", "configuration:read"],
      bindings: ["tasks"],
    });
    const before = await snapshot(server);
    const outside = await publish([tool("a", "tasks"), tool("b", "mail")], undefined, key);
    const missing = await publish([tool("a", "tasks"), tool("b", "gone")], undefined, key);
    expectError(outside, 422, "unknown_reference", "/tools/1/binding_id");
    expectError(missing, 422, "unknown_reference", "/tools/1/binding_id");
    expect(outside.body.error.message.replace('"mail"', "X")).toBe(missing.body.error.message.replace('"gone"', "X"));
    expect(await snapshot(server)).toBe(before);
    expect((await publish([tool("a", "tasks")], undefined, key)).status).toBe(201);
  });
});
