/**
 * bench/scale case `growth`: database bytes per completed call, and what a retention sweep leaves.
 * Per dialect and result size (1 KB and 64 KB of JSON text), one-call runs (the scripted model calls
 * `tasks.write`, the executor sends `accepted`, `progress` and `completed` with the result, the run
 * ends) are driven through the HTTP API; the database's size is read before and after (SQLite: pages in
 * use after a WAL checkpoint, i.e. file size minus free pages; PostgreSQL: pg_total_relation_size of
 * every table of the schema, indexes and TOAST included). Then the clock moves past the retention and
 * the sweep deletes every run; the size in use after it is reported, and (SQLite) the file size after
 * the same number of calls again, which shows the freed pages being reused. Target: growth ≤ 3× the
 * result bytes + 4 KB per call (docs/operations.md#retention).
 *
 *   node bench/scale/cases/growth.mjs [--quick]
 */

import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import Database from "better-sqlite3";
import { markdownTable } from "../../lib/markdown.mjs";
import {
  buildScriptedWorld,
  completeCall,
  freshDatabase,
  pendingCall,
  startBenchServer,
  startRun,
  withPostgres,
} from "../scripted-runs.mjs";

const SCRIPT = [
  { tool_calls: [{ name: "tasks.write", arguments: { title: "Call the plumber" } }] },
  { message: "Done." },
];
const RETENTION_MS = 3_600_000;
const RESULT_SIZES = [1024, 64 * 1024];
const SWEEP_TIMEOUT_MS = 120_000;

/** A result of `bytes` bytes of compact JSON, incompressible (PostgreSQL compresses long text). */
function resultOf(bytes) {
  return {
    text: randomBytes(bytes)
      .toString("base64url")
      .slice(0, bytes - 11),
  };
}

/** Bytes the database holds in use now (SQLite: after a checkpoint; the server may be running). */
async function sizeOf(database) {
  if (database.dialect === "sqlite") {
    const db = new Database(database.path);
    try {
      db.pragma("wal_checkpoint(TRUNCATE)");
      const pageSize = db.pragma("page_size", { simple: true });
      const pages = db.pragma("page_count", { simple: true });
      const free = db.pragma("freelist_count", { simple: true });
      return { inUse: (pages - free) * pageSize, file: statSync(database.path).size };
    } finally {
      db.close();
    }
  }
  return withPostgres(async (client) => {
    const { rows } = await client.query(
      `select coalesce(sum(pg_total_relation_size(format('%I.%I', table_schema, table_name))), 0)::bigint as bytes
       from information_schema.tables where table_schema = $1`,
      [database.schema],
    );
    const bytes = Number(rows[0].bytes);
    return { inUse: bytes, file: bytes };
  });
}

/** Logs bytes per table and index (SQLite's dbstat), for finding what a call costs. */
function logTables(database, log) {
  const db = new Database(database.path, { readonly: true });
  try {
    for (const row of db
      .prepare("select name, sum(pgsize) as bytes from dbstat group by name order by bytes desc")
      .all()) {
      log(`  ${row.name}: ${row.bytes}`);
    }
  } finally {
    db.close();
  }
}

/** Drives `calls` one-call runs to completion with results of `bytes`. */
async function completeRuns(admin, world, calls, bytes) {
  const result = resultOf(bytes);
  const runIds = [];
  for (let index = 0; index < calls; index++) {
    const runId = await startRun(admin, world);
    await completeCall(admin, world, runId, await pendingCall(admin, runId), result);
    runIds.push(runId);
  }
  return runIds;
}

/** One dialect and result size. */
async function measure(dialect, bytes, calls, log) {
  const database = await freshDatabase(dialect, log);
  if (database === undefined) return undefined;
  const bench = await startBenchServer(database, {
    runRetentionMs: RETENTION_MS,
    sweepIntervalMs: 20,
    leaseTtlMs: 86_400_000,
    heartbeatIntervalMs: 60_000,
  });
  try {
    const world = await buildScriptedWorld(bench.admin, SCRIPT, 1024);
    // One run first, so the sizes compare a warm database (first pages of every table and index).
    await completeRuns(bench.admin, world, 1, bytes);
    const before = await sizeOf(database);
    const runIds = await completeRuns(bench.admin, world, calls, bytes);
    const after = await sizeOf(database);
    if (process.env.BENCH_SCALE_TABLES === "1" && dialect === "sqlite") logTables(database, log);
    bench.clock.advance(RETENTION_MS + 1);
    const deadline = Date.now() + SWEEP_TIMEOUT_MS;
    const last = runIds[runIds.length - 1];
    for (;;) {
      const answer = await bench.admin.request("GET", `/v1/runs/${last}`);
      if (answer.status === 404) break;
      if (Date.now() > deadline) throw new Error("the retention sweep did not delete the runs in time");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (dialect === "postgres") await withPostgres((client) => client.query(`vacuum`));
    const swept = await sizeOf(database);
    await completeRuns(bench.admin, world, calls, bytes);
    const again = await sizeOf(database);
    const perCall = (after.inUse - before.inUse) / calls;
    const target = 3 * bytes + 4096;
    log(`${dialect} ${bytes} B results: ${Math.round(perCall)} B per call (target ≤ ${target})`);
    return { dialect, bytes, calls, perCall, target, before, after, swept, again };
  } finally {
    await bench.server.close();
    await database.dispose();
  }
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

/** Runs the case. @param {{ quick: boolean, log: (line: string) => void }} context */
export async function run({ quick, log }) {
  const calls = quick ? 100 : 1_000;
  const rows = [];
  const failures = [];
  for (const dialect of ["sqlite", "postgres"]) {
    for (const bytes of RESULT_SIZES) {
      const m = await measure(dialect, bytes, calls, log);
      if (m === undefined) continue;
      if (m.perCall > m.target)
        failures.push(`growth ${dialect} ${kb(bytes)}: ${kb(m.perCall)} per call > ${kb(m.target)}`);
      rows.push([
        dialect,
        kb(bytes),
        kb(m.perCall),
        (m.perCall / bytes).toFixed(2),
        kb(m.target),
        mb(m.after.inUse - m.before.inUse),
        mb(m.swept.inUse),
        mb(m.again.file),
        m.perCall <= m.target ? "yes" : "**no**",
      ]);
    }
  }
  const markdown = [
    `### Database growth per completed call (${calls} one-call runs per case)`,
    "",
    markdownTable(
      [
        "dialect",
        "result",
        "bytes per call",
        "× result",
        "target (3× + 4 KB)",
        `growth for ${calls} calls`,
        "in use after the retention sweep",
        `file after ${calls} more calls`,
        "within target",
      ],
      rows,
    ),
    "",
    "In use: SQLite pages minus free pages after a WAL checkpoint; PostgreSQL pg_total_relation_size of every table (after VACUUM for the sweep). The sweep deletes every run; the last column shows the freed space reused.",
  ].join("\n");
  return { markdown, failures };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outcome = await run({ quick: process.argv.includes("--quick"), log: (line) => console.error(line) });
  console.log(outcome.markdown);
  if (outcome.failures.length > 0) console.log(`\nmissed: ${outcome.failures.join("; ")}`);
  process.exit(0);
}
