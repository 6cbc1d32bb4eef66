// /v1/keys: create (secret shown once), list (paged, never a secret or hash), revoke (immediate,
// idempotent, 404 when unknown); secrets never reach the log.
import { beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../support/test-databases.js";
import { BOOTSTRAP_SECRET, createKey, startTestServer, type TestServer } from "./http-harness.js";

const admin = { key: BOOTSTRAP_SECRET };
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describeEachDialect("keys", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { logLevel: "trace" });
  });

  it("creates a key: 201 with its secret, scopes and ID scopes", async () => {
    const answer = await server.call("POST", "/v1/keys", {
      ...admin,
      body: {
        name: "executor",
        scopes: ["executors:connect", "tools:execute"],
        agents: ["agent_1"],
        bindings: ["b.1"],
        connections: ["eu-openai"],
      },
    });
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body).sort()).toEqual([
      "agents",
      "bindings",
      "connections",
      "created_at",
      "key",
      "key_id",
      "name",
      "scopes",
    ]);
    expect(answer.body).toMatchObject({
      name: "executor",
      scopes: ["executors:connect", "tools:execute"],
      agents: ["agent_1"],
      bindings: ["b.1"],
      connections: ["eu-openai"],
    });
    expect(answer.body.key).toMatch(/^th_[A-Za-z0-9_-]{43}$/);
    expect(answer.body.key_id).toMatch(/^key_[0-9a-z]{26}$/);
    expect(answer.body.created_at).toMatch(ISO_TIME);
  });

  it("defaults agents, bindings and connections to every ID", async () => {
    const answer = await server.call("POST", "/v1/keys", {
      ...admin,
      body: { name: "reader", scopes: ["runtime:read"] },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ agents: "*", bindings: "*", connections: "*" });
  });

  it("refuses empty or repeated scopes and empty names", async () => {
    for (const body of [
      { name: "a", scopes: [] },
      { name: "a", scopes: ["runtime:read", "runtime:read"] },
      { name: "", scopes: ["runtime:read"] },
      { name: "a", scopes: ["runtime:read"], agents: ["x", "x"] },
    ]) {
      const answer = await server.call("POST", "/v1/keys", { ...admin, body });
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body.error.code).toBe("validation_failed");
    }
  });

  it("a new key works at once, within its scopes", async () => {
    const made = await createKey(server, { name: "second admin", scopes: ["admin"] });
    expect((await server.call("GET", "/v1/keys", { key: made.key })).status).toBe(200);
  });

  it("lists keys in creation order, page by page, never showing a secret or hash", async () => {
    const made: Array<{ key_id: string; key: string }> = [];
    for (let i = 0; i < 5; i++) made.push(await createKey(server, { name: `paged ${i}`, scopes: ["runtime:read"] }));
    const seen: Array<Record<string, unknown>> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? "?limit=2" : `?limit=2&cursor=${encodeURIComponent(cursor)}`;
      const page = await server.call("GET", `/v1/keys${query}`, admin);
      expect(page.status).toBe(200);
      expect(Object.keys(page.body).sort()).toEqual(["data", "next_cursor"]);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      for (const secret of [...made.map((key) => key.key), BOOTSTRAP_SECRET]) expect(page.text).not.toContain(secret);
      for (const item of page.body.data) {
        expect(Object.keys(item).sort()).toEqual([
          "agents",
          "bindings",
          "connections",
          "created_at",
          "key_id",
          "name",
          "revoked_at",
          "scopes",
        ]);
      }
      seen.push(...page.body.data);
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor !== null && pages < 50);
    expect(cursor).toBeNull();
    const ids = seen.map((key) => key.key_id);
    expect(new Set(ids).size).toBe(ids.length);
    const madeIds = made.map((key) => key.key_id);
    expect(ids.filter((id) => madeIds.includes(id as string))).toEqual(madeIds);
    expect(seen[0]?.name).toBe("bootstrap");
    expect(pages).toBe(Math.ceil(seen.length / 2));
  });

  it("lists 50 keys by default", async () => {
    for (let i = 0; i < 50; i++) await createKey(server, { name: `bulk ${i}`, scopes: ["runtime:read"] });
    const page = await server.call("GET", "/v1/keys", admin);
    expect(page.body.data).toHaveLength(50);
    expect(page.body.next_cursor).toEqual(expect.any(String));
  });

  it("revokes a key: immediate, idempotent, listed with its time", async () => {
    const made = await createKey(server, { name: "to revoke", scopes: ["admin"] });
    const revoked = await server.call("DELETE", `/v1/keys/${made.key_id}`, admin);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ key_id: made.key_id, revoked: true, revoked_at: expect.stringMatching(ISO_TIME) });
    expect((await server.call("GET", "/v1/keys", { key: made.key })).status).toBe(401);

    const again = await server.call("DELETE", `/v1/keys/${made.key_id}`, admin);
    expect(again.status).toBe(200);
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);

    const all = await server.call("GET", "/v1/keys?limit=200", admin);
    const listed = all.body.data.find((key: { key_id: string }) => key.key_id === made.key_id);
    expect(listed.revoked_at).toBe(revoked.body.revoked_at);
  });

  it("a key may revoke itself (rotation)", async () => {
    const made = await createKey(server, { name: "self", scopes: ["admin"] });
    const answer = await server.call("DELETE", `/v1/keys/${made.key_id}`, { key: made.key });
    expect(answer.status).toBe(200);
    expect((await server.call("GET", "/v1/keys", { key: made.key })).status).toBe(401);
  });

  it("revoking an unknown key is 404", async () => {
    const answer = await server.call("DELETE", "/v1/keys/key_00000000000000000000000000", admin);
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe("not_found");
  });

  it("never writes a secret to the log", async () => {
    const made = await createKey(server, { name: "logged?", scopes: ["runtime:read"] });
    await server.call("GET", "/v1/keys", { key: made.key });
    await server.call("GET", "/v1/keys", { key: `${made.key}x` });
    const log = server.logs.text();
    expect(server.logs.lines.length).toBeGreaterThan(10);
    expect(log).toContain("request answered");
    expect(log).not.toContain(made.key);
    expect(log).not.toContain(BOOTSTRAP_SECRET);
  });
});
