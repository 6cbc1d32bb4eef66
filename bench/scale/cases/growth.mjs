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
 * PostgreSQL's autovacuum is modelled, since the test cluster runs with it off and every production
 * server has it on: every 10 calls the bench VACUUMs (not FULL) each table of the schema that
 * autovacuum would have picked by its own rule — dead row versions above `autovacuum_vacuum_threshold`
 * + `autovacuum_vacuum_scale_factor` × its rows, or rows inserted since its last vacuum above the
 * insert threshold and scale factor — read from the table's storage parameters (migration 0020 sets
 * some) or the server's settings. Only the naptime (a minute between autovacuum rounds) is left out.
 *
 * BENCH_SCALE_TABLES=1 also logs the growth per call of each table and index (with rows per call).
 *
 *   node bench/scale/cases/growth.mjs [--quick] [--dialect=sqlite,postgres] [--bytes=1024,65536]
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

/**
 * Bytes per table and per index now (SQLite: dbstat, pages of each b-tree; PostgreSQL: each table's
 * heap and TOAST, each index), with row counts, for the breakdown BENCH_SCALE_TABLES=1 logs.
 * @returns {Promise<Map<string, { bytes: number, rows: number | undefined }>>}
 */
async function objectSizes(database) {
  const sizes = new Map();
  if (database.dialect === "sqlite") {
    const db = new Database(database.path, { readonly: true });
    try {
      const tables = new Set(
        db
          .prepare("select name from sqlite_schema where type = 'table'")
          .all()
          .map((row) => row.name),
      );
      for (const row of db.prepare("select name, sum(pgsize) as bytes from dbstat group by name").all()) {
        const rows = tables.has(row.name) ? db.prepare(`select count(*) as n from "${row.name}"`).get().n : undefined;
        sizes.set(row.name, { bytes: row.bytes, rows });
      }
    } finally {
      db.close();
    }
    return sizes;
  }
  return withPostgres(async (client) => {
    const { rows } = await client.query(
      `select c.relname as name, c.relkind as kind,
         case when c.relkind = 'r' then pg_table_size(c.oid) else pg_relation_size(c.oid) end as bytes
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = $1 and c.relkind in ('r', 'i')`,
      [database.schema],
    );
    for (const row of rows) {
      let count;
      if (row.kind === "r") {
        const counted = await client.query(`select count(*) as n from "${database.schema}"."${row.name}"`);
        count = Number(counted.rows[0].n);
      }
      sizes.set(row.name, { bytes: Number(row.bytes), rows: count });
    }
    return sizes;
  });
}

/** Logs what each table and index grew by per call between `before` and `after` (largest first). */
function logGrowth(dialect, bytes, calls, before, after, log) {
  const lines = [];
  for (const [name, size] of after) {
    const grew = size.bytes - (before.get(name)?.bytes ?? 0);
    if (grew === 0) continue;
    const rows =
      size.rows === undefined ? "" : ` (${((size.rows - (before.get(name)?.rows ?? 0)) / calls).toFixed(1)} rows)`;
    lines.push([grew, `  ${name}: ${Math.round(grew / calls)} B per call${rows}`]);
  }
  log(`${dialect} ${bytes} B results, growth per call by table and index:`);
  for (const [, line] of lines.sort((a, b) => b[0] - a[0])) log(line);
}

/** Calls between two looks at what autovacuum would vacuum (PostgreSQL). */
const AUTOVACUUM_LOOK_CALLS = 10;

/**
 * VACUUMs (not FULL) each table of the schema that autovacuum would pick now by its rule, with the
 * table's own storage parameters where set (reloptions) and the server's settings otherwise; answers
 * how many it vacuumed. (Statistics reach pg_stat_user_tables within about a second of a commit.)
 */
async function vacuumLikeAutovacuum(database) {
  return withPostgres(async (client) => {
    const { rows } = await client.query(
      `with settings as (
         select c.relname, s.n_dead_tup, s.n_ins_since_vacuum, greatest(c.reltuples, 0) as reltuples,
           coalesce(c.reloptions, '{}') as options
         from pg_stat_user_tables s join pg_class c on c.oid = s.relid
         where s.schemaname = $1)
       select relname from settings
       where n_dead_tup > coalesce((select split_part(o, '=', 2)::float8 from unnest(options) o
                                    where o like 'autovacuum_vacuum_threshold=%'),
                                   current_setting('autovacuum_vacuum_threshold')::float8)
             + coalesce((select split_part(o, '=', 2)::float8 from unnest(options) o
                         where o like 'autovacuum_vacuum_scale_factor=%'),
                        current_setting('autovacuum_vacuum_scale_factor')::float8) * reltuples
          or n_ins_since_vacuum > current_setting('autovacuum_vacuum_insert_threshold')::float8
             + current_setting('autovacuum_vacuum_insert_scale_factor')::float8 * reltuples`,
      [database.schema],
    );
    for (const row of rows) await client.query(`vacuum "${database.schema}"."${row.relname}"`);
    return rows.length;
  });
}

/** Drives `calls` one-call runs to completion with results of `bytes`; answers the run IDs and VACUUMs made. */
async function completeRuns(admin, world, calls, bytes, database) {
  const result = resultOf(bytes);
  const runIds = [];
  let vacuums = 0;
  for (let index = 0; index < calls; index++) {
    const runId = await startRun(admin, world);
    await completeCall(admin, world, runId, await pendingCall(admin, runId), result);
    runIds.push(runId);
    if (database.dialect === "postgres" && (index + 1) % AUTOVACUUM_LOOK_CALLS === 0)
      vacuums += await vacuumLikeAutovacuum(database);
  }
  return { runIds, vacuums };
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
    await completeRuns(bench.admin, world, 1, bytes, database);
    const tables = process.env.BENCH_SCALE_TABLES === "1";
    const objectsBefore = tables ? await objectSizes(database) : undefined;
    const before = await sizeOf(database);
    const { runIds, vacuums } = await completeRuns(bench.admin, world, calls, bytes, database);
    if (dialect === "postgres")
      log(`${dialect} ${bytes} B results: ${vacuums} table VACUUMs as autovacuum would have made`);
    const after = await sizeOf(database);
    if (tables) logGrowth(dialect, bytes, calls, objectsBefore, await objectSizes(database), log);
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
    await completeRuns(bench.admin, world, calls, bytes, database);
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
export async function run({ quick, log, dialects = ["sqlite", "postgres"], sizes = RESULT_SIZES }) {
  const calls = quick ? 100 : 1_000;
  const rows = [];
  const failures = [];
  for (const dialect of dialects) {
    for (const bytes of sizes) {
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
    "In use: SQLite pages minus free pages after a WAL checkpoint; PostgreSQL pg_total_relation_size of every table, its autovacuum modelled (every 10 calls, a VACUUM of each table autovacuum's rule picks, with the tables' storage parameters; after VACUUM for the sweep). The sweep deletes every run; the last column shows the freed space reused.",
  ].join("\n");
  return { markdown, failures };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const option = (name) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const outcome = await run({
    quick: process.argv.includes("--quick"),
    log: (line) => console.error(line),
    dialects: option("dialect")?.split(","),
    sizes: option("bytes")?.split(",").map(Number),
  });
  console.log(outcome.markdown);
  if (outcome.failures.length > 0) console.log(`\nmissed: ${outcome.failures.join("; ")}`);
  process.exit(0);
}
