/**
 * Keeps the planner statistics of the hot queries' tables fresh (storage/engine/planner-statistics.ts): at
 * the first tick, then every PLANNER_STATISTICS_LOOK_MS, one look at the tables' change counters
 * (PostgreSQL; nothing on SQLite), and an ANALYZE of those that are stale. A cluster with autovacuum on
 * has usually analysed them already; the look then costs one small statement every 10 s. An ANALYZE also
 * makes every instance plan its cached prepared statements again: a generic plan made while a table
 * was tiny (a scan and a sort are cheapest there) would otherwise stay as the table grows.
 */

import type { Storage } from "../storage/storage.js";
import type { Sweep } from "./sweeper.js";

/** How often the sweep looks at the statistics. */
export const PLANNER_STATISTICS_LOOK_MS = 10_000;

/** When each server (by its storage) looks next, on its clock. */
const nextLookMs = new WeakMap<Storage, number>();

/** The planner-statistics sweep. */
export const plannerStatisticsSweep: Sweep<{
  readonly storage: Storage;
  readonly events: { statisticsRefreshed(tables: readonly string[]): void };
}> = {
  name: "planner-statistics",
  async run(context, nowMs) {
    const { storage } = context;
    if (storage.dialect !== "postgres") return;
    if (nowMs < (nextLookMs.get(storage) ?? Number.NEGATIVE_INFINITY)) return;
    nextLookMs.set(storage, nowMs + PLANNER_STATISTICS_LOOK_MS);
    const tables = await storage.refreshStatistics();
    if (tables.length > 0) context.events.statisticsRefreshed(tables);
  },
};
