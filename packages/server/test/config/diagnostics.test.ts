// GET /v1/agents/{agent_id}/executor-bindings/{binding_id}/diagnostics: references across the agent's
// versions, the tools on the binding, executor and call placeholders, named checks; scopes and 404s.
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
  tool,
} from "./config-fixtures.js";

const EMPTY_RUNTIME = {
  executors: { online: [], last_heartbeat_at: null },
  calls: { pending: 0, claimed: 0, accepted: 0, reconciliation_required: 0, oldest_pending_age_ms: null },
  last_verified_execution: null,
};

describeEachDialect("binding diagnostics", (dialect) => {
  let server: TestServer;
  let toolsetId: string;
  let agentId: string;
  let av1: string;
  let av2: string;
  const diagnostics = (agent: string, binding: string, key = admin.key) =>
    server.call("GET", `/v1/agents/${agent}/executor-bindings/${binding}/diagnostics`, { key });

  beforeAll(async () => {
    server = await startTestServer(dialect);
    for (const id of ["tasks", "mail", "idle"]) await createBinding(server, id);
    toolsetId = await createToolset(server, [
      tool("tasks.read", "tasks", { effect: "read", max_result_context_bytes: 4096 }),
      tool("mail.send", "mail"),
    ]);
    await server.call("POST", `/v1/toolsets/${toolsetId}/versions`, {
      ...admin,
      body: { tools: [tool("tasks.list", "tasks")] },
    });
    agentId = await createAgent(server);
    av1 = await createAgentVersion(server, agentId, toolsetId, 1);
    av2 = await createAgentVersion(server, agentId, toolsetId, 2);
  });

  it("reports a binding referenced by several versions, with each version's tools on it", async () => {
    const answer = await diagnostics(agentId, "tasks");
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual([
      "agent_id",
      "binding_id",
      "calls",
      "checks",
      "executors",
      "last_verified_execution",
      "referenced",
      "referenced_by",
      "tools",
    ]);
    expect(answer.body).toMatchObject({
      agent_id: agentId,
      binding_id: "tasks",
      referenced: true,
      referenced_by: [
        { agent_version: av1, toolset_id: toolsetId, toolset_version: 1 },
        { agent_version: av2, toolset_id: toolsetId, toolset_version: 2 },
      ],
      tools: [
        { name: "tasks.read", agent_version: av1, effect: "read", max_result_context_bytes: 4096 },
        { name: "tasks.list", agent_version: av2, effect: "write", max_result_context_bytes: 16384 },
      ],
      ...EMPTY_RUNTIME,
    });
  });

  it("reports a binding only an older version references", async () => {
    const answer = await diagnostics(agentId, "mail");
    expect(answer.body.referenced).toBe(true);
    expect(answer.body.referenced_by).toEqual([{ agent_version: av1, toolset_id: toolsetId, toolset_version: 1 }]);
    expect(answer.body.tools).toEqual([
      { name: "mail.send", agent_version: av1, effect: "write", max_result_context_bytes: 16384 },
    ]);
  });

  it("names its checks in order; executor_online fails while no executor has connected", async () => {
    const { checks } = (await diagnostics(agentId, "tasks")).body;
    expect(checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok])).toEqual([
      ["binding_exists", true],
      ["agent_has_versions", true],
      ["binding_referenced", true],
      ["executor_online", false],
      ["tools_served", false],
      ["no_stale_pending", true],
      ["no_reconciliation_backlog", true],
      ["execution_verified", false],
    ]);
    expect(checks[2].message).toContain("tasks.read, tasks.list");
    expect(checks[3].message).toMatch(/no executor is online for binding "tasks"; start an executor/);
    expect(checks[4].message).toMatch(/^no online executor serves tools "tasks.read", "tasks.list" on binding "tasks"/);
  });

  it("reports an unreferenced binding and an agent without versions", async () => {
    const idle = (await diagnostics(agentId, "idle")).body;
    expect(idle).toMatchObject({ referenced: false, referenced_by: [], tools: [], ...EMPTY_RUNTIME });
    const referenced = idle.checks.find((c: { name: string }) => c.name === "binding_referenced");
    expect(referenced.ok).toBe(false);
    expect(referenced.message).toContain("never call this binding");
    const fresh = await createAgent(server);
    const empty = (await diagnostics(fresh, "tasks")).body;
    expect(empty.referenced).toBe(false);
    expect(empty.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok])).toEqual([
      ["binding_exists", true],
      ["agent_has_versions", false],
      ["binding_referenced", false],
      ["executor_online", false],
      ["tools_served", true],
      ["no_stale_pending", true],
      ["no_reconciliation_backlog", true],
      ["execution_verified", false],
    ]);
  });

  it("answers 404 for a missing agent or binding and for one outside the key's scopes", async () => {
    expectError(await diagnostics("agt_missing", "tasks"), 404, "not_found");
    expectError(await diagnostics(agentId, "missing"), 404, "not_found");
    const other = await createAgent(server);
    const { key } = await createKey(server, {
      name: "narrow",
      scopes: ["runtime:read"],
      agents: [agentId],
      bindings: ["tasks"],
    });
    expect((await diagnostics(agentId, "tasks", key)).status).toBe(200);
    expectError(await diagnostics(agentId, "mail", key), 404, "not_found");
    expectError(await diagnostics(other, "tasks", key), 404, "not_found");
    const missing = await diagnostics(agentId, "gone", key);
    const outside = await diagnostics(agentId, "mail", key);
    expect(outside.body.error.message.replace('"mail"', "X")).toBe(missing.body.error.message.replace('"gone"', "X"));
  });

  it("admits configuration:read or runtime:read only", async () => {
    for (const scopes of [["configuration:read"], ["runtime:read"]]) {
      const { key } = await createKey(server, { name: "reader", scopes });
      expect((await diagnostics(agentId, "tasks", key)).status, scopes[0]).toBe(200);
    }
    const { key } = await createKey(server, { name: "writer", scopes: ["configuration:write", "tools:execute"] });
    expectError(await diagnostics(agentId, "tasks", key), 403, "forbidden");
    expectError(
      await server.call("GET", `/v1/agents/${agentId}/executor-bindings/tasks/diagnostics`),
      401,
      "unauthorized",
    );
  });
});
