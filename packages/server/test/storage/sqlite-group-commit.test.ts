// SQLite group commit: grouping, durability at answer time, isolation of plain reads, and shutdown.
import BetterSqlite3 from "better-sqlite3";
import { type Kysely, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import type { KyselyStorage } from "../../src/storage/kysely-storage.js";
import { openStorage } from "../../src/storage/open-storage.js";
import { isStorageUnavailableError } from "../../src/storage/storage-unavailable.js";
import { bindingRecord } from "../support/storage-fixtures.js";
import { testDatabaseUrl } from "../support/test-databases.js";

const opened: { storage: KyselyStorage; dispose: () => Promise<void> }[] = [];

async function sqliteStorage(maxCommitBatch?: number): Promise<{ storage: KyselyStorage; path: string }> {
  const database = await testDatabaseUrl("sqlite");
  const storage = await openStorage(database.url, maxCommitBatch === undefined ? {} : { maxCommitBatch });
  opened.push({ storage, dispose: database.dispose });
  return { storage, path: database.url.slice("sqlite:".length) };
}

afterEach(async () => {
  for (const { storage, dispose } of opened.splice(0)) {
    await storage.close();
    await dispose();
  }
});

/** A promise and its resolver, to hold a transaction open at a known point. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe("SQLite group commit", () => {
  it("answers each transaction only once its commit is visible to another connection", async () => {
    const { storage, path } = await sqliteStorage();
    const reader = new BetterSqlite3(path, { readonly: true });
    try {
      const count = reader.prepare("select count(*) as n from bindings where binding_id = ?");
      const seenAtAnswer: number[] = [];
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          storage
            .transaction((t) => t.bindings.insert(bindingRecord(`b${i}`)))
            .then(() => {
              seenAtAnswer.push((count.get(`b${i}`) as { n: number }).n);
            }),
        ),
      );
      expect(seenAtAnswer).toEqual(Array.from({ length: 20 }, () => 1));
    } finally {
      reader.close();
    }
  });

  it("groups writes made outside transactions as well", async () => {
    const { storage } = await sqliteStorage();
    const before = storage.stats();
    const inserted = await Promise.all(
      Array.from({ length: 30 }, (_, i) => storage.bindings.insert(bindingRecord(`b${i}`))),
    );
    expect(inserted.every(Boolean)).toBe(true);
    const after = storage.stats();
    expect(after.transactions - before.transactions).toBe(30);
    expect(after.commits - before.commits).toBeLessThan(30);
    expect((await storage.bindings.list({ limit: 100 }, "*")).items).toHaveLength(30);
  });

  it("runs a lone write outside a transaction as its own statement: durable at its answer, no BEGIN/COMMIT sent", async () => {
    const { storage, path } = await sqliteStorage();
    const reader = new BetterSqlite3(path, { readonly: true });
    try {
      const before = storage.stats();
      expect(await storage.bindings.insert(bindingRecord("b1"))).toBe(true);
      const after = storage.stats();
      // Visible to another connection at the answer: committed.
      expect(reader.prepare("select count(*) as n from bindings where binding_id = 'b1'").get()).toEqual({ n: 1 });
      expect(after.statements - before.statements).toBe(1);
      expect(after.commits - before.commits).toBe(1);
      expect(after.transactions - before.transactions).toBe(1);
      // A failing one is refused and changes nothing; the next write goes on.
      await expect(storage.history.append("missing", ["{}"], 1)).rejects.toThrow();
      expect(await storage.bindings.insert(bindingRecord("b2"))).toBe(true);
      expect(reader.prepare("select count(*) as n from bindings").get()).toEqual({ n: 2 });
    } finally {
      reader.close();
    }
  });

  it("commits once per transaction when grouping is turned off (maxCommitBatch 1)", async () => {
    const { storage } = await sqliteStorage(1);
    const before = storage.stats();
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => storage.transaction((t) => t.bindings.insert(bindingRecord(`b${i}`)))),
    );
    const after = storage.stats();
    expect(after.commits - before.commits).toBe(10);
    expect(after.transactions - before.transactions).toBe(10);
  });

  it("keeps a plain read out of an open batch: it never sees writes that are later rolled back", async () => {
    const { storage } = await sqliteStorage();
    const inserted = gate();
    const release = gate();
    const transaction = storage.transaction(async (t) => {
      await t.bindings.insert(bindingRecord("b1"));
      inserted.open();
      await release.promise;
      throw new Error("roll back");
    });
    await inserted.promise; // The batch is open and holds the uncommitted binding.
    const read = storage.bindings.get("b1", "*");
    release.open();
    await expect(transaction).rejects.toThrow("roll back");
    expect(await read).toBeUndefined();
  });

  it("lets one failing transaction in a batch leave the others' writes intact", async () => {
    const { storage } = await sqliteStorage();
    const results = await Promise.allSettled([
      storage.transaction((t) => t.bindings.insert(bindingRecord("b1"))),
      storage.transaction(async (t) => {
        await t.bindings.insert(bindingRecord("b2"));
        await t.bindings.insert(bindingRecord("b3"));
        throw new Error("no");
      }),
      storage.transaction((t) => t.bindings.insert(bindingRecord("b4"))),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(await storage.bindings.existing(["b1", "b2", "b3", "b4"], "*")).toEqual(new Set(["b1", "b4"]));
  });

  it("close waits for queued transactions and refuses new ones", async () => {
    const { storage } = await sqliteStorage();
    const queued = Array.from({ length: 5 }, (_, i) =>
      storage.transaction((t) => t.bindings.insert(bindingRecord(`b${i}`))),
    );
    const closing = storage.close();
    await expect(storage.transaction(async () => 1)).rejects.toThrow("storage is closed");
    await closing;
    expect(await Promise.all(queued)).toEqual([true, true, true, true, true]);
  });

  it("a disk-full error that SQLite answers by rolling the batch back fails every transaction of the batch with it", async () => {
    const { storage } = await sqliteStorage();
    const db = (storage as unknown as { connection: { db: Kysely<unknown> } }).connection.db;
    const pages = await sql<{ page_count: number }>`pragma page_count`.execute(db);
    await sql.raw(`pragma max_page_count = ${pages.rows[0]?.page_count}`).execute(db);
    // One batch: a small write, then one that needs pages the "disk" does not have.
    const results = await Promise.allSettled([
      storage.bindings.insert(bindingRecord("small")),
      storage.bindings.insert({ ...bindingRecord("large"), name: "x".repeat(100_000) }),
    ]);
    for (const result of results) {
      expect(result.status).toBe("rejected");
      expect(isStorageUnavailableError((result as PromiseRejectedResult).reason)).toBe(true);
      expect(((result as PromiseRejectedResult).reason as Error).cause).toMatchObject({ code: "SQLITE_FULL" });
    }
    await sql.raw("pragma max_page_count = 1073741823").execute(db);
    expect(await storage.bindings.existing(["small", "large"], "*")).toEqual(new Set());
    expect(await storage.bindings.insert(bindingRecord("small"))).toBe(true);
  });
});
