// Immutable rows (agent versions, toolset versions, sessions) are read once per storage: the cache on
// its own, then what it must never do across storages of one database (the PostgreSQL deployment of
// several instances): remember a miss, or let a scope through that the SQL would refuse.

import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { connectDatabase } from "../../src/storage/engine/connect-database.js";
import { ImmutableRowCache, inIdScope } from "../../src/storage/engine/immutable-row-cache.js";
import { openStorage } from "../../src/storage/open-storage.js";
import {
  agentRecord,
  agentVersionInput,
  bindingRecord,
  sessionRecord,
  toolsetRecords,
  toolsJson,
} from "../support/storage-fixtures.js";
import { describeEachDialect, testDatabaseUrl } from "../support/test-databases.js";

describe("ImmutableRowCache", () => {
  it("answers what it remembered, frozen, per kind, and counts hits and misses", () => {
    const cache = new ImmutableRowCache(10);
    expect(cache.get("session", "s1")).toBeUndefined();
    const row = cache.remember("session", "s1", { session_id: "s1" });
    expect(Object.isFrozen(row)).toBe(true);
    expect(cache.get("session", "s1")).toBe(row);
    expect(cache.get("agent_version", "s1")).toBeUndefined();
    expect(cache.stats()).toEqual({ hits: 1, misses: 2, size: 1 });
    cache.clear();
    expect(cache.get("session", "s1")).toBeUndefined();
    expect(cache.stats().size).toBe(0);
  });

  it("read asks the database once per row, and again after a miss", async () => {
    const cache = new ImmutableRowCache(10);
    let reads = 0;
    const lookup = (found: boolean) => async () => {
      reads++;
      return found ? { agent_id: "a1", session_id: "s1" } : undefined;
    };
    expect(await cache.read("session", "s1", lookup(false))).toBeUndefined();
    expect(await cache.read("session", "s1", lookup(true))).toEqual({ agent_id: "a1", session_id: "s1" });
    expect(await cache.read("session", "s1", lookup(true))).toEqual({ agent_id: "a1", session_id: "s1" });
    expect(reads).toBe(2);
    expect(await cache.readInAgentScope("session", "s1", ["a2"], lookup(true))).toBeUndefined();
    expect(await cache.readInAgentScope("session", "s1", ["a1"], lookup(true))).toEqual({
      agent_id: "a1",
      session_id: "s1",
    });
    expect(await cache.readInAgentScope("session", "s2", "*", lookup(false))).toBeUndefined();
    expect(reads).toBe(3);
  });

  it("drops the least recently used row beyond its capacity", () => {
    const cache = new ImmutableRowCache(2);
    cache.remember("session", "a", { id: "a" });
    cache.remember("session", "b", { id: "b" });
    expect(cache.get("session", "a")).toEqual({ id: "a" }); // a is now the most recent
    cache.remember("session", "c", { id: "c" });
    expect(cache.get("session", "b")).toBeUndefined();
    expect(cache.get("session", "a")).toEqual({ id: "a" });
    expect(cache.get("session", "c")).toEqual({ id: "c" });
  });

  it("refuses a capacity that is not a positive integer", () => {
    for (const capacity of [0, -1, 1.5, Number.NaN]) expect(() => new ImmutableRowCache(capacity)).toThrow(RangeError);
  });

  it("inIdScope decides as the SQL condition does: all, a list, or nothing", () => {
    expect(inIdScope("a1", "*")).toBe(true);
    expect(inIdScope("a1", ["a0", "a1"])).toBe(true);
    expect(inIdScope("a1", ["a2"])).toBe(false);
    expect(inIdScope("a1", [])).toBe(false);
  });
});

describeEachDialect("immutable rows across storages of one database", (dialect) => {
  it("a miss is never remembered, a cached row keeps its scope, and migrations empty the cache", async () => {
    const database = await testDatabaseUrl(dialect);
    const a = await openStorage(database.url);
    const b = await openStorage(database.url, { migrate: false });
    try {
      // b looks first and finds nothing; a creates; b must find them now.
      expect(await b.sessions.get("s1", "*")).toBeUndefined();
      expect(await b.agents.getVersion("agv1", "*")).toBeUndefined();
      expect(await b.toolsets.getVersion("ts1", 1)).toBeUndefined();
      await a.bindings.insert(bindingRecord("b1"));
      const [toolset, version] = toolsetRecords("ts1", 1_000, toolsJson(["b1"]));
      await a.toolsets.insert(toolset, version);
      await a.agents.insert(agentRecord("a1"));
      const agentVersion = await a.agents.appendVersion(agentVersionInput("a1", "agv1", "ts1", 1));
      await a.sessions.insert(sessionRecord("s1", "a1", "agv1"));
      expect(await b.sessions.get("s1", "*")).toEqual(sessionRecord("s1", "a1", "agv1"));
      expect(await b.agents.getVersion("agv1", "*")).toEqual(agentVersion);
      expect(await b.toolsets.getVersion("ts1", 1)).toEqual(version);

      // Cached now: the scope still applies as in SQL.
      expect(await b.sessions.get("s1", ["a2"])).toBeUndefined();
      expect(await b.sessions.get("s1", [])).toBeUndefined();
      expect(await b.sessions.get("s1", ["a1"])).toEqual(sessionRecord("s1", "a1", "agv1"));
      expect(await b.agents.getVersion("agv1", ["a2"])).toBeUndefined();
      expect(await b.agents.getVersion("agv1", ["a1"])).toEqual(agentVersion);

      // Read once: a row changed underneath (nothing in the service does this; a migration may) is
      // still answered from the cache, until migrate() empties it.
      const raw = await connectDatabase(database.url);
      try {
        await sql`update toolset_versions set tools_json = ${"[]"} where toolset_id = ${"ts1"}`.execute(raw.db);
      } finally {
        await raw.db.destroy();
      }
      expect((await b.toolsets.getVersion("ts1", 1))?.tools_json).toBe(version.tools_json);
      await b.migrate();
      expect((await b.toolsets.getVersion("ts1", 1))?.tools_json).toBe("[]");
    } finally {
      await a.close();
      await b.close();
      await database.dispose();
    }
  });
});
