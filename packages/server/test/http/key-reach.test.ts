// Key management stays within the caller's reach (issue #9, defect 8): an admin narrowed to one agent
// and binding mints only keys inside its own scopes (omitted agents/bindings become its own, never
// "*"), lists only the keys within its reach — page by page, every page full — and revokes nothing
// beyond it (404, as for a missing key). The same for model connections: a key narrowed to some mints
// keys only within them (omitted: its own), and sees and revokes only keys within them.
import { beforeAll, expect, it } from "vitest";
import { expectError, readAll } from "../config/config-fixtures.js";
import { describeEachDialect } from "../support/test-databases.js";
import { BOOTSTRAP_SECRET, createKey, startTestServer, type TestServer } from "./http-harness.js";

describeEachDialect("key reach", (dialect) => {
  let server: TestServer;
  let narrowed: { key_id: string; key: string };
  const mint = (key: string, body: unknown) => server.call("POST", "/v1/keys", { key, body });
  const keyIds = async (key: string, limit = 200) =>
    (await readAll(server, "/v1/keys", key, limit)).items.map((item) => item.key_id as string);

  beforeAll(async () => {
    server = await startTestServer(dialect);
    narrowed = await createKey(server, { name: "admin A", scopes: ["admin"], agents: ["agt_A"], bindings: ["bnd_A"] });
  });

  it("a narrowed admin's new key defaults to the admin's own agents and bindings, not to every ID", async () => {
    const answer = await mint(narrowed.key, { name: "escalation?", scopes: ["admin"] });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({ scopes: ["admin"], agents: ["agt_A"], bindings: ["bnd_A"] });
    // The minted key cannot reach further either.
    const seen = (await readAll(server, "/v1/keys", answer.body.key)).items;
    expect(seen.map((item) => item.key_id)).toContain(narrowed.key_id);
    for (const item of seen) {
      // Lists, never "*", holding nothing beyond agt_A and bnd_A.
      expect(Array.isArray(item.agents) && Array.isArray(item.bindings), item.name as string).toBe(true);
      expect([item.agents, item.bindings].flat().every((id) => id === "agt_A" || id === "bnd_A")).toBe(true);
    }
    expectError(
      await mint(answer.body.key, { name: "x", scopes: ["admin"], agents: "*" }),
      403,
      "forbidden",
      "/agents",
    );
    // An unrestricted admin's default stays "*".
    const root = await mint(BOOTSTRAP_SECRET, { name: "root", scopes: ["runtime:read"] });
    expect(root.body).toMatchObject({ agents: "*", bindings: "*" });
  });

  it('refuses agents or bindings beyond the creator\'s, "*" included, at the first member beyond; stores nothing', async () => {
    const before = await keyIds(BOOTSTRAP_SECRET);
    for (const [body, pointer] of [
      [{ agents: "*" }, "/agents"],
      [{ bindings: "*" }, "/bindings"],
      [{ agents: ["agt_A", "agt_B"] }, "/agents/1"],
      [{ agents: ["agt_A"], bindings: ["bnd_B"] }, "/bindings/0"],
    ] as const) {
      const answer = await mint(narrowed.key, { name: "beyond", scopes: ["configuration:read"], ...body });
      expectError(answer, 403, "forbidden", pointer);
    }
    expect(await keyIds(BOOTSTRAP_SECRET)).toEqual(before);
    // Within reach, narrower included.
    const narrower = await mint(narrowed.key, { name: "n", scopes: ["runtime:read"], agents: [], bindings: ["bnd_A"] });
    expect(narrower.status, narrower.text).toBe(201);
    expect(narrower.body).toMatchObject({ agents: [], bindings: ["bnd_A"] });
  });

  it("lists only keys within its reach, every page full but the last (the filter runs in SQL)", async () => {
    const server2 = await startTestServer(dialect);
    const admin = await createKey(server2, {
      name: "admin A",
      scopes: ["admin"],
      agents: ["agt_A"],
      bindings: ["bnd_A"],
    });
    const within = [admin.key_id];
    for (let i = 0; i < 7; i++) {
      await createKey(server2, { name: `beyond ${i}`, scopes: ["runtime:read"], agents: ["agt_A"] });
      within.push(
        (await createKey(server2, { name: `within ${i}`, scopes: ["runtime:read"], agents: ["agt_A"], bindings: [] }))
          .key_id,
      );
      await createKey(server2, {
        name: `other ${i}`,
        scopes: ["runtime:read"],
        agents: ["agt_B"],
        bindings: ["bnd_A"],
      });
    }
    const { items, texts } = await readAll(server2, "/v1/keys", admin.key, 3);
    expect(items.map((item) => item.key_id)).toEqual(within);
    expect(texts.map((text) => JSON.parse(text).data.length)).toEqual([3, 3, 2]);
    const all = await readAll(server2, "/v1/keys", BOOTSTRAP_SECRET, 3);
    expect(all.items).toHaveLength(1 + 1 + 21);
  });

  it("revokes nothing beyond its reach: 404 like a missing key, and that key keeps working", async () => {
    const beyond = await createKey(server, {
      name: "B",
      scopes: ["runtime:read"],
      agents: ["agt_B"],
      bindings: ["bnd_B"],
    });
    const wider = await createKey(server, { name: "A+", scopes: ["runtime:read"], agents: ["agt_A"], bindings: "*" });
    const bootstrapId = (await readAll(server, "/v1/keys")).items.find((item) => item.name === "bootstrap")?.key_id;
    for (const keyId of [beyond.key_id, wider.key_id, bootstrapId as string]) {
      const answer = await server.call("DELETE", `/v1/keys/${keyId}`, { key: narrowed.key });
      expectError(answer, 404, "not_found");
      expect(answer.body.error.message).toBe(`key ${JSON.stringify(keyId)} not found`);
    }
    expect((await server.call("GET", "/v1/sessions", { key: beyond.key })).status).toBe(200);
    expect((await server.call("GET", "/v1/keys", { key: BOOTSTRAP_SECRET })).status).toBe(200);
    const inside = await createKey(server, {
      name: "A",
      scopes: ["runtime:read"],
      agents: ["agt_A"],
      bindings: ["bnd_A"],
    });
    expect((await server.call("DELETE", `/v1/keys/${inside.key_id}`, { key: narrowed.key })).status).toBe(200);
    expect((await server.call("GET", "/v1/sessions", { key: inside.key })).status).toBe(401);
  });
});

describeEachDialect("key reach: model connections", (dialect) => {
  let server: TestServer;
  const mint = (key: string, body: unknown) => server.call("POST", "/v1/keys", { key, body });

  beforeAll(async () => {
    server = await startTestServer(dialect);
  });

  it("a key narrowed to some connections mints, lists and revokes only within them", async () => {
    const tenant = await mint(BOOTSTRAP_SECRET, { name: "admin A", scopes: ["admin"], connections: ["tenant-a"] });
    expect(tenant.status, tenant.text).toBe(201);
    const other = await mint(BOOTSTRAP_SECRET, { name: "B's", scopes: ["runtime:read"], connections: ["tenant-b"] });
    const before = (await readAll(server, "/v1/keys", BOOTSTRAP_SECRET)).items.length;
    for (const [connections, pointer] of [
      ["*", "/connections"],
      [["tenant-a", "tenant-b"], "/connections/1"],
      [["tenant-b"], "/connections/0"],
    ] as const) {
      const answer = await mint(tenant.body.key, { name: "beyond", scopes: ["configuration:write"], connections });
      expectError(answer, 403, "forbidden", pointer);
    }
    expect((await readAll(server, "/v1/keys", BOOTSTRAP_SECRET)).items.length).toBe(before);
    // Omitted: the creator's own, never "*".
    const minted = await mint(tenant.body.key, { name: "publisher", scopes: ["configuration:write"] });
    expect(minted.status, minted.text).toBe(201);
    expect(minted.body).toMatchObject({ agents: "*", bindings: "*", connections: ["tenant-a"] });
    const narrower = await mint(tenant.body.key, { name: "none", scopes: ["runtime:read"], connections: [] });
    expect(narrower.body.connections).toEqual([]);
    // It sees only keys within its connections: not the bootstrap key ("*"), not B's.
    const seen = (await readAll(server, "/v1/keys", tenant.body.key)).items.map((item) => item.name);
    expect(seen).toEqual(["admin A", "publisher", "none"]);
    const revoked = await server.call("DELETE", `/v1/keys/${other.body.key_id}`, { key: tenant.body.key });
    expectError(revoked, 404, "not_found", undefined);
    const still = await server.call("GET", "/v1/keys", { key: other.body.key });
    expect(still.status).toBe(403);
  });
});
