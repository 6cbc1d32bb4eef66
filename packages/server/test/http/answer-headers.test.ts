// Every /v1 answer says `cache-control: no-store` and `x-content-type-options: nosniff`: successes
// (a new key's secret included), errors of every stage (before the route, during body reading,
// validation, authorization), 404s and the event stream.
import { beforeAll, describe, expect, it } from "vitest";
import { BOOTSTRAP_SECRET, startTestServer, type TestServer } from "./http-harness.js";

const admin = { authorization: `Bearer ${BOOTSTRAP_SECRET}` };
const json = { ...admin, "content-type": "application/json" };

describe("answer headers of the API", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite", { logLevel: "warn", bodyLimitBytes: 1024 });
  });

  /** The two headers of one answer, and its status. */
  async function headersOf(path: string, init: RequestInit = {}) {
    const response = await fetch(new URL(path, server.url), init);
    await response.body?.cancel();
    return {
      status: response.status,
      cache: response.headers.get("cache-control"),
      sniff: response.headers.get("x-content-type-options"),
    };
  }

  it("are on successes, a new key's secret included, and on every kind of error", async () => {
    const cases: Array<[string, RequestInit, number]> = [
      ["/v1/health", {}, 200],
      ["/v1/ready", {}, 200],
      ["/v1/keys", { method: "POST", headers: json, body: '{"name":"k","scopes":["runtime:read"]}' }, 201],
      ["/v1/keys", { headers: admin }, 200],
      ["/v1/keys", {}, 401],
      ["/v1/keys", { headers: { authorization: "Bearer wrong" } }, 401],
      ["/v1/nothing-here", { headers: admin }, 404],
      ["/v1/runs/run_missing", { headers: admin }, 404],
      ["/v1/keys", { method: "POST", headers: json, body: "{" }, 400],
      ["/v1/keys", { method: "POST", headers: json, body: JSON.stringify({ name: "x".repeat(2000) }) }, 413],
      ["/v1/keys", { method: "POST", headers: { ...admin, "content-type": "text/plain" }, body: "{}" }, 415],
      ["/v1/keys", { method: "POST", headers: json, body: '{"name":"k"}' }, 422],
      ["/v1/keys?limit=0", { headers: admin }, 422],
      ["/v1/health", { method: "DELETE" }, 405],
    ];
    for (const [path, init, status] of cases) {
      expect({ path, ...(await headersOf(path, init)) }).toEqual({
        path,
        status,
        cache: "no-store",
        sniff: "nosniff",
      });
    }
  });

  it("are on the event stream", async () => {
    const agent = await server.call("POST", "/v1/agents", { key: BOOTSTRAP_SECRET, body: { name: "headers" } });
    expect(agent.status, agent.text).toBe(201);
    const binding = await server.call("POST", "/v1/executor-bindings", {
      key: BOOTSTRAP_SECRET,
      body: { binding_id: "headers-binding", name: "b" },
    });
    expect(binding.status, binding.text).toBe(201);
    const toolset = await server.call("POST", "/v1/toolsets", {
      key: BOOTSTRAP_SECRET,
      body: {
        name: "t",
        tools: [{ name: "a.b", description: "d", binding_id: "headers-binding", input_schema: { type: "object" } }],
      },
    });
    const version = await server.call("POST", `/v1/agents/${agent.body.agent_id}/versions`, {
      key: BOOTSTRAP_SECRET,
      body: {
        toolset_id: toolset.body.toolset_id,
        toolset_version: 1,
        model: { provider: "scripted", script: [{ message: "hi" }] },
      },
    });
    const session = await server.call("POST", "/v1/sessions", {
      key: BOOTSTRAP_SECRET,
      body: { agent_version: version.body.agent_version, subject: "u" },
    });
    const run = await server.call("POST", `/v1/sessions/${session.body.session_id}/runs`, {
      key: BOOTSTRAP_SECRET,
      body: { input: "go" },
    });
    expect(run.status, run.text).toBe(201);
    const stream = await headersOf(`/v1/runs/${run.body.run_id}/events`, { headers: admin });
    expect(stream).toEqual({ status: 200, cache: "no-store", sniff: "nosniff" });
  });

  it("are not forced on the console's pages, which set their own caching", async () => {
    const page = await headersOf("/");
    expect(page.cache).not.toBe("no-store");
  });
});
