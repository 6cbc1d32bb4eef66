// Cached identities and revocation over real HTTP. One instance (each dialect): a key's identity is
// read from the database once and then served from the cache, yet a revoke takes effect on the very
// next request. Two instances on one PostgreSQL schema: a key revoked through A is refused by B on the
// next request although B had it cached (the revocation is relayed through NOTIFY/LISTEN), and B keeps
// serving — and still honours revocations — after its listener's connection is killed.
import pg from "pg";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { announceKeyRevocation } from "../../src/auth/announce-revocation.js";
import { OPERATOR_REACH } from "../../src/auth/key-reach.js";
import { BOOTSTRAP_SECRET, createKey, startTestServer, type TestServer } from "../http/http-harness.js";
import { describeDialect, describeEachDialect, TEST_POSTGRES_URL, testDatabaseUrl } from "../support/test-databases.js";

const admin = { key: BOOTSTRAP_SECRET };
const LONG_TTL = { identityCacheTtlMs: 60_000 };

/** Counts the key lookups `server` makes in its database. */
function countLookups(server: TestServer): { count: number } {
  const keys = server.server.storage.keys;
  const find = keys.findActiveByHash.bind(keys);
  const counter = { count: 0 };
  keys.findActiveByHash = (hash) => {
    counter.count++;
    return find(hash);
  };
  return counter;
}

const listKeys = (server: TestServer, key: string) => server.call("GET", "/v1/keys?limit=1", { key });

describeEachDialect("identity cache", (dialect) => {
  let server: TestServer;
  let lookups: { count: number };
  beforeAll(async () => {
    server = await startTestServer(dialect, { ...LONG_TTL, logLevel: "warn" });
    lookups = countLookups(server);
  });

  it("reads a key from the database once, then from the cache", async () => {
    const made = await createKey(server, { name: "cached", scopes: ["admin"] });
    const before = lookups.count;
    for (let i = 0; i < 5; i++) expect((await listKeys(server, made.key)).status).toBe(200);
    expect(lookups.count - before).toBe(1);
  });

  it("a revoked key is refused on the next request although it was cached", async () => {
    const made = await createKey(server, { name: "to revoke", scopes: ["admin"] });
    expect((await listKeys(server, made.key)).status).toBe(200);
    expect((await listKeys(server, made.key)).status).toBe(200);
    expect((await server.call("DELETE", `/v1/keys/${made.key_id}`, admin)).status).toBe(200);
    const refused = await listKeys(server, made.key);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("unauthorized");
  });

  it("a key that revokes itself is refused on its next request", async () => {
    const made = await createKey(server, { name: "rotated", scopes: ["admin"] });
    expect((await listKeys(server, made.key)).status).toBe(200);
    expect((await server.call("DELETE", `/v1/keys/${made.key_id}`, { key: made.key })).status).toBe(200);
    expect((await listKeys(server, made.key)).status).toBe(401);
  });

  it("an unknown key is looked up every time (nothing negative is cached)", async () => {
    const before = lookups.count;
    for (let i = 0; i < 3; i++) expect((await listKeys(server, "th_not-a-key")).status).toBe(401);
    expect(lookups.count - before).toBe(3);
  });

  it("identityCacheTtlMs 0 reads the key on every request", async () => {
    const uncached = await startTestServer(dialect, { identityCacheTtlMs: 0, logLevel: "warn" });
    try {
      const counter = countLookups(uncached);
      for (let i = 0; i < 3; i++) expect((await listKeys(uncached, BOOTSTRAP_SECRET)).status).toBe(200);
      expect(counter.count).toBe(3);
    } finally {
      await uncached.close();
    }
  });
});

describeDialect("postgres", "revocation across instances", () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const database = await testDatabaseUrl("postgres");
    a = await startTestServer("postgres", { ...LONG_TTL, logLevel: "warn" }, database);
    b = await startTestServer("postgres", { ...LONG_TTL, logLevel: "warn" }, database);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** Makes a key cached on both instances, revokes it through `via` and answers the next status on each. */
  async function revokeCachedKey(via: TestServer): Promise<{ onA: number; onB: number }> {
    const made = await createKey(a, { name: "shared", scopes: ["admin"] });
    for (const server of [a, b, a, b]) expect((await listKeys(server, made.key)).status).toBe(200);
    expect((await via.call("DELETE", `/v1/keys/${made.key_id}`, admin)).status).toBe(200);
    const other = via === a ? b : a;
    const onOther = (await listKeys(other, made.key)).status;
    const onVia = (await listKeys(via, made.key)).status;
    return via === a ? { onA: onVia, onB: onOther } : { onA: onOther, onB: onVia };
  }

  it("a key revoked through one instance is refused by the other on the next request", async () => {
    expect((await listKeys(b, BOOTSTRAP_SECRET)).status).toBe(200);
    const lookupsOnB = countLookups(b);
    for (let i = 0; i < 10; i++) {
      expect(await revokeCachedKey(i % 2 === 0 ? a : b)).toEqual({ onA: 401, onB: 401 });
    }
    // B did cache: 10 keys, each read once before its revocation and once after (refused).
    expect(lookupsOnB.count).toBe(20);
  });

  it("a key revoked straight in the database and announced (toolhost keys revoke) is refused on the next request", async () => {
    const made = await createKey(a, { name: "revoked by the operator", scopes: ["admin"] });
    for (const server of [a, b]) expect((await listKeys(server, made.key)).status).toBe(200);
    await a.server.storage.keys.revoke(made.key_id, Date.now(), OPERATOR_REACH);
    expect(await announceKeyRevocation(a.database.url, made.key_id)).toBe(true);
    for (const server of [a, b]) expect((await listKeys(server, made.key)).status).toBe(401);
  });

  it("an instance whose listener lost its connection keeps serving and still honours revocations", async () => {
    const listenerPid = (): number | undefined =>
      (b.server.revocationRelay as unknown as { listener?: { backendPid?: number } }).listener?.backendPid;
    const before = listenerPid();
    expect(before).toBeTypeOf("number");
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    try {
      await client.query("select pg_terminate_backend($1)", [before]);
    } finally {
      await client.end();
    }
    // Requests keep working while the listeners are away and after they are back.
    expect((await listKeys(b, BOOTSTRAP_SECRET)).status).toBe(200);
    await vi.waitFor(
      () => {
        expect(listenerPid()).toBeTypeOf("number");
        expect(listenerPid()).not.toBe(before);
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(await revokeCachedKey(a)).toEqual({ onA: 401, onB: 401 });
    expect(b.logs.text()).toContain("the key revocation listener lost its connection");
  });
});
