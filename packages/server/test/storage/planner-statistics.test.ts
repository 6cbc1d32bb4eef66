// The server keeps the planner statistics of the hot tables (docs/storage.md, "Indexes of the hot
// queries"): on PostgreSQL a never-analysed or much-changed hot table is analysed, a fresh one is left
// alone; SQLite needs none. The sweep looks every 10 s and reports what it analysed.

import { sql } from "kysely";
import { afterEach, expect, it, vi } from "vitest";
import { PLANNER_STATISTICS_LOOK_MS, plannerStatisticsSweep } from "../../src/runtime/planner-statistics-sweep.js";
import { connectDatabase } from "../../src/storage/engine/connect-database.js";
import { HOT_QUERY_TABLES } from "../../src/storage/engine/planner-statistics.js";
import type { KyselyStorage } from "../../src/storage/kysely-storage.js";
import { openStorage } from "../../src/storage/open-storage.js";
import { publishRuntime, runRecord } from "../support/call-fixtures.js";
import { describeEachDialect, testDatabaseUrl } from "../support/test-databases.js";

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

async function open(dialect: "sqlite" | "postgres") {
  const database = await testDatabaseUrl(dialect);
  const storage: KyselyStorage = await openStorage(database.url);
  const raw = await connectDatabase(database.url);
  closing.push(async () => {
    await raw.db.destroy();
    await storage.close();
  });
  return { storage, db: raw.db };
}

describeEachDialect("planner statistics", (dialect) => {
  if (dialect === "sqlite") {
    it("has nothing to analyse on SQLite (its plans need no statistics)", async () => {
      const { storage } = await open(dialect);
      expect(await storage.refreshStatistics()).toEqual([]);
    });
    return;
  }

  it("analyses the never-analysed hot tables once, then again only after many changes", async () => {
    const { storage, db } = await open(dialect);
    expect(await storage.refreshStatistics()).toEqual([...HOT_QUERY_TABLES].sort());
    const analysed = await sql<{ relname: string }>`
      select relname from pg_stat_user_tables
      where schemaname = current_schema() and last_analyze is not null`.execute(db);
    expect(analysed.rows.map((row) => row.relname)).toEqual(expect.arrayContaining([...HOT_QUERY_TABLES]));
    expect(await storage.refreshStatistics()).toEqual([]);
    // 50 rows + 10% changed since: stale (the counters reach the statistics views within a second or so).
    await publishRuntime(storage);
    for (let i = 0; i < 60; i++) await storage.runs.insert(runRecord(`r${i}`));
    await vi.waitFor(async () => expect(await storage.refreshStatistics()).toEqual(["runs"]), {
      timeout: 20_000,
      interval: 250,
    });
    expect(await storage.refreshStatistics()).toEqual([]);
  }, 60_000);

  it("the sweep looks at the first tick and then every 10 s, and reports what it analysed", async () => {
    const { storage } = await open(dialect);
    const reported: string[][] = [];
    const looks: number[] = [];
    const refresh = storage.refreshStatistics.bind(storage);
    storage.refreshStatistics = async () => {
      looks.push(1);
      return refresh();
    };
    const context = {
      storage,
      events: { statisticsRefreshed: (tables: readonly string[]) => reported.push([...tables]) },
    };
    await plannerStatisticsSweep.run(context, 1_000);
    await plannerStatisticsSweep.run(context, 1_000 + PLANNER_STATISTICS_LOOK_MS - 1);
    expect(looks).toHaveLength(1);
    expect(reported).toEqual([[...HOT_QUERY_TABLES].sort()]);
    await plannerStatisticsSweep.run(context, 1_000 + PLANNER_STATISTICS_LOOK_MS);
    expect(looks).toHaveLength(2);
    expect(reported).toHaveLength(1);
  }, 60_000);
});
