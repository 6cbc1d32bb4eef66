// The authorization matrix: every configuration, key and dry-run route × four callers (an
// unrestricted admin, an admin narrowed to tenant A, a configuration/runtime key narrowed to tenant
// B, a key without the route's scope) × an object of tenant A or of tenant B, each cell with its
// expected answer. A refused write stores nothing. docs/security.md cites the cell count.
import { beforeAll, expect, it } from "vitest";
import { BOOTSTRAP_SECRET, createKey, startTestServer, type TestServer } from "../http/http-harness.js";
import { describeEachDialect } from "../support/test-databases.js";
import {
  createAgent,
  createAgentVersion,
  createBinding,
  createToolset,
  readAll,
  SCRIPTED_MODEL,
  snapshot,
  tool,
} from "./config-fixtures.js";

const CALLERS = ["root", "adminA", "keyB", "unscoped"] as const;
type Caller = (typeof CALLERS)[number];
const TENANTS = ["A", "B"] as const;
type Tenant = (typeof TENANTS)[number];

/** A status, or for a list: 200 with (`listed`) or without (`unlisted`) the tenant's object. */
type Outcome = number | "listed" | "unlisted";
/** Per caller: the outcome on tenant A's object, then on tenant B's. */
type Expected = Record<Caller, readonly [Outcome, Outcome]>;

/** One tenant's objects, made by the bootstrap key. */
interface TenantObjects {
  readonly binding: string;
  /** Per caller, an unregistered binding ID inside this tenant's binding scope. */
  readonly spareBindings: Record<Caller, string>;
  readonly toolset: string;
  readonly agent: string;
  readonly version: string;
  readonly session: string;
  /** A key narrowed to this tenant (an object of the key routes). */
  readonly keyId: string;
}

/** What one cell sends: the object's tenant and the caller's own tenant (the object's for root and unscoped). */
interface CellContext {
  readonly server: TestServer;
  readonly tenant: TenantObjects;
  readonly home: TenantObjects;
  readonly caller: Caller;
}

interface CellRequest {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
}

interface Row {
  readonly route: string;
  readonly request: (ctx: CellContext) => CellRequest | Promise<CellRequest>;
  /** For lists (read page by page): whether the items hold the tenant's object. */
  readonly holds?: (items: Array<Record<string, unknown>>, tenant: TenantObjects) => boolean;
  readonly expected: Expected;
}

/** Reads of a tenant's object: the tenant's callers and root see it, others 404. */
function tenantScoped(ok: number, refused = 404): Expected {
  return { root: [ok, ok], adminA: [ok, refused], keyB: [refused, ok], unscoped: [403, 403] };
}

/** A list: the tenant's callers and root find the tenant's object in it. */
const LISTED: Expected = {
  root: ["listed", "listed"],
  adminA: ["listed", "unlisted"],
  keyB: ["unlisted", "listed"],
  unscoped: [403, 403],
};

/** Key routes: admins only, the narrowed one within its tenant. */
function adminsOnly(ok: Outcome, refused: Outcome): Expected {
  return { root: [ok, ok], adminA: [ok, refused], keyB: [403, 403], unscoped: [403, 403] };
}

const holdsId =
  (member: string, of: (tenant: TenantObjects) => string) =>
  (items: Array<Record<string, unknown>>, tenant: TenantObjects): boolean =>
    items.some((item) => item[member] === of(tenant));

const ROWS: readonly Row[] = [
  {
    route: "POST /v1/keys (narrowed to the tenant)",
    request: ({ tenant }) => ({
      method: "POST",
      path: "/v1/keys",
      body: { name: "minted", scopes: ["configuration:read"], agents: [tenant.agent], bindings: [tenant.binding] },
    }),
    expected: adminsOnly(201, 403),
  },
  {
    route: 'POST /v1/keys (agents "*")',
    request: ({ tenant }) => ({
      method: "POST",
      path: "/v1/keys",
      body: { name: "minted", scopes: ["admin"], agents: "*", bindings: [tenant.binding] },
    }),
    expected: { root: [201, 201], adminA: [403, 403], keyB: [403, 403], unscoped: [403, 403] },
  },
  {
    route: "GET /v1/keys",
    request: () => ({ method: "GET", path: "/v1/keys" }),
    holds: holdsId("key_id", (tenant) => tenant.keyId),
    expected: adminsOnly("listed", "unlisted"),
  },
  {
    route: "DELETE /v1/keys/{key_id}",
    request: async ({ server, tenant }) => {
      const victim = await createKey(server, {
        name: "victim",
        scopes: ["runtime:read"],
        agents: [tenant.agent],
        bindings: [tenant.binding],
      });
      return { method: "DELETE", path: `/v1/keys/${victim.key_id}` };
    },
    expected: adminsOnly(200, 404),
  },
  {
    route: "POST /v1/executor-bindings (an ID of the tenant's scope)",
    request: ({ tenant, caller }) => ({
      method: "POST",
      path: "/v1/executor-bindings",
      body: { binding_id: tenant.spareBindings[caller], name: "spare" },
    }),
    expected: tenantScoped(201, 403),
  },
  {
    route: "GET /v1/executor-bindings",
    request: () => ({ method: "GET", path: "/v1/executor-bindings" }),
    holds: holdsId("binding_id", (tenant) => tenant.binding),
    expected: LISTED,
  },
  {
    route: "GET /v1/executor-bindings/{binding_id}",
    request: ({ tenant }) => ({ method: "GET", path: `/v1/executor-bindings/${tenant.binding}` }),
    expected: tenantScoped(200),
  },
  {
    route: "POST /v1/toolsets (tools on the tenant's binding)",
    request: ({ tenant }) => ({
      method: "POST",
      path: "/v1/toolsets",
      body: { name: "t", tools: [tool("tasks.read", tenant.binding)] },
    }),
    expected: tenantScoped(201, 422),
  },
  {
    route: "POST /v1/toolsets/{toolset_id}/versions (tools on the caller's binding)",
    request: ({ tenant, home }) => ({
      method: "POST",
      path: `/v1/toolsets/${tenant.toolset}/versions`,
      body: { tools: [tool("tasks.read", home.binding)] },
    }),
    expected: tenantScoped(201),
  },
  {
    route: "GET /v1/toolsets",
    request: () => ({ method: "GET", path: "/v1/toolsets" }),
    holds: holdsId("toolset_id", (tenant) => tenant.toolset),
    expected: LISTED,
  },
  {
    route: "GET /v1/toolsets/{toolset_id}",
    request: ({ tenant }) => ({ method: "GET", path: `/v1/toolsets/${tenant.toolset}` }),
    expected: tenantScoped(200),
  },
  {
    route: "GET /v1/toolsets/{toolset_id}/versions",
    request: ({ tenant }) => ({ method: "GET", path: `/v1/toolsets/${tenant.toolset}/versions` }),
    expected: tenantScoped(200),
  },
  {
    route: "GET /v1/toolsets/{toolset_id}/versions/{version}",
    request: ({ tenant }) => ({ method: "GET", path: `/v1/toolsets/${tenant.toolset}/versions/1` }),
    expected: tenantScoped(200),
  },
  {
    route: "POST /v1/agents",
    request: () => ({ method: "POST", path: "/v1/agents", body: { name: "a" } }),
    expected: { root: [201, 201], adminA: [403, 403], keyB: [403, 403], unscoped: [403, 403] },
  },
  {
    route: "POST /v1/agents/{agent_id}/versions (the tenant's agent and toolset)",
    request: ({ tenant }) => ({
      method: "POST",
      path: `/v1/agents/${tenant.agent}/versions`,
      body: { toolset_id: tenant.toolset, toolset_version: 1, model: SCRIPTED_MODEL },
    }),
    expected: tenantScoped(201),
  },
  {
    route: "POST /v1/agents/{agent_id}/versions (the caller's agent pinning the tenant's toolset)",
    request: ({ tenant, home }) => ({
      method: "POST",
      path: `/v1/agents/${home.agent}/versions`,
      body: { toolset_id: tenant.toolset, toolset_version: 1, model: SCRIPTED_MODEL },
    }),
    expected: tenantScoped(201, 422),
  },
  {
    route: "GET /v1/agents",
    request: () => ({ method: "GET", path: "/v1/agents" }),
    holds: holdsId("agent_id", (tenant) => tenant.agent),
    expected: LISTED,
  },
  {
    route: "GET /v1/agents/{agent_id}",
    request: ({ tenant }) => ({ method: "GET", path: `/v1/agents/${tenant.agent}` }),
    expected: tenantScoped(200),
  },
  {
    route: "GET /v1/agents/{agent_id}/versions",
    request: ({ tenant }) => ({ method: "GET", path: `/v1/agents/${tenant.agent}/versions` }),
    expected: tenantScoped(200),
  },
  {
    route: "GET /v1/agents/{agent_id}/versions/{agent_version}",
    request: ({ tenant }) => ({ method: "GET", path: `/v1/agents/${tenant.agent}/versions/${tenant.version}` }),
    expected: tenantScoped(200),
  },
  {
    route: "POST /v1/sessions",
    request: ({ tenant }) => ({
      method: "POST",
      path: "/v1/sessions",
      body: { agent_version: tenant.version, subject: "s" },
    }),
    expected: tenantScoped(201),
  },
  {
    route: "GET /v1/sessions",
    request: () => ({ method: "GET", path: "/v1/sessions" }),
    holds: holdsId("session_id", (tenant) => tenant.session),
    expected: LISTED,
  },
  {
    route: "GET /v1/sessions/{session_id}",
    request: ({ tenant }) => ({ method: "GET", path: `/v1/sessions/${tenant.session}` }),
    expected: tenantScoped(200),
  },
  {
    route: "GET /v1/agents/{agent_id}/executor-bindings/{binding_id}/diagnostics",
    request: ({ tenant }) => ({
      method: "GET",
      path: `/v1/agents/${tenant.agent}/executor-bindings/${tenant.binding}/diagnostics`,
    }),
    expected: tenantScoped(200),
  },
  {
    route: "POST /v1/tools/dry-run",
    request: ({ tenant }) => ({
      method: "POST",
      path: "/v1/tools/dry-run",
      body: { agent_version: tenant.version, tool_name: "tasks.read", arguments: {} },
    }),
    expected: tenantScoped(200),
  },
];

interface Cell {
  readonly row: Row;
  readonly caller: Caller;
  readonly tenant: Tenant;
  readonly expected: Outcome;
}

const CELLS: readonly Cell[] = ROWS.flatMap((row) =>
  CALLERS.flatMap((caller) =>
    TENANTS.map((tenant, i) => ({ row, caller, tenant, expected: row.expected[caller][i] as Outcome })),
  ),
);

/** The cells per dialect (docs/security.md: "authorization cells"). */
const AUTHORIZATION_CELLS = 200;

/** The error code each refusal status answers in this matrix. */
const REFUSAL_CODES: Record<number, string> = { 403: "forbidden", 404: "not_found", 422: "unknown_reference" };

describeEachDialect("authorization matrix", (dialect) => {
  let server: TestServer;
  const tenants = {} as Record<Tenant, TenantObjects>;
  const keys = {} as Record<Caller, string>;

  async function makeTenant(name: Tenant): Promise<TenantObjects> {
    const prefix = `tenant-${name.toLowerCase()}`;
    const binding = await createBinding(server, `${prefix}.tasks`);
    const toolset = await createToolset(server, [tool("tasks.read", binding)]);
    const agent = await createAgent(server);
    const version = await createAgentVersion(server, agent, toolset);
    const session = await server.call("POST", "/v1/sessions", {
      key: BOOTSTRAP_SECRET,
      body: { agent_version: version, subject: `${prefix}-user` },
    });
    const key = await createKey(server, {
      name: `${prefix} key`,
      scopes: ["runtime:read"],
      agents: [agent],
      bindings: [binding],
    });
    const spareBindings = Object.fromEntries(CALLERS.map((caller) => [caller, `${prefix}.spare-${caller}`])) as Record<
      Caller,
      string
    >;
    return { binding, spareBindings, toolset, agent, version, session: session.body.session_id, keyId: key.key_id };
  }

  beforeAll(async () => {
    server = await startTestServer(dialect);
    tenants.A = await makeTenant("A");
    tenants.B = await makeTenant("B");
    const { A, B } = tenants;
    keys.root = (await createKey(server, { name: "root", scopes: ["admin"] })).key;
    keys.adminA = (
      await createKey(server, {
        name: "admin of A",
        scopes: ["admin"],
        agents: [A.agent],
        bindings: [A.binding, ...Object.values(A.spareBindings)],
      })
    ).key;
    keys.keyB = (
      await createKey(server, {
        name: "configuration of B",
        scopes: ["configuration:read", "configuration:write", "runtime:read", "runtime:write"],
        agents: [B.agent],
        bindings: [B.binding, ...Object.values(B.spareBindings)],
      })
    ).key;
    keys.unscoped = (await createKey(server, { name: "executor only", scopes: ["executors:connect"] })).key;
  });

  /** Everything stored, as the bootstrap key lists it (keys included). */
  async function everything(): Promise<string> {
    return (await snapshot(server)) + JSON.stringify((await readAll(server, "/v1/keys")).items);
  }

  it(`has ${AUTHORIZATION_CELLS} cells`, () => {
    expect(CELLS.length).toBe(AUTHORIZATION_CELLS);
    expect(CELLS.length).toBe(ROWS.length * CALLERS.length * TENANTS.length);
  });

  for (const { row, caller, tenant, expected } of CELLS) {
    it(`${row.route} as ${caller} on tenant ${tenant}'s object: ${expected}`, async () => {
      const home = caller === "adminA" ? tenants.A : caller === "keyB" ? tenants.B : tenants[tenant];
      const request = await row.request({ server, tenant: tenants[tenant], home, caller });
      if (row.holds !== undefined && (expected === "listed" || expected === "unlisted")) {
        const { items } = await readAll(server, request.path, keys[caller]);
        expect(row.holds(items, tenants[tenant])).toBe(expected === "listed");
        return;
      }
      const writes = request.method !== "GET";
      const before = writes ? await everything() : "";
      const answer = await server.call(request.method, request.path, {
        key: keys[caller],
        ...(request.body === undefined ? {} : { body: request.body }),
      });
      expect(answer.status, answer.text).toBe(expected);
      if (typeof expected === "number" && expected >= 400) {
        expect(answer.body.error.code, answer.text).toBe(REFUSAL_CODES[expected]);
        if (writes) expect(await everything()).toBe(before);
      }
    });
  }
});
