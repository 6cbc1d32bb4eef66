// Who may use the run routes: no key 401, a key without the scope 403 (reads need runtime:read,
// writes runtime:write), a key whose agent scope lacks the run's agent 404 exactly like a missing
// run — and none of the refused requests changes anything.
import { beforeAll, expect, it } from "vitest";
import { createAgent, expectError } from "../config/config-fixtures.js";
import { createKey, startTestServer, type TestServer } from "../http/http-harness.js";
import { describeEachDialect } from "../support/test-databases.js";
import { at, callsOf, publishScript, read, startRun } from "./run-fixtures.js";

describeEachDialect("run routes authorization", (dialect) => {
  let server: TestServer;
  let runId: string;
  let callId: string;
  let sessionId: string;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const script = await publishScript(server, [{ tool_calls: [{ name: "tasks.create", arguments: { title: "a" } }] }]);
    sessionId = script.sessionId;
    runId = (await startRun(server, sessionId)).body.run_id;
    callId = at(await callsOf(server, runId), 0).call_id;
    const otherAgent = await createAgent(server);
    const scopes = {
      reader: { scopes: ["runtime:read"] },
      writer: { scopes: ["runtime:write"] },
      config: { scopes: ["configuration:read", "configuration:write", "tools:execute", "executors:connect"] },
      foreign: { scopes: ["runtime:read", "runtime:write"], agents: [otherAgent] },
      scoped: { scopes: ["runtime:read", "runtime:write"], agents: [script.agentId] },
    };
    for (const [name, body] of Object.entries(scopes)) keys[name] = (await createKey(server, { name, ...body })).key;
  });

  const reads = (): Array<[string, string]> => [
    ["GET", `/v1/sessions/${sessionId}/runs`],
    ["GET", `/v1/runs/${runId}`],
    ["GET", `/v1/runs/${runId}/tool-calls`],
    ["GET", `/v1/runs/${runId}/history`],
  ];
  const writes = (): Array<[string, string, unknown]> => [
    ["POST", `/v1/sessions/${sessionId}/runs`, { input: "x" }],
    [
      "POST",
      `/v1/runs/${runId}/tool-calls/${callId}/compensate`,
      { tool_name: "tasks.delete", arguments: { task_id: "1" } },
    ],
    ["POST", `/v1/runs/${runId}/tool-calls/${callId}/cancel`, {}],
    ["POST", `/v1/runs/${runId}/cancel`, {}],
  ];

  async function state(): Promise<string> {
    const parts = await Promise.all([
      read(server, `/v1/runs/${runId}`),
      read(server, `/v1/runs/${runId}/tool-calls`),
      read(server, `/v1/runs/${runId}/history`),
      read(server, `/v1/sessions/${sessionId}/runs`),
    ]);
    return parts.map((part) => part.text).join("\n");
  }

  it("answers 401 without a valid key", async () => {
    const before = await state();
    for (const [method, path] of reads()) expectError(await server.call(method, path), 401, "unauthorized");
    for (const [method, path, body] of writes()) {
      expectError(await server.call(method, path, { body }), 401, "unauthorized");
      expectError(await server.call(method, path, { key: "th_not-a-key", body }), 401, "unauthorized");
    }
    expect(await state()).toBe(before);
  });

  it("answers 403 without the scope: reads need runtime:read, writes runtime:write", async () => {
    const before = await state();
    for (const [method, path] of reads()) {
      expectError(await server.call(method, path, { key: keys.config }), 403, "forbidden");
      expectError(await server.call(method, path, { key: keys.writer }), 403, "forbidden");
      expect((await server.call(method, path, { key: keys.reader })).status).toBe(200);
    }
    for (const [method, path, body] of writes()) {
      expectError(await server.call(method, path, { key: keys.config, body }), 403, "forbidden");
      expectError(await server.call(method, path, { key: keys.reader, body }), 403, "forbidden");
    }
    expect(await state()).toBe(before);
  });

  it("answers 404 for runs and sessions of agents outside the key's agent scope, like missing ones", async () => {
    const before = await state();
    for (const [method, path] of reads()) {
      const answer = await server.call(method, path, { key: keys.foreign });
      expectError(answer, 404, "not_found");
      expect((await server.call(method, path, { key: keys.scoped })).status).toBe(200);
    }
    for (const [method, path, body] of writes()) {
      expectError(await server.call(method, path, { key: keys.foreign, body }), 404, "not_found");
    }
    const missing = await server.call("GET", "/v1/runs/run_00000000000000000000000000", { key: keys.scoped });
    const foreign = await server.call("GET", `/v1/runs/${runId}`, { key: keys.foreign });
    expect(foreign.body.error.message.replace(runId, "ID")).toBe(
      missing.body.error.message.replace("run_00000000000000000000000000", "ID"),
    );
    expect(await state()).toBe(before);
  });

  it("lets a key scoped to the run's agent write", async () => {
    const answer = await server.call("POST", `/v1/runs/${runId}/tool-calls/${callId}/cancel`, {
      key: keys.scoped,
      body: {},
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ call_id: callId, status: "cancelled" });
  });
});
