// After-commit effects (docs/storage.md, "After-commit effects") on both dialects: what a transaction's
// work registers reaches the storage's sinks only once that transaction committed — never after a
// rollback, only the committed attempt's when the caller tries again, and at once outside a transaction.
import { afterEach, beforeEach, expect, it } from "vitest";
import type { KyselyStorage } from "../../src/storage/kysely-storage.js";
import { openStorage } from "../../src/storage/open-storage.js";
import type { Wakeup } from "../../src/storage/records.js";
import { bindingRecord } from "../support/storage-fixtures.js";
import { describeEachDialect, testDatabaseUrl } from "../support/test-databases.js";

const cancelOf = (executorId: string): Wakeup => ({ kind: "cancel", executor_id: executorId });

describeEachDialect("after-commit effects", (dialect) => {
  let storage: KyselyStorage;
  let dispose: () => Promise<void>;
  let woken: Wakeup[];
  let ready: string[][];
  let queued: string[][];

  beforeEach(async () => {
    const database = await testDatabaseUrl(dialect);
    storage = await openStorage(database.url);
    woken = [];
    ready = [];
    queued = [];
    const stop = storage.onCommittedEffects({
      wakeExecutors: (wakeups) => woken.push(...wakeups),
      runsReady: (runIds) => ready.push([...runIds]),
      modelTurnsQueued: (runIds) => queued.push([...runIds]),
    });
    dispose = async () => {
      stop();
      await storage.close();
      await database.dispose();
    };
  });
  afterEach(() => dispose());

  it("runs a committed transaction's effects after its commit, once, ready runs deduplicated", async () => {
    const seenInside: number[] = [];
    await storage.transaction(async (stores) => {
      stores.afterCommit.wakeExecutors([cancelOf("e1")]);
      stores.afterCommit.runsReady(["run-1", "run-2"]);
      stores.afterCommit.runsReady(["run-1"]);
      stores.afterCommit.modelTurnsQueued(["run-3", "run-3"]);
      await stores.bindings.list({ limit: 1 }, "*");
      // Nothing has run while the transaction is open.
      seenInside.push(woken.length, ready.length, queued.length);
    });
    expect(seenInside).toEqual([0, 0, 0]);
    expect(woken).toEqual([cancelOf("e1")]);
    expect(ready).toEqual([["run-1", "run-2"]]);
    expect(queued).toEqual([["run-3"]]);
  });

  it("never runs the effects of a transaction that rolled back", async () => {
    await expect(
      storage.transaction(async (stores) => {
        stores.afterCommit.wakeExecutors([cancelOf("e-rolled-back")]);
        stores.afterCommit.runsReady(["run-rolled-back"]);
        expect(await stores.bindings.insert(bindingRecord("b-rolled-back"))).toBe(true);
        throw new Error("the work failed");
      }),
    ).rejects.toThrow("the work failed");
    expect(await storage.bindings.get("b-rolled-back", "*")).toBeUndefined();
    expect(woken).toEqual([]);
    expect(ready).toEqual([]);
  });

  it("runs only the committed attempt's effects when the transaction is tried again", async () => {
    let attempt = 0;
    const work = () =>
      storage.transaction(async (stores) => {
        attempt++;
        stores.afterCommit.wakeExecutors([cancelOf(`e-attempt-${attempt}`)]);
        stores.afterCommit.runsReady([`run-attempt-${attempt}`]);
        await stores.bindings.list({ limit: 1 }, "*");
        if (attempt < 3) throw new Error("conflict: try again");
      });
    for (;;) {
      try {
        await work();
        break;
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith("conflict")) throw error;
      }
    }
    expect(attempt).toBe(3);
    expect(woken).toEqual([cancelOf("e-attempt-3")]);
    expect(ready).toEqual([["run-attempt-3"]]);
  });

  it("keeps the effects of transactions committed together apart from a failed one beside them", async () => {
    // Started together: on SQLite they share one physical commit, the failed one rolled back to its savepoint.
    const outcomes = await Promise.allSettled(
      ["a", "b", "c"].map((name) =>
        storage.transaction(async (stores) => {
          stores.afterCommit.wakeExecutors([cancelOf(`e-${name}`)]);
          stores.afterCommit.runsReady([`run-${name}`]);
          await stores.bindings.list({ limit: 1 }, "*");
          if (name === "b") throw new Error("b fails");
        }),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    // In commit order, which on PostgreSQL (three connections) is not the order they started in.
    const byExecutor = (wakeup: unknown): string => JSON.stringify(wakeup);
    expect([...woken].sort((x, y) => byExecutor(x).localeCompare(byExecutor(y)))).toEqual([
      cancelOf("e-a"),
      cancelOf("e-c"),
    ]);
    expect(ready.flat().sort()).toEqual(["run-a", "run-c"]);
  });

  it("runs effects registered outside a transaction at once (the write they follow is committed)", () => {
    storage.afterCommit.wakeExecutors([cancelOf("e-now")]);
    storage.afterCommit.runsReady(["run-now", "run-now"]);
    storage.afterCommit.wakeExecutors([]);
    expect(woken).toEqual([cancelOf("e-now")]);
    expect(ready).toEqual([["run-now"]]);
  });
});
