// GET /v1/executors: the executors a key may see (all bindings of their current connection in its
// binding scope), by executor ID, paged; online only while connected and leased; a key with neither
// configuration:read nor runtime:read is refused.
import { beforeAll, expect, it } from "vitest";
import { createBinding, expectError, ISO_TIME } from "../config/config-fixtures.js";
import { BOOTSTRAP_SECRET, createKey, startTestServer, type TestServer } from "../http/http-harness.js";
import { describeEachDialect } from "../support/test-databases.js";

const admin = { key: BOOTSTRAP_SECRET };

describeEachDialect("GET /v1/executors", (dialect) => {
  let server: TestServer;
  let red: string;
  let blue: string;

  async function connect(executorId: string, bindingIds: string[], toolNames?: string[]): Promise<string> {
    const answer = await server.call("POST", "/v1/executors/connect", {
      ...admin,
      body: { executor_id: executorId, binding_ids: bindingIds, ...(toolNames ? { tool_names: toolNames } : {}) },
    });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.connection_id;
  }

  function ids(answer: { body: { data: Array<{ executor_id: string }> } }): string[] {
    return answer.body.data.map((executor) => executor.executor_id);
  }

  beforeAll(async () => {
    server = await startTestServer(dialect);
    red = await createBinding(server, "red");
    blue = await createBinding(server, "blue");
    await connect("exec-c", [red]);
    await connect("exec-a", [blue]);
    await connect("exec-b", [red, blue], ["tasks.read", "tasks.create"]);
    const detached = await connect("exec-d", [red]);
    const gone = await server.call("POST", "/v1/executors/exec-d/disconnect", {
      ...admin,
      body: { connection_id: detached },
    });
    expect(gone.status, gone.text).toBe(200);
  });

  it("lists every executor by ID with its connection, bindings and lease", async () => {
    const answer = await server.call("GET", "/v1/executors", admin);
    expect(answer.status, answer.text).toBe(200);
    expect(ids(answer)).toEqual(["exec-a", "exec-b", "exec-c", "exec-d"]);
    const [a, b, , d] = answer.body.data;
    expect(a).toMatchObject({ binding_ids: [blue], epoch: 1, online: true, disconnected_at: null });
    expect(b.binding_ids).toEqual([red, blue]);
    // Only an executor that declared its tools at connect lists them.
    expect(b.tool_names).toEqual(["tasks.read", "tasks.create"]);
    expect(a).not.toHaveProperty("tool_names");
    for (const field of ["connected_at", "last_heartbeat_at", "lease_expires_at"]) expect(a[field]).toMatch(ISO_TIME);
    expect(d.online).toBe(false);
    expect(d.disconnected_at).toMatch(ISO_TIME);
    expect(answer.body.next_cursor).toBeNull();
  });

  it("pages by executor ID", async () => {
    const first = await server.call("GET", "/v1/executors?limit=3", admin);
    expect(ids(first)).toEqual(["exec-a", "exec-b", "exec-c"]);
    const second = await server.call(
      "GET",
      `/v1/executors?limit=3&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      admin,
    );
    expect(ids(second)).toEqual(["exec-d"]);
    expect(second.body.next_cursor).toBeNull();
  });

  it("leaves out executors serving a binding outside the key's binding scope, and fills its pages", async () => {
    const redOnly = await createKey(server, { name: "red", scopes: ["configuration:read"], bindings: [red] });
    const all = await server.call("GET", "/v1/executors", { key: redOnly.key });
    expect(ids(all)).toEqual(["exec-c", "exec-d"]);
    // exec-a and exec-b are skipped while the first page of one fills up.
    const first = await server.call("GET", "/v1/executors?limit=1", { key: redOnly.key });
    expect(ids(first)).toEqual(["exec-c"]);
    const second = await server.call(
      "GET",
      `/v1/executors?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      { key: redOnly.key },
    );
    expect(ids(second)).toEqual(["exec-d"]);
    expect(second.body.next_cursor).toBeNull();
    const none = await createKey(server, { name: "none", scopes: ["runtime:read"], bindings: [] });
    expect(ids(await server.call("GET", "/v1/executors", { key: none.key }))).toEqual([]);
  });

  it("refuses keys with neither configuration:read nor runtime:read, and no key", async () => {
    const executor = await createKey(server, { name: "exec", scopes: ["executors:connect", "tools:execute"] });
    expectError(await server.call("GET", "/v1/executors", { key: executor.key }), 403, "forbidden");
    expectError(await server.call("GET", "/v1/executors"), 401, "unauthorized");
  });
});
