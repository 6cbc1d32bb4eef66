// The plans of the hot queries (every pending poll, the pending claim, every periodic sweep) read an
// index in order and stop at their limit: no sort and no table scan, at a queue depth where a planner
// that could scan would (tens of thousands of calls). `EXPLAIN` on PostgreSQL (the generic plan of a
// prepared statement, as the server runs them, and the custom plan for the values, with the statistics
// the server's upkeep keeps: storage/engine/planner-statistics.ts), `EXPLAIN QUERY
// PLAN` on SQLite (without statistics and after `ANALYZE`). The statements are the ones the stores
// send, seen through the storage's statement observer. See docs/storage.md, "Indexes of the hot queries".

import { CompiledQuery as Compiled, type CompiledQuery, type Kysely, sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEADLINE_STATUSES } from "../../src/calls/call-deadline-sweeps.js";
import type { Database } from "../../src/storage/database-schema.js";
import { connectDatabase } from "../../src/storage/engine/connect-database.js";
import type { KyselyStorage } from "../../src/storage/kysely-storage.js";
import { openStorage } from "../../src/storage/open-storage.js";
import type { CallRecord } from "../../src/storage/records.js";
import { callRecord, publishRuntime, runRecord } from "../support/call-fixtures.js";
import { describeEachDialect, testDatabaseUrl } from "../support/test-databases.js";

const NOW = 50_000;
const RUNS = 500;
const PENDING_B1 = 20_000;
const PENDING_B2 = 2_000;
const SETTLED = 10_000;
const EXECUTORS = 2_000;
const MODEL_TURNS = 5_000;
const ENDED_RUNS = 20_000;
const READY_RUNS = 400;

/** The tables the hot queries read (a scan of any of them fails the test); c and r alias calls and runs. */
const TABLES = ["tool_calls", "runs", "executors", "model_turns", "c", "r"];

/** Writes the queue: many runs, pending calls on two bindings, settled, claimed and accepted calls, executors, model turns. */
async function seed(storage: KyselyStorage, db: Kysely<Database>): Promise<void> {
  await publishRuntime(storage);
  for (let i = 0; i < RUNS; i++) await storage.runs.insert(runRecord(`r${i}`));
  const calls: CallRecord[] = [];
  const add = (index: number, overrides: Partial<CallRecord>): void => {
    calls.push(
      callRecord(`r${index % RUNS}`, `c${String(index).padStart(6, "0")}`, {
        created_at_ms: 6_000 + index,
        ...overrides,
      }),
    );
  };
  let index = 0;
  for (let i = 0; i < PENDING_B1; i++) add(index++, {});
  for (let i = 0; i < PENDING_B2; i++) add(index++, { binding_id: "b2" });
  for (let i = 0; i < SETTLED; i++) {
    add(index++, { status: "completed", executor_id: `e${i % 50}`, claim_id: `k${i}`, settled_at_ms: 7_000 });
  }
  for (let i = 0; i < 300; i++) {
    // A third of the claims lapsed; accepted calls, some of them asked to cancel.
    add(index++, {
      status: "claimed",
      executor_id: `e${i % 50}`,
      claim_id: `k${i}`,
      claimed_at_ms: 7_000,
      accept_deadline_ms: i % 3 === 0 ? NOW - 1 : NOW + 10_000,
    });
    add(index++, {
      status: "accepted",
      executor_id: `e${i % 50}`,
      claim_id: `a${i}`,
      accepted_at_ms: 7_000,
      cancel_requested_at_ms: i % 10 === 0 ? 8_000 + i : null,
    });
  }
  for (let i = 0; i < calls.length; i += 500) await storage.calls.insertMany(calls.slice(i, i + 500));
  const executors = Array.from({ length: EXECUTORS }, (_, i) => ({
    executor_id: `e${i}`,
    connection_id: `conn${i}`,
    epoch: 1,
    binding_ids_json: '["b1"]',
    key_id: "k1",
    online: i % 100 === 0 ? 1 : 0,
    connected_at_ms: 1_000,
    last_heartbeat_ms: 1_000,
    lease_expires_ms: i % 200 === 0 ? NOW - 1 : NOW + 30_000,
    disconnected_at_ms: null,
    tool_names_json: null,
  }));
  for (let i = 0; i < executors.length; i += 500)
    await db
      .insertInto("executors")
      .values(executors.slice(i, i + 500))
      .execute();
  const turns = Array.from({ length: Math.min(MODEL_TURNS, RUNS) }, (_, i) => ({
    run_id: `r${i}`,
    turn: 1,
    owner: i % 50 === 0 ? "driver" : null,
    lease_expires_ms: i % 50 === 0 ? NOW + 30_000 : 0,
    attempts: 0,
    created_at_ms: 6_000 + i,
    updated_at_ms: 6_000 + i,
  }));
  await db.insertInto("model_turns").values(turns).execute();
  // The runs table holds mostly ended runs (until retention deletes them); a few runs wait for the
  // turn engine.
  const ended = Array.from({ length: ENDED_RUNS }, (_, i) => {
    const { output, ...run } = runRecord(`ended${i}`, { status: "completed", ended_at_ms: 6_000 + i });
    return { ...run, output_json: output };
  });
  for (let i = 0; i < ended.length; i += 500)
    await db
      .insertInto("runs")
      .values(ended.slice(i, i + 500))
      .execute();
  // More ready runs than the sweep's limit (200), as after a crash: with fewer, every plan reads all of
  // them, and PostgreSQL may rightly pick a bitmap scan and sort those few (seen once in CI).
  await db
    .updateTable("runs")
    .set({ ready_at_ms: sql<number>`${NOW - 2_000} + cast(substr(run_id, 2) as integer)` })
    .where(
      "run_id",
      "in",
      Array.from({ length: READY_RUNS }, (_, i) => `r${i}`),
    )
    .execute();
}

/** The statements `work` sends (transaction control left out). */
async function statementsOf(storage: KyselyStorage, work: () => Promise<unknown>): Promise<CompiledQuery[]> {
  const seen: CompiledQuery[] = [];
  storage.observeStatements((query) => {
    if (!/^\s*(begin|commit|rollback|savepoint|release)/i.test(query.sql)) seen.push(query);
  });
  try {
    await work();
  } finally {
    storage.observeStatements(undefined);
  }
  return seen;
}

/** A parameter as an SQL literal (for `EXECUTE`). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  return `'${String(value).replaceAll("'", "''")}'`;
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

/** Every node of a PostgreSQL JSON plan, as "Node Type on relation using index". */
function postgresSteps(node: PlanNode): string[] {
  const here = `${node["Node Type"]}${node["Relation Name"] ? ` on ${node["Relation Name"]}` : ""}${node["Index Name"] ? ` using ${node["Index Name"]}` : ""}`;
  return [here, ...(node.Plans ?? []).flatMap(postgresSteps)];
}

/** The steps of the plans of `query` on PostgreSQL: the generic plan of a prepared statement, then the custom one. */
async function postgresPlan(db: Kysely<Database>, query: CompiledQuery): Promise<string[]> {
  return db.connection().execute(async (connection) => {
    await sql`set plan_cache_mode = force_generic_plan`.execute(connection);
    await connection.executeQuery(Compiled.raw(`prepare hot as ${query.sql}`));
    try {
      const args = query.parameters.map(literal).join(", ");
      const generic = await connection.executeQuery<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
        Compiled.raw(`explain (format json) execute hot${args === "" ? "" : `(${args})`}`),
      );
      await sql`set plan_cache_mode = force_custom_plan`.execute(connection);
      const custom = await connection.executeQuery<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
        Compiled.raw(`explain (format json) execute hot${args === "" ? "" : `(${args})`}`),
      );
      return [generic, custom].flatMap((plan) =>
        postgresSteps((plan.rows[0]?.["QUERY PLAN"] ?? [])[0]?.Plan as PlanNode),
      );
    } finally {
      await connection.executeQuery(Compiled.raw("deallocate hot"));
      await sql`reset plan_cache_mode`.execute(connection);
    }
  });
}

/** The steps of the plan of `query` on SQLite (`EXPLAIN QUERY PLAN`'s detail lines). */
async function sqlitePlan(db: Kysely<Database>, query: CompiledQuery): Promise<string[]> {
  const plan = await db.executeQuery<{ detail: string }>(
    Compiled.raw(`explain query plan ${query.sql}`, [...query.parameters]),
  );
  return plan.rows.map((row) => row.detail);
}

/** The steps of a plan that sort, or scan one of the hot tables (an ordered index read is fine). */
function badSteps(steps: readonly string[]): string[] {
  return steps.filter(
    (step) =>
      /sort|temp b-tree/i.test(step) ||
      /^Seq Scan/.test(step) ||
      TABLES.some((table) => new RegExp(`^SCAN ${table}$`).test(step)),
  );
}

describeEachDialect("query plans of the hot queries", (dialect) => {
  let storage: KyselyStorage;
  let db: Kysely<Database>;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const database = await testDatabaseUrl(dialect);
    storage = await openStorage(database.url);
    const raw = await connectDatabase(database.url);
    db = raw.db;
    close = async () => {
      await raw.db.destroy();
      await storage.close();
    };
    await seed(storage, db);
    // On PostgreSQL the server's own upkeep analyses the never-analysed hot tables (the test cluster
    // runs no autovacuum); SQLite is checked without statistics first.
    if (dialect === "postgres") {
      expect(await storage.refreshStatistics()).toEqual(["executors", "model_turns", "runs", "tool_calls"]);
      // And what autovacuum would have done to tables this size: mark the pages all-visible, so an
      // index-only read costs what it does on a served database (the test cluster runs no autovacuum).
      await sql`vacuum runs, tool_calls, executors, model_turns`.execute(db);
    }
  }, 120_000);
  afterAll(async () => close?.());

  /** The hot queries, by name: what each sends. */
  const HOT: Record<string, () => Promise<unknown>> = {
    "pending poll (candidates and cancellations, one binding)": () =>
      storage.pendingCalls.poll(
        { binding_ids: ["b1"], agents: "*", now_ms: NOW },
        { limit: 50, cursor: null },
        {
          executor_id: "e3",
          limit: 100,
        },
      ),
    "pending poll with its connection check (a remembered connection)": () =>
      storage.pendingCalls.poll(
        { binding_ids: ["b1"], agents: "*", now_ms: NOW },
        { limit: 50, cursor: null },
        { executor_id: "e100", limit: 100 },
        { connection_id: "conn100", key_id: "k1" },
      ),
    "candidates of two bindings, next page, one agent": async () => {
      const first = await storage.pendingCalls.candidates(
        { binding_ids: ["b1", "b2"], agents: ["a1"], now_ms: NOW },
        { limit: 10, cursor: null },
      );
      return storage.pendingCalls.candidates(
        { binding_ids: ["b1", "b2"], agents: ["a1"], now_ms: NOW },
        { limit: 10, cursor: first.next_cursor },
      );
    },
    "cancellations of an executor": () => storage.pendingCalls.cancellationsFor("e3", 100),
    "pending claim": () =>
      storage.callClaims.claim({
        run_id: "r0",
        call_id: "c000000",
        executor_id: "e0",
        connection_id: "conn0",
        key_id: "k1",
        claim_id: "new-claim",
        grant_hash: "hash",
        now_ms: NOW,
        accept_deadline_ms: NOW + 30_000,
      }),
    "accept-window sweep": () => storage.callClaims.releaseLapsedClaims(NOW, 200),
    "call deadline sweep": () => storage.callClaims.overdue(DEADLINE_STATUSES, NOW + 60_000, 200),
    "executor lease sweep": () => storage.executors.listLapsed(NOW, 100),
    "model-turn lease scan": () => storage.modelTurns.claimable(NOW, 10),
    "turn engine recovery sweep": () => storage.runs.readySince(NOW - 1_000, 200),
    // Per diagnostics request: it must not read the binding's settled calls. (Its counts read the live
    // calls, which here are most of the table, so PostgreSQL rightly scans it.)
    "binding diagnostics: latest verified execution": () => storage.callStats.lastCompleted("a1", "b1"),
  };

  // Per metrics scrape: the gauges count only the unsettled calls. Here those are most of the table,
  // so PostgreSQL rightly scans it; SQLite must read the live calls' partial index, never the table.
  if (dialect === "sqlite") {
    it("metrics gauges: count the unsettled calls from their partial index, not the table", async () => {
      const snapshot = await storage.callStats.snapshot();
      expect(snapshot.calls_by_status).toEqual({
        pending: PENDING_B1 + PENDING_B2,
        claimed: 300,
        accepted: 300,
        reconciliation_required: 0,
      });
      const statements = await statementsOf(storage, () => storage.callStats.snapshot());
      const counting = statements.filter((statement) => /from "tool_calls"/.test(statement.sql));
      expect(counting).toHaveLength(1);
      const steps = await sqlitePlan(db, counting[0] as CompiledQuery);
      expect(steps.join("\n")).toMatch(/USING (COVERING )?INDEX tool_calls_live_by_binding/);
      expect(steps.filter((step) => /^SCAN tool_calls$/.test(step))).toEqual([]);
    });
  }

  // SQLite (3.47 on) reads a bare `LIMIT ?`'s value while planning, so each bind of it throws the
  // prepared plan away and the next run prepares the statement again (docs/storage.md).
  if (dialect === "sqlite") {
    it("no hot query binds a bare LIMIT or OFFSET value", async () => {
      for (const work of Object.values(HOT)) {
        for (const statement of await statementsOf(storage, work)) {
          expect(statement.sql).not.toMatch(/\b(limit|offset)\s+\?/i);
        }
      }
      const page = await statementsOf(storage, () => storage.callClaims.overdue(DEADLINE_STATUSES, NOW + 60_000, 3));
      expect(page.map((statement) => statement.sql).join("\n")).toMatch(/limit cast\(\? as integer\)/);
      expect(await storage.callClaims.overdue(DEADLINE_STATUSES, NOW + 60_000, 3)).toHaveLength(3);
    });
  }

  for (const [name, work] of Object.entries(HOT)) {
    it(`${name}: reads an index in order, no sort, no table scan`, async () => {
      const statements = await statementsOf(storage, work);
      expect(statements.length).toBeGreaterThan(0);
      const analysed = dialect === "sqlite" ? [false, true] : [true];
      for (const withStatistics of analysed) {
        if (dialect === "sqlite") {
          // SQLite plans without statistics until something runs ANALYZE: check both.
          if (withStatistics) await sql`analyze`.execute(db);
          else await sql`drop table if exists sqlite_stat1`.execute(db);
        }
        for (const statement of statements) {
          const steps = dialect === "postgres" ? await postgresPlan(db, statement) : await sqlitePlan(db, statement);
          const context = JSON.stringify({ sql: statement.sql, statistics: withStatistics, steps }, null, 1);
          expect(badSteps(steps), context).toEqual([]);
        }
      }
    });
  }
});
