// The storage contract of reach (both dialects): keys are listed and revoked only within a caller's
// agents, bindings and model connections, toolsets are read, listed and appended only within a binding scope holding
// every binding of every version. The SQL filters agree with the pure rules (`keyWithinReach`) on
// generated scopes, and pages stay full, since the filter runs before the limit.
import fc from "fast-check";
import { expect, it } from "vitest";
import { idScopeWithin, keyWithinReach } from "../../src/auth/key-reach.js";
import type { IdScope, IdScopes } from "../../src/storage/records.js";
import { allPages, keyRecord, toolsetRecords, toolsJson } from "../support/storage-fixtures.js";
import { describeEachDialect, useTestStorage } from "../support/test-databases.js";

const A1_B1: IdScopes = { agents: ["a1"], bindings: ["b1"], connections: "*" };

/** IDs of every page of a list, and the page sizes. */
async function walk<T>(
  list: (cursor: string | null) => Promise<{ items: T[]; next_cursor: string | null }>,
  id: (item: T) => string,
) {
  const pages = await allPages(list);
  return { ids: pages.flatMap((page) => page.items.map(id)), sizes: pages.map((page) => page.items.length) };
}

/** Page sizes of `count` items read `limit` at a time: every page full but the last. */
function fullPages(count: number, limit: number): number[] {
  if (count === 0) return [0];
  return Array.from({ length: Math.ceil(count / limit) }, (_, i) => Math.min(limit, count - i * limit));
}

// A small alphabet, so generated scopes overlap often.
const ID = fc.constantFrom("a", "b", "c.1", "d:2");
const ID_SCOPE: fc.Arbitrary<IdScope> = fc.oneof(fc.constant("*" as const), fc.uniqueArray(ID, { maxLength: 4 }));

describeEachDialect("storage contract: reach", (dialect) => {
  const storage = useTestStorage(dialect);

  it("keys: list and revoke reach only keys whose agents, bindings and connections lie within the reach", async () => {
    const s = storage();
    const keys = [
      keyRecord("k0-all", { agents: "*", bindings: "*" }),
      keyRecord("k1-a1", { agents: ["a1"], bindings: ["b1"] }),
      keyRecord("k2-a1a2", { agents: ["a1", "a2"], bindings: ["b1"] }),
      keyRecord("k3-a1-every-binding", { agents: ["a1"], bindings: "*" }),
      keyRecord("k4-nothing", { agents: [], bindings: [] }),
      keyRecord("k5-a2", { agents: ["a2"], bindings: ["b2"] }),
      keyRecord("k6-a1-c1", { agents: ["a1"], bindings: ["b1"], connections: ["c1"] }),
    ];
    for (const [i, key] of keys.entries()) await s.keys.insert({ ...key, created_at_ms: 1_000 + i });
    const listed = async (reach: IdScopes) =>
      (
        await walk(
          (cursor) => s.keys.list({ limit: 2, cursor }, reach),
          (key) => key.key_id,
        )
      ).ids;
    const all = "*" as const;
    expect(await listed({ agents: "*", bindings: "*", connections: all })).toEqual(keys.map((key) => key.key_id));
    expect(await listed(A1_B1)).toEqual(["k1-a1", "k4-nothing", "k6-a1-c1"]);
    expect(await listed({ agents: ["a1", "a2"], bindings: ["b1", "b2"], connections: all })).toEqual([
      "k1-a1",
      "k2-a1a2",
      "k4-nothing",
      "k5-a2",
      "k6-a1-c1",
    ]);
    expect(await listed({ agents: "*", bindings: ["b1"], connections: all })).toEqual([
      "k1-a1",
      "k2-a1a2",
      "k4-nothing",
      "k6-a1-c1",
    ]);
    expect(await listed({ agents: ["a1"], bindings: "*", connections: all })).toEqual([
      "k1-a1",
      "k3-a1-every-binding",
      "k4-nothing",
      "k6-a1-c1",
    ]);
    expect(await listed({ agents: [], bindings: [], connections: all })).toEqual(["k4-nothing"]);
    // A key reaching every connection lies beyond a reach narrowed to some.
    expect(await listed({ ...A1_B1, connections: ["c1", "c2"] })).toEqual(["k6-a1-c1"]);
    expect(await listed({ ...A1_B1, connections: [] })).toEqual([]);
    expect(await s.keys.revoke("k6-a1-c1", 5_000, { ...A1_B1, connections: ["c2"] })).toBeUndefined();
    expect(await s.keys.revoke("k1-a1", 5_000, { ...A1_B1, connections: ["c1"] })).toBeUndefined();

    // Beyond reach: answered like a missing key, and left as it was.
    for (const beyond of ["k0-all", "k2-a1a2", "k3-a1-every-binding", "k5-a2", "nope"]) {
      expect(await s.keys.revoke(beyond, 5_000, A1_B1), beyond).toBeUndefined();
      expect((await s.keys.get(beyond))?.revoked_at_ms ?? null, beyond).toBeNull();
    }
    const k1 = keys[1];
    expect(await s.keys.revoke("k1-a1", 5_000, A1_B1)).toEqual({ ...k1, created_at_ms: 1_001, revoked_at_ms: 5_000 });
    expect(await s.keys.revoke("k1-a1", 9_000, A1_B1)).toMatchObject({ revoked_at_ms: 5_000 });
    expect(await s.keys.revoke("k0-all", 6_000, { agents: "*", bindings: "*", connections: "*" })).toMatchObject({
      revoked_at_ms: 6_000,
    });
  });

  it("keys: the SQL reach filter agrees with keyWithinReach and pages stay full", async () => {
    const s = storage();
    const scopes = fc.sample(fc.record({ agents: ID_SCOPE, bindings: ID_SCOPE, connections: ID_SCOPE }), {
      numRuns: 40,
      seed: 9,
    });
    const keys = scopes.map((scope, i) => ({
      ...keyRecord(`k${String(i).padStart(2, "0")}`, { ...scope, created_at_ms: 1_000 + (i % 7) }),
    }));
    for (const key of keys) await s.keys.insert(key);
    const ordered = [...keys].sort((x, y) => x.created_at_ms - y.created_at_ms || (x.key_id < y.key_id ? -1 : 1));
    await fc.assert(
      fc.asyncProperty(
        fc.record({ agents: ID_SCOPE, bindings: ID_SCOPE, connections: ID_SCOPE }),
        fc.integer({ min: 1, max: 7 }),
        async (reach, limit) => {
          const expected = ordered.filter((key) => keyWithinReach(key, reach)).map((key) => key.key_id);
          const { ids, sizes } = await walk(
            (cursor) => s.keys.list({ limit, cursor }, reach),
            (key) => key.key_id,
          );
          expect(ids).toEqual(expected);
          expect(sizes).toEqual(fullPages(expected.length, limit));
        },
      ),
      { numRuns: 40, seed: 17 },
    );
  });

  it("toolsets: a toolset lies in a scope holding every binding of every version; none: every scope", async () => {
    const s = storage();
    await s.toolsets.insert(...toolsetRecords("ts-b1", 1_000, toolsJson(["b1", "b1"])));
    await s.toolsets.insert(...toolsetRecords("ts-b1b2", 1_001, toolsJson(["b1", "b2"])));
    await s.toolsets.insert(...toolsetRecords("ts-empty", 1_002, toolsJson([])));
    await s.toolsets.insert(...toolsetRecords("ts-grows", 1_003, toolsJson(["b1"])));
    await s.toolsets.appendVersion("ts-grows", toolsJson([]), 2_000, "*");
    const visible = async (scope: IdScope) =>
      (
        await walk(
          (cursor) => s.toolsets.list({ limit: 1, cursor }, scope),
          (t) => t.toolset_id,
        )
      ).ids;
    expect(await visible("*")).toEqual(["ts-b1", "ts-b1b2", "ts-empty", "ts-grows"]);
    expect(await visible(["b1"])).toEqual(["ts-b1", "ts-empty", "ts-grows"]);
    expect(await visible(["b2", "b1", "zz"])).toEqual(["ts-b1", "ts-b1b2", "ts-empty", "ts-grows"]);
    expect(await visible(["b2"])).toEqual(["ts-empty"]);
    expect(await visible([])).toEqual(["ts-empty"]);
    expect(await s.toolsets.get("ts-b1b2", ["b1"])).toBeUndefined();
    expect(await s.toolsets.get("ts-b1b2", ["b1", "b2"])).toEqual(toolsetRecords("ts-b1b2", 1_001)[0]);
    expect(await s.toolsets.get("ts-empty", [])).toMatchObject({ toolset_id: "ts-empty" });

    // A version that adds a binding moves the whole toolset out of scopes without it (version 1 included).
    expect(await s.toolsets.appendVersion("ts-grows", toolsJson(["b2"]), 3_000, "*")).toMatchObject({ version: 3 });
    expect(await s.toolsets.get("ts-grows", ["b1"])).toBeUndefined();
    expect(await visible(["b1"])).toEqual(["ts-b1", "ts-empty"]);
    expect(await s.toolsets.get("ts-grows", ["b1", "b2"])).toMatchObject({ latest_version: 3 });
  });

  it("toolsets: appendVersion beyond the scope (the toolset's bindings or the new ones) stores nothing", async () => {
    const s = storage();
    await s.toolsets.insert(...toolsetRecords("ts-a", 1_000, toolsJson(["a"])));
    await s.toolsets.insert(...toolsetRecords("ts-empty", 1_001, toolsJson([])));
    // Another tenant's toolset: not appendable, even with tools on the caller's own binding.
    expect(await s.toolsets.appendVersion("ts-a", toolsJson(["b"]), 2_000, ["b"])).toBeUndefined();
    expect(await s.toolsets.appendVersion("ts-a", toolsJson([]), 2_000, ["b"])).toBeUndefined();
    // Its own toolset, but new tools on a binding beyond the scope.
    expect(await s.toolsets.appendVersion("ts-a", toolsJson(["a", "b"]), 2_000, ["a"])).toBeUndefined();
    expect(await s.toolsets.appendVersion("ts-empty", toolsJson(["b"]), 2_000, [])).toBeUndefined();
    expect(await s.toolsets.get("ts-a", "*")).toMatchObject({ latest_version: 1 });
    expect(await s.toolsets.getVersion("ts-a", 2)).toBeUndefined();
    expect(await s.toolsets.get("ts-a", ["a"])).toMatchObject({ latest_version: 1 });
    expect(await s.toolsets.get("ts-empty", [])).toMatchObject({ latest_version: 1 });
    // Within scope it appends (and inside a transaction too).
    expect(await s.toolsets.appendVersion("ts-a", toolsJson(["a"]), 2_000, ["a", "zz"])).toMatchObject({ version: 2 });
    expect(await s.transaction((t) => t.toolsets.appendVersion("ts-a", toolsJson([]), 2_001, ["a"]))).toMatchObject({
      version: 3,
    });
    expect(await s.toolsets.appendVersion("nope", toolsJson([]), 2_000, ["a"])).toBeUndefined();
  });

  it("toolsets: a scoped append never lands after a concurrent version that added a binding beyond its scope", async () => {
    const s = storage();
    await s.toolsets.insert(...toolsetRecords("ts1", 1_000, toolsJson(["b1"])));
    const scoped = Array.from({ length: 12 }, (_, i) =>
      s.toolsets.appendVersion("ts1", toolsJson(["b1"]), 2_000 + i, ["b1"]),
    );
    const widening = s.toolsets.appendVersion("ts1", toolsJson(["b2"]), 3_000, "*");
    const more = Array.from({ length: 12 }, (_, i) =>
      s.toolsets.appendVersion("ts1", toolsJson(["b1"]), 4_000 + i, ["b1"]),
    );
    const [wide, ...narrow] = await Promise.all([widening, ...scoped, ...more]);
    const widenedAt = wide?.version ?? -1;
    expect(widenedAt).toBeGreaterThan(1);
    const landed = narrow.flatMap((version) => (version === undefined ? [] : [version.version]));
    for (const number of landed) expect(number).toBeLessThan(widenedAt);
    // Every number up to the widening one was taken, and none after it.
    expect([...landed, widenedAt].sort((a, b) => a - b)).toEqual(
      Array.from({ length: widenedAt - 1 }, (_, i) => i + 2),
    );
    expect(await s.toolsets.get("ts1", "*")).toMatchObject({ latest_version: widenedAt });
  });

  it("toolsets: the SQL scope filter agrees with the bindings of every version", async () => {
    const s = storage();
    const histories = fc.sample(fc.array(fc.uniqueArray(ID, { maxLength: 3 }), { minLength: 1, maxLength: 3 }), {
      numRuns: 30,
      seed: 5,
    });
    const ids = histories.map((_, i) => `ts${String(i).padStart(2, "0")}`);
    for (const [i, history] of histories.entries()) {
      const [first, ...rest] = history;
      await s.toolsets.insert(...toolsetRecords(ids[i] as string, 1_000 + i, toolsJson(first ?? [])));
      for (const tools of rest) await s.toolsets.appendVersion(ids[i] as string, toolsJson(tools), 2_000, "*");
    }
    await fc.assert(
      fc.asyncProperty(ID_SCOPE, fc.integer({ min: 1, max: 6 }), async (scope, limit) => {
        const expected = ids.filter((_, i) => idScopeWithin((histories[i] ?? []).flat(), scope));
        const { ids: listed, sizes } = await walk(
          (cursor) => s.toolsets.list({ limit, cursor }, scope),
          (t) => t.toolset_id,
        );
        expect(listed).toEqual(expected);
        expect(sizes).toEqual(fullPages(expected.length, limit));
        for (const id of ids.slice(0, 5)) {
          expect((await s.toolsets.get(id, scope)) !== undefined, id).toBe(expected.includes(id));
        }
      }),
      { numRuns: 30, seed: 23 },
    );
  });
});
