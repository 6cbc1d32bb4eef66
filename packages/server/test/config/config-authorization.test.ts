// Scopes on every configuration route: no key 401, a key without the route's scope 403 (storing
// nothing), the route's scope or `admin` admits. Reads need configuration:read, writes
// configuration:write; sessions runtime:read / runtime:write; diagnostics either read scope.
// Also: every route is in the OpenAPI document, tagged and behind the bearer scheme.
import { beforeAll, expect, it } from "vitest";
import { createKey, startTestServer, type TestServer } from "../http/http-harness.js";
import { describeEachDialect } from "../support/test-databases.js";
import {
  createAgent,
  createAgentVersion,
  createBinding,
  createToolset,
  expectError,
  SCRIPTED_MODEL,
  snapshot,
  tool,
} from "./config-fixtures.js";

interface Route {
  readonly method: string;
  readonly path: string;
  readonly scopes: readonly string[];
  readonly ok: number;
  readonly body?: (ids: Ids) => unknown;
}

interface Ids {
  binding: string;
  toolset: string;
  agent: string;
  version: string;
  session: string;
}

const READ = ["configuration:read"];
const WRITE = ["configuration:write"];

/** Every configuration route, with a body that succeeds for a caller holding its scope. */
const ROUTES: readonly Route[] = [
  { method: "POST", path: "/v1/executor-bindings", scopes: WRITE, ok: 201, body: () => ({ name: "b" }) },
  { method: "GET", path: "/v1/executor-bindings", scopes: READ, ok: 200 },
  { method: "GET", path: "/v1/executor-bindings/BINDING", scopes: READ, ok: 200 },
  {
    method: "POST",
    path: "/v1/toolsets",
    scopes: WRITE,
    ok: 201,
    body: (ids) => ({ name: "t", tools: [tool("a", ids.binding)] }),
  },
  { method: "POST", path: "/v1/toolsets/TOOLSET/versions", scopes: WRITE, ok: 201, body: () => ({ tools: [] }) },
  { method: "GET", path: "/v1/toolsets", scopes: READ, ok: 200 },
  { method: "GET", path: "/v1/toolsets/TOOLSET", scopes: READ, ok: 200 },
  { method: "GET", path: "/v1/toolsets/TOOLSET/versions", scopes: READ, ok: 200 },
  { method: "GET", path: "/v1/toolsets/TOOLSET/versions/1", scopes: READ, ok: 200 },
  { method: "POST", path: "/v1/agents", scopes: WRITE, ok: 201, body: () => ({ name: "a" }) },
  {
    method: "POST",
    path: "/v1/agents/AGENT/versions",
    scopes: WRITE,
    ok: 201,
    body: (ids) => ({ toolset_id: ids.toolset, toolset_version: 1, model: SCRIPTED_MODEL }),
  },
  { method: "GET", path: "/v1/agents", scopes: READ, ok: 200 },
  { method: "GET", path: "/v1/agents/AGENT", scopes: READ, ok: 200 },
  { method: "GET", path: "/v1/agents/AGENT/versions", scopes: READ, ok: 200 },
  { method: "GET", path: "/v1/agents/AGENT/versions/VERSION", scopes: READ, ok: 200 },
  {
    method: "POST",
    path: "/v1/sessions",
    scopes: ["runtime:write"],
    ok: 201,
    body: (ids) => ({ agent_version: ids.version, subject: "s" }),
  },
  { method: "GET", path: "/v1/sessions", scopes: ["runtime:read"], ok: 200 },
  { method: "GET", path: "/v1/sessions/SESSION", scopes: ["runtime:read"], ok: 200 },
  {
    method: "GET",
    path: "/v1/agents/AGENT/executor-bindings/BINDING/diagnostics",
    scopes: ["configuration:read", "runtime:read"],
    ok: 200,
  },
];

const ALL_SCOPES = [
  "configuration:read",
  "configuration:write",
  "runtime:read",
  "runtime:write",
  "executors:connect",
  "tools:execute",
];

describeEachDialect("configuration authorization", (dialect) => {
  let server: TestServer;
  const ids: Ids = { binding: "", toolset: "", agent: "", version: "", session: "" };
  /** Per route: a key holding every scope except the route's own. */
  const lacking = new Map<Route, string>();
  let adminKey: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    ids.binding = await createBinding(server, "matrix");
    ids.toolset = await createToolset(server, [tool("a", ids.binding)]);
    ids.agent = await createAgent(server);
    ids.version = await createAgentVersion(server, ids.agent, ids.toolset);
    const session = await server.call("POST", "/v1/sessions", {
      key: (await createKey(server, { name: "s", scopes: ["admin"] })).key,
      body: { agent_version: ids.version, subject: "s" },
    });
    ids.session = session.body.session_id;
    adminKey = (await createKey(server, { name: "admin", scopes: ["admin"] })).key;
    for (const route of ROUTES) {
      const scopes = ALL_SCOPES.filter((scope) => !route.scopes.includes(scope));
      lacking.set(route, (await createKey(server, { name: "lacking", scopes })).key);
    }
  });

  function send(route: Route, key: string | undefined) {
    const path = route.path
      .replace("BINDING", ids.binding)
      .replace("TOOLSET", ids.toolset)
      .replace("AGENT", ids.agent)
      .replace("VERSION", ids.version)
      .replace("SESSION", ids.session);
    const body = route.body?.(ids);
    return server.call(route.method, path, {
      ...(key === undefined ? {} : { key }),
      ...(body === undefined ? {} : { body }),
    });
  }

  for (const route of ROUTES) {
    const name = `${route.method} ${route.path}`;

    it(`${name}: 401 without a key, 403 without ${route.scopes.join(" or ")}, storing nothing`, async () => {
      const before = await snapshot(server);
      const none = await send(route, undefined);
      expectError(none, 401, "unauthorized");
      expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expectError(await send(route, lacking.get(route)), 403, "forbidden");
      expect(await snapshot(server)).toBe(before);
    });

    it(`${name}: admitted with ${route.scopes.join(" or ")}, and with admin`, async () => {
      for (const scope of route.scopes) {
        const { key } = await createKey(server, { name: scope, scopes: [scope] });
        expect((await send(route, key)).status, scope).toBe(route.ok);
      }
      expect((await send(route, adminKey)).status).toBe(route.ok);
    });
  }

  it("documents every configuration route in OpenAPI, tagged and behind the bearer scheme", async () => {
    const doc = (await server.call("GET", "/v1/openapi.json")).body;
    const tags = doc.tags.map((tag: { name: string }) => tag.name);
    for (const route of ROUTES) {
      const path = route.path
        .replace("BINDING", "{binding_id}")
        .replace("TOOLSET", "{toolset_id}")
        .replace("/versions/1", "/versions/{version}")
        .replace("AGENT", "{agent_id}")
        .replace("VERSION", "{agent_version}")
        .replace("SESSION", "{session_id}");
      const operation = doc.paths[path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${path}`).toBeDefined();
      expect(operation.tags.length).toBeGreaterThan(0);
      for (const tag of operation.tags) expect(tags).toContain(tag);
      expect(operation.security).toBeUndefined();
    }
    // biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON.
    const named = (schema: any) =>
      schema.$ref === undefined ? schema : doc.components.schemas[schema.$ref.split("/").pop()];
    const body = named(doc.paths["/v1/toolsets"].post.requestBody.content["application/json"].schema);
    const tool = named(body.properties.tools.items);
    expect(tool.additionalProperties).toBe(false);
    expect(tool.required).toEqual(["name", "binding_id", "input_schema"]);
    expect(tool.properties.max_result_context_bytes).toMatchObject({ minimum: 1024, maximum: 32768 });
  });
});
