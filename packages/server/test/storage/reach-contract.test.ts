// The storage contract of reach (both dialects): keys are listed and revoked only within a caller's
// agents and bindings. The SQL filter agrees with the pure rule (`keyWithinReach`) on generated
// scopes, and pages stay full, since the filter runs before the limit.
import fc from "fast-check";
import { expect, it } from "vitest";
import { keyWithinReach } from "../../src/auth/key-reach.js";
import type { IdScope, IdScopes } from "../../src/storage/records.js";
import { allPages, keyRecord } from "../support/storage-fixtures.js";
import { describeEachDialect, useTestStorage } from "../support/test-databases.js";

const A1_B1: IdScopes = { agents: ["a1"], bindings: ["b1"] };

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

  it("keys: list and revoke reach only keys whose agents and bindings lie within the reach", async () => {
    const s = storage();
    const keys = [
      keyRecord("k0-all", { agents: "*", bindings: "*" }),
      keyRecord("k1-a1", { agents: ["a1"], bindings: ["b1"] }),
      keyRecord("k2-a1a2", { agents: ["a1", "a2"], bindings: ["b1"] }),
      keyRecord("k3-a1-every-binding", { agents: ["a1"], bindings: "*" }),
      keyRecord("k4-nothing", { agents: [], bindings: [] }),
      keyRecord("k5-a2", { agents: ["a2"], bindings: ["b2"] }),
    ];
    for (const [i, key] of keys.entries()) await s.keys.insert({ ...key, created_at_ms: 1_000 + i });
    const listed = async (reach: IdScopes) =>
      (
        await walk(
          (cursor) => s.keys.list({ limit: 2, cursor }, reach),
          (key) => key.key_id,
        )
      ).ids;
    expect(await listed({ agents: "*", bindings: "*" })).toEqual(keys.map((key) => key.key_id));
    expect(await listed(A1_B1)).toEqual(["k1-a1", "k4-nothing"]);
    expect(await listed({ agents: ["a1", "a2"], bindings: ["b1", "b2"] })).toEqual([
      "k1-a1",
      "k2-a1a2",
      "k4-nothing",
      "k5-a2",
    ]);
    expect(await listed({ agents: "*", bindings: ["b1"] })).toEqual(["k1-a1", "k2-a1a2", "k4-nothing"]);
    expect(await listed({ agents: ["a1"], bindings: "*" })).toEqual(["k1-a1", "k3-a1-every-binding", "k4-nothing"]);
    expect(await listed({ agents: [], bindings: [] })).toEqual(["k4-nothing"]);

    // Beyond reach: answered like a missing key, and left as it was.
    for (const beyond of ["k0-all", "k2-a1a2", "k3-a1-every-binding", "k5-a2", "nope"]) {
      expect(await s.keys.revoke(beyond, 5_000, A1_B1), beyond).toBeUndefined();
      expect((await s.keys.get(beyond))?.revoked_at_ms ?? null, beyond).toBeNull();
    }
    const k1 = keys[1];
    expect(await s.keys.revoke("k1-a1", 5_000, A1_B1)).toEqual({ ...k1, created_at_ms: 1_001, revoked_at_ms: 5_000 });
    expect(await s.keys.revoke("k1-a1", 9_000, A1_B1)).toMatchObject({ revoked_at_ms: 5_000 });
    expect(await s.keys.revoke("k0-all", 6_000, { agents: "*", bindings: "*" })).toMatchObject({
      revoked_at_ms: 6_000,
    });
  });

  it("keys: the SQL reach filter agrees with keyWithinReach and pages stay full", async () => {
    const s = storage();
    const scopes = fc.sample(fc.record({ agents: ID_SCOPE, bindings: ID_SCOPE }), { numRuns: 40, seed: 9 });
    const keys = scopes.map((scope, i) => ({
      ...keyRecord(`k${String(i).padStart(2, "0")}`, { ...scope, created_at_ms: 1_000 + (i % 7) }),
    }));
    for (const key of keys) await s.keys.insert(key);
    const ordered = [...keys].sort((x, y) => x.created_at_ms - y.created_at_ms || (x.key_id < y.key_id ? -1 : 1));
    await fc.assert(
      fc.asyncProperty(
        fc.record({ agents: ID_SCOPE, bindings: ID_SCOPE }),
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
});
