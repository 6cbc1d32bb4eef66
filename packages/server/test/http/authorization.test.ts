// Bearer-key authentication and scopes on the key routes: 401 without a valid key (missing,
// malformed, unknown, revoked), 403 without the scope, and the bootstrap key's idempotence.
import { beforeAll, expect, it } from "vitest";
import { describeEachDialect, testDatabaseUrl } from "../support/test-databases.js";
import { BOOTSTRAP_SECRET, type Call, createKey, startTestServer, type TestServer } from "./http-harness.js";

/** Every key route, with a body that would succeed for an admin. */
const KEY_ROUTES: ReadonlyArray<{ method: string; path: string; body?: unknown; ok: number }> = [
  { method: "POST", path: "/v1/keys", body: { name: "made by matrix", scopes: ["runtime:read"] }, ok: 201 },
  { method: "GET", path: "/v1/keys", ok: 200 },
  { method: "DELETE", path: "/v1/keys/KEY_ID", ok: 200 },
];

describeEachDialect("authorization", (dialect) => {
  let server: TestServer;
  let readerKey: string;
  let revokedKey: string;
  let scopedAdminKey: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    readerKey = (await createKey(server, { name: "reader", scopes: ["configuration:read", "runtime:read"] })).key;
    scopedAdminKey = (await createKey(server, { name: "scoped admin", scopes: ["admin"], agents: ["agent_a"] })).key;
    const revoked = await createKey(server, { name: "revoked", scopes: ["admin"] });
    revokedKey = revoked.key;
    expect((await server.call("DELETE", `/v1/keys/${revoked.key_id}`, { key: BOOTSTRAP_SECRET })).status).toBe(200);
  });

  /** Sends one key route with `headers`, substituting a fresh victim key (within the scoped admin's reach) for KEY_ID. */
  async function send(route: (typeof KEY_ROUTES)[number], call: Call) {
    let path = route.path;
    if (path.includes("KEY_ID")) {
      const victim = await createKey(server, { name: "victim", scopes: ["runtime:read"], agents: ["agent_a"] });
      path = path.replace("KEY_ID", victim.key_id);
    }
    return server.call(route.method, path, { ...call, ...(route.body === undefined ? {} : { body: route.body }) });
  }

  for (const route of KEY_ROUTES) {
    const name = `${route.method} ${route.path}`;

    it(`${name}: no key is 401 with a Bearer challenge`, async () => {
      const answer = await send(route, {});
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe("unauthorized");
      expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/);
    });

    it(`${name}: a malformed Authorization header is 401`, async () => {
      for (const authorization of [
        "Basic dXNlcjpwYXNz",
        "Bearer",
        "Bearer ",
        `Bearer ${BOOTSTRAP_SECRET} extra`,
        BOOTSTRAP_SECRET,
      ]) {
        const answer = await send(route, { headers: { authorization } });
        expect(answer.status, authorization).toBe(401);
        expect(answer.body.error.code).toBe("unauthorized");
      }
    });

    it(`${name}: an unknown key is 401`, async () => {
      const answer = await send(route, { key: "th_not-a-key-that-exists" });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe("unauthorized");
    });

    it(`${name}: a revoked key is 401`, async () => {
      const answer = await send(route, { key: revokedKey });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe("unauthorized");
    });

    it(`${name}: a key without admin is 403`, async () => {
      const answer = await send(route, { key: readerKey });
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe("forbidden");
      expect(answer.body.error.details.required_scopes).toEqual(["admin"]);
    });

    it(`${name}: an admin key is admitted`, async () => {
      expect((await send(route, { key: BOOTSTRAP_SECRET })).status).toBe(route.ok);
      // A narrowed admin manages keys within its reach (authorization-matrix.test.ts covers the rest).
      expect((await send(route, { key: scopedAdminKey })).status).toBe(route.ok);
    });
  }

  it("checks the key before reading the body: no key with a bad body is still 401", async () => {
    const answer = await server.call("POST", "/v1/keys", { body: "{not json" });
    expect(answer.status).toBe(401);
  });

  it("accepts the scheme name in any case", async () => {
    const answer = await server.call("GET", "/v1/keys", { headers: { authorization: `bearer ${BOOTSTRAP_SECRET}` } });
    expect(answer.status).toBe(200);
  });

  it("the bootstrap key holds every scope and every agent and binding", async () => {
    const list = await server.call("GET", "/v1/keys?limit=200", { key: BOOTSTRAP_SECRET });
    const bootstrap = list.body.data.filter((key: { name: string }) => key.name === "bootstrap");
    expect(bootstrap).toHaveLength(1);
    expect(bootstrap[0]).toMatchObject({ agents: "*", bindings: "*", revoked_at: null });
    expect([...bootstrap[0].scopes].sort()).toEqual([
      "admin",
      "configuration:read",
      "configuration:write",
      "executors:connect",
      "metrics:read",
      "runtime:read",
      "runtime:write",
      "tools:execute",
    ]);
  });
});

describeEachDialect("bootstrap key", (dialect) => {
  it("is stored once across restarts on the same database", async () => {
    const database = await testDatabaseUrl(dialect);
    const first = await startTestServer(dialect, {}, database);
    expect(first.logs.text()).toContain("bootstrap key stored");
    const made = await createKey(first, { name: "survivor", scopes: ["runtime:read"] });
    await first.close();

    const second = await startTestServer(dialect, {}, database);
    expect(second.logs.text()).toContain("bootstrap key already present");
    const list = await second.call("GET", "/v1/keys", { key: BOOTSTRAP_SECRET });
    expect(list.status).toBe(200);
    const names = list.body.data.map((key: { name: string }) => key.name);
    expect(names.filter((name: string) => name === "bootstrap")).toHaveLength(1);
    expect(names).toContain("survivor");
    expect((await second.call("GET", "/v1/keys", { key: made.key })).status).toBe(403);
    await second.close();
  });

  it("stays revoked after a restart; a new secret restores access", async () => {
    const database = await testDatabaseUrl(dialect);
    const first = await startTestServer(dialect, {}, database);
    const list = await first.call("GET", "/v1/keys", { key: BOOTSTRAP_SECRET });
    const bootstrapId = list.body.data.find((key: { name: string }) => key.name === "bootstrap").key_id;
    expect((await first.call("DELETE", `/v1/keys/${bootstrapId}`, { key: BOOTSTRAP_SECRET })).status).toBe(200);
    await first.close();

    const second = await startTestServer(dialect, {}, database);
    expect((await second.call("GET", "/v1/keys", { key: BOOTSTRAP_SECRET })).status).toBe(401);
    await second.close();

    const replacement = "a-new-bootstrap-secret-7d2e";
    const third = await startTestServer(dialect, { bootstrapKey: replacement }, database);
    expect((await third.call("GET", "/v1/keys", { key: replacement })).status).toBe(200);
    await third.close();
  });

  it("is not created without a bootstrap secret", async () => {
    const server = await startTestServer(dialect, { bootstrapKey: null });
    expect((await server.call("GET", "/v1/keys", { key: BOOTSTRAP_SECRET })).status).toBe(401);
    await server.close();
  });
});
