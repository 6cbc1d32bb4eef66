// SQLite commits made durable off the event loop: the WAL's fsync runs on libuv's thread pool after
// each COMMIT; nothing is answered, and no other statement runs, before it finished.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { connectDatabase, type DatabaseConnection } from "../../src/storage/engine/connect-database.js";
import { SqliteWalSync, type WalSync } from "../../src/storage/engine/sqlite-wal-sync.js";
import { KyselyStorage } from "../../src/storage/kysely-storage.js";
import { isStorageUnavailableError } from "../../src/storage/storage-unavailable.js";
import { bindingRecord } from "../support/storage-fixtures.js";
import { testDatabaseUrl } from "../support/test-databases.js";

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A migrated storage on a fresh SQLite file whose WAL sync is `wrap(real)`. */
async function storageWithSync(
  wrap: (real: WalSync) => WalSync = (real) => real,
): Promise<{ storage: KyselyStorage; connection: DatabaseConnection; real: WalSync }> {
  const database = await testDatabaseUrl("sqlite");
  cleanups.push(database.dispose);
  const opened = await connectDatabase(database.url);
  const real = opened.walSync;
  if (real === undefined) throw new Error("a SQLite file connection has a WAL sync");
  const connection: DatabaseConnection = { ...opened, walSync: wrap(real) };
  const storage = new KyselyStorage(connection);
  cleanups.push(() => storage.close());
  await storage.migrate();
  return { storage, connection, real };
}

/** A promise and its resolver. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Tracks whether `promise` settled. */
function settledFlag(promise: Promise<unknown>): { readonly settled: boolean } {
  const flag = { settled: false };
  promise.then(
    () => {
      flag.settled = true;
    },
    () => {
      flag.settled = true;
    },
  );
  return flag;
}

describe("SQLite durable commit off the event loop", () => {
  it("fsyncs the WAL once per physical commit", async () => {
    let syncs = 0;
    const { storage } = await storageWithSync((real) => ({
      sync: async () => {
        await real.sync();
        syncs++;
      },
      close: () => real.close(),
    }));
    const before = { syncs, commits: storage.stats().commits };
    await Promise.all(Array.from({ length: 12 }, (_, i) => storage.bindings.insert(bindingRecord(`b${i}`))));
    await storage.transaction((t) => t.bindings.insert(bindingRecord("last")));
    const commits = storage.stats().commits - before.commits;
    expect(commits).toBeGreaterThan(0);
    expect(syncs - before.syncs).toBe(commits);
  });

  it("answers a write only after its fsync, and holds other statements until then while the loop runs", async () => {
    let hold: { entered: () => void; release: Promise<void> } | undefined;
    const { storage } = await storageWithSync((real) => ({
      sync: async () => {
        if (hold !== undefined) {
          hold.entered();
          await hold.release;
        }
        await real.sync();
      },
      close: () => real.close(),
    }));
    const entered = gate();
    const release = gate();
    hold = { entered: entered.open, release: release.promise };
    const write = storage.bindings.insert(bindingRecord("held"));
    const written = settledFlag(write);
    await entered.promise;
    const read = storage.bindings.get("held", "*");
    const readDone = settledFlag(read);
    // Timers fire while the disk works: the event loop is free.
    let ticks = 0;
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 5)).then(() => ticks++);
    expect(ticks).toBe(5);
    expect(written.settled).toBe(false);
    expect(readDone.settled).toBe(false);
    hold = undefined;
    release.open();
    expect(await write).toBe(true);
    expect((await read)?.binding_id).toBe("held");
  });

  it("answers storage_unavailable when the fsync fails, and commits the next write normally", async () => {
    let failNext = false;
    const { storage } = await storageWithSync((real) => ({
      sync: async () => {
        if (failNext) {
          failNext = false;
          throw Object.assign(new Error("EIO: i/o error, fsync"), { code: "EIO" });
        }
        await real.sync();
      },
      close: () => real.close(),
    }));
    failNext = true;
    const failed = await storage.bindings.insert(bindingRecord("unknown")).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isStorageUnavailableError(failed)).toBe(true);
    expect(String((failed as Error).message)).toMatch(/could not be made durable.*EIO.*outcome is unknown/);
    // The outcome was unknown, not undone: the row was committed.
    expect((await storage.bindings.get("unknown", "*"))?.binding_id).toBe("unknown");
    expect(await storage.bindings.insert(bindingRecord("next"))).toBe(true);
    expect((await storage.bindings.get("next", "*"))?.binding_id).toBe("next");
    // The same for a transaction (BEGIN … COMMIT) as for a lone write (SQLite's autocommit).
    failNext = true;
    const failedTransaction = await storage
      .transaction((t) => t.bindings.insert(bindingRecord("in-tx")))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(isStorageUnavailableError(failedTransaction)).toBe(true);
    expect((await storage.bindings.get("in-tx", "*"))?.binding_id).toBe("in-tx");
  });

  it("syncs nothing while there is no WAL file, and the WAL's data once there is", async () => {
    const dir = await mkdtemp(join(tmpdir(), "toolhost-wal-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const walSync = new SqliteWalSync(join(dir, "toolhost.db"));
    await walSync.sync();
    expect(walSync.syncs).toBe(0);
    await writeFile(join(dir, "toolhost.db-wal"), "frames");
    await walSync.sync();
    await walSync.sync();
    expect(walSync.syncs).toBe(2);
    await walSync.close();
    await walSync.close();
  });
});
