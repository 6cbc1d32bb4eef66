// Toolsets belong to the bindings their versions reference (issue #9, defect 8): a key sees and
// publishes versions of a toolset only when its binding scope holds every binding of every version;
// an agent version cannot pin a toolset its key cannot see; a dry-run shows only tools on bindings
// the key reaches. Outside: 404 (422 `unknown_reference` for a pinned toolset), like missing.
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
  readAll,
  SCRIPTED_MODEL,
  snapshot,
  tool,
} from "./config-fixtures.js";

const CONFIGURATION = ["configuration:read", "configuration:write"];

describeEachDialect("toolset reach", (dialect) => {
  let server: TestServer;
  let keyA: string;
  let keyB: string;
  let toolsetA: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    await createBinding(server, "bnd_A");
    await createBinding(server, "bnd_B");
    keyA = (await createKey(server, { name: "A", scopes: CONFIGURATION, bindings: ["bnd_A"] })).key;
    keyB = (await createKey(server, { name: "B", scopes: CONFIGURATION, bindings: ["bnd_B"] })).key;
    toolsetA = await createToolset(server, [tool("crm.delete", "bnd_A")], keyA);
  });

  const visibleTo = async (key: string) =>
    (await readAll(server, "/v1/toolsets", key)).items.map((item) => item.toolset_id as string);

  it("another tenant's key can neither read a toolset nor move its tools to its own binding", async () => {
    const before = await snapshot(server);
    const hijack = await server.call("POST", `/v1/toolsets/${toolsetA}/versions`, {
      key: keyB,
      body: { tools: [tool("crm.delete", "bnd_B")] },
    });
    expectError(hijack, 404, "not_found");
    expect(hijack.body.error.message).toBe(`toolset ${JSON.stringify(toolsetA)} not found`);
    expect(await snapshot(server)).toBe(before);
    for (const path of ["", "/versions", "/versions/1"]) {
      expectError(await server.call("GET", `/v1/toolsets/${toolsetA}${path}`, { key: keyB }), 404, "not_found");
      expect((await server.call("GET", `/v1/toolsets/${toolsetA}${path}`, { key: keyA })).status).toBe(200);
    }
    expect(await visibleTo(keyB)).not.toContain(toolsetA);
    expect(await visibleTo(keyA)).toContain(toolsetA);
  });

  it("a toolset on two bindings is visible only to keys holding both; a version adding one hides it", async () => {
    const mixed = await createToolset(server, [tool("a.read", "bnd_A"), tool("b.read", "bnd_B")]);
    expect(await visibleTo(keyA)).not.toContain(mixed);
    expect(await visibleTo(keyB)).not.toContain(mixed);
    expect(await visibleTo(admin.key)).toContain(mixed);
    expectError(await server.call("GET", `/v1/toolsets/${mixed}`, { key: keyA }), 404, "not_found");

    const grows = await createToolset(server, [tool("a.read", "bnd_A")], keyA);
    expect(await visibleTo(keyA)).toContain(grows);
    // An unrestricted key adds a tool on bnd_B: the whole toolset, version 1 included, leaves A's reach.
    const widened = await server.call("POST", `/v1/toolsets/${grows}/versions`, {
      ...admin,
      body: { tools: [tool("a.read", "bnd_A"), tool("b.read", "bnd_B")] },
    });
    expect(widened.status, widened.text).toBe(201);
    expect(await visibleTo(keyA)).not.toContain(grows);
    expectError(await server.call("GET", `/v1/toolsets/${grows}/versions/1`, { key: keyA }), 404, "not_found");
    const append = await server.call("POST", `/v1/toolsets/${grows}/versions`, {
      key: keyA,
      body: { tools: [tool("a.read", "bnd_A")] },
    });
    expectError(append, 404, "not_found");
  });

  it("an empty toolset references no binding: every configuration:read key sees it", async () => {
    const empty = await createToolset(server, [], keyA);
    expect(await visibleTo(keyB)).toContain(empty);
    const none = (await createKey(server, { name: "none", scopes: ["configuration:read"], bindings: [] })).key;
    expect(await visibleTo(none)).toEqual(expect.arrayContaining([empty]));
    expect(await visibleTo(none)).not.toContain(toolsetA);
  });

  it("an agent version cannot pin a toolset its key cannot see: 422 at /toolset_id, as if missing", async () => {
    const agentKey = (
      await createKey(server, { name: "agents", scopes: CONFIGURATION, agents: "*", bindings: ["bnd_B"] })
    ).key;
    const agent = await createAgent(server, agentKey);
    const before = await snapshot(server);
    const pinned = await server.call("POST", `/v1/agents/${agent}/versions`, {
      key: agentKey,
      body: { toolset_id: toolsetA, toolset_version: 1, model: SCRIPTED_MODEL },
    });
    expectError(pinned, 422, "unknown_reference", "/toolset_id");
    expect(pinned.body.error.message).toBe(`toolset ${JSON.stringify(toolsetA)} does not exist`);
    expect(await snapshot(server)).toBe(before);
    const own = await createToolset(server, [tool("b.read", "bnd_B")], agentKey);
    expect(await createAgentVersion(server, agent, own, 1, agentKey)).toMatch(/^agv_/);
  });

  it("a dry-run shows only tools on bindings the key reaches: others answer 404 at /tool_name", async () => {
    const mixed = await createToolset(server, [tool("a.read", "bnd_A"), tool("b.read", "bnd_B")]);
    const agent = await createAgent(server);
    const version = await createAgentVersion(server, agent, mixed);
    const runtimeB = (await createKey(server, { name: "runtime B", scopes: ["runtime:read"], bindings: ["bnd_B"] }))
      .key;
    const dryRun = (toolName: string, key: string) =>
      server.call("POST", "/v1/tools/dry-run", {
        key,
        body: { agent_version: version, tool_name: toolName, arguments: {} },
      });
    const outside = await dryRun("a.read", runtimeB);
    expectError(outside, 404, "not_found", "/tool_name");
    expect(outside.body.error.details).toEqual({ tools: ["b.read"] });
    const missing = await dryRun("c.read", runtimeB);
    // The same answer but for the message and the request's own ID.
    expect(missing.body.error).toEqual({
      ...outside.body.error,
      message: missing.body.error.message,
      request_id: missing.body.error.request_id,
    });
    expect(missing.body.error.request_id).not.toBe(outside.body.error.request_id);
    expect((await dryRun("b.read", runtimeB)).status).toBe(200);
    expect((await dryRun("a.read", admin.key)).status).toBe(200);
  });
});
