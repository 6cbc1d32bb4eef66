// The history cache behind HistoryStore.items (docs/storage.md#history-reads): a read answers the
// whole history though it reads only the items after those kept; items a transaction wrote and read
// are kept only once it committed, so a rolled-back append is never answered later; another writer's
// appends are seen; retention forgets a deleted run. On both dialects, and the cache's bound alone.
import { expect, it } from "vitest";
import { HistoryCache } from "../../src/storage/engine/history-cache.js";
import type { KyselyStorage } from "../../src/storage/kysely-storage.js";
import { publishRuntime, runRecord } from "../support/call-fixtures.js";
import { describeEachDialect, useTestStorage } from "../support/test-databases.js";

const texts = (run: { item_json: string }[]) => run.map((item) => item.item_json);

describeEachDialect("history cache", (dialect) => {
  const storage = useTestStorage(dialect);

  it("items: the whole history, reading only what was appended since the last read", async () => {
    const s = storage() as KyselyStorage;
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1"));
    await s.history.append("r1", ['{"n":0}', '{"n":1}'], 1);
    expect(texts(await s.history.items("r1"))).toEqual(['{"n":0}', '{"n":1}']);
    await s.history.append("r1", ['{"n":2}'], 2);
    const before = s.stats().rowsRead;
    expect(texts(await s.history.items("r1"))).toEqual(['{"n":0}', '{"n":1}', '{"n":2}']);
    expect(s.stats().rowsRead - before).toBe(1);
    expect((await s.history.items("r1")).map((item) => item.seq)).toEqual([0, 1, 2]);
  });

  it("items: what a rolled-back transaction wrote and read is never answered after", async () => {
    const s = storage();
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1"));
    await s.history.append("r1", ['{"n":0}'], 1);
    await expect(
      s.transaction(async (stores) => {
        await stores.history.append("r1", ['{"lost":true}'], 2);
        expect(texts(await stores.history.items("r1"))).toEqual(['{"n":0}', '{"lost":true}']);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await s.history.append("r1", ['{"n":1}'], 3);
    expect(texts(await s.history.items("r1"))).toEqual(['{"n":0}', '{"n":1}']);
    // And inside a committed transaction, its deferred appends are answered after the stored items.
    await s.transaction(async (stores) => {
      stores.history.lengthKnown("r1", 2);
      await stores.history.append("r1", ['{"n":2}'], 4);
      expect(texts(await stores.history.items("r1"))).toEqual(['{"n":0}', '{"n":1}', '{"n":2}']);
    });
    expect(texts(await s.history.items("r1"))).toEqual(['{"n":0}', '{"n":1}', '{"n":2}']);
  });

  it("retention forgets a deleted run", async () => {
    const s = storage();
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1", { status: "completed", ended_at_ms: 10 }));
    await s.history.append("r1", ['{"n":0}'], 1);
    expect(texts(await s.history.items("r1"))).toEqual(['{"n":0}']);
    expect(await s.runRetention.deleteRuns(["r1"], 11)).toEqual(["r1"]);
    expect(await s.history.items("r1")).toEqual([]);
  });
});

it("the cache keeps runs up to its bound, dropping the least recently used; a run over a quarter of it is not kept", () => {
  const item = (seq: number, size: number) => ({ run_id: "r", seq, item_json: "x".repeat(size), created_at_ms: 0 });
  const cache = new HistoryCache(100);
  cache.extend("a", 0, [item(0, 20)]);
  cache.extend("b", 0, [item(0, 20)]);
  // A gap (from 5 while nothing is kept) and a repeat (from 0 again) change nothing.
  cache.extend("a", 5, [item(5, 1)]);
  cache.extend("a", 0, [item(0, 20)]);
  expect(cache.stats()).toEqual({ runs: 2, characters: 40 });
  cache.get("a");
  for (const run of ["c", "d", "e", "f"]) cache.extend(run, 0, [item(0, 20)]);
  expect(cache.get("b")).toEqual([]);
  expect(cache.get("a")).toHaveLength(1);
  cache.extend("big", 0, [item(0, 26)]);
  expect(cache.get("big")).toEqual([]);
  expect(cache.stats().characters).toBeLessThanOrEqual(100);
});
