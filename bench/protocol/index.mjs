/**
 * bench/protocol: the executor protocol end to end over real HTTP. For each database — a fresh SQLite
 * file (WAL, group commit, the WAL fsynced after each commit), then a fresh PostgreSQL schema (dropped afterwards) — it
 * starts `toolhost serve` in a child process, builds a one-tool world through the API, measures the
 * wake-up latency (call creation → the long-polling executor's answer), then full cycles per second
 * with 1, 8 and 32 simulated executors in this process. Finally a SQLite run with the server logging
 * every request (log level `info`) shows what request logging costs. Bounded in count and time.
 *
 * TOOLHOST_BENCH_PROFILE_DIR=DIR writes a CPU profile of each server process (`node --cpu-prof`) to DIR.
 * TOOLHOST_TEST_DATABASE_URL picks the PostgreSQL database (default postgres://postgres@127.0.0.1:5432/test);
 * when it does not answer, the PostgreSQL half is skipped and says so.
 */

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { measureCommits } from "./disk-floor.mjs";
import { renderReport } from "./report.mjs";
import { startToolhost } from "./server-process.mjs";
import { runThroughput } from "./throughput.mjs";
import { measureWakeups } from "./wakeup.mjs";
import { buildWorld } from "./world.mjs";

/** The suite's name: its directory and its RESULTS.md section. */
export const name = "protocol";

const POSTGRES_URL = process.env.TOOLHOST_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

/** Executor counts, times and sample counts: bounded, so the suite stops by itself (about 2 minutes). */
function benchPlan(quick) {
  return quick
    ? { executors: [1, 8, 32], warmupMs: 500, measureMs: 1_500, wakeSamples: 40, floorCommits: 100, logCase: 8 }
    : { executors: [1, 8, 32], warmupMs: 2_000, measureMs: 6_000, wakeSamples: 400, floorCommits: 400, logCase: 8 };
}

/**
 * Runs the suite.
 * @param {{ quick: boolean, machine: import("../lib/machine.mjs").Machine, log: (line: string) => void }} context
 * @returns {Promise<{ markdown: string, failures: string[] }>}
 */
export async function run({ quick, machine, log }) {
  const plan = benchPlan(quick);
  const failures = [];
  const dialects = [];
  dialects.push(await runDialect("sqlite", plan, log, failures));
  dialects.push(await runDialect("postgres", plan, log, failures));
  log("SQLite again, with the server logging every request (TOOLHOST_LOG_LEVEL=info, to a file)");
  const logged = await runDialect("sqlite", { ...plan, executors: [plan.logCase], wakeSamples: 0 }, log, failures, {
    logLevel: "info",
  });
  for (const failure of failures) log(`!!!!!!!! ${failure} !!!!!!!!`);
  const { markdown, summary } = renderReport({ dialects, logged, plan, machine, quick, failures });
  log("");
  for (const line of summary.split("\n")) log(line);
  return { markdown, failures };
}

/** Is PostgreSQL answering at `url`? Answers undefined when it is, else the reason (bench/scale uses it too). */
export async function postgresProblem(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query("select 1");
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Drops the benchmark's schema (and everything in it). */
export async function dropSchema(url, schema) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

/** One server on one fresh database: wake-ups, then each executor count. */
async function runDialect(dialect, plan, log, failures, { logLevel = "warn" } = {}) {
  const label = dialect === "sqlite" ? "SQLite" : "PostgreSQL";
  const dir = mkdtempSync(join(tmpdir(), "toolhost-bench-protocol-"));
  const key = `bench-${randomBytes(16).toString("hex")}`;
  let databaseUrl;
  let schema;
  if (dialect === "sqlite") databaseUrl = `sqlite:${join(dir, "bench.db")}`;
  else {
    if (new URL(POSTGRES_URL).hostname !== "127.0.0.1") throw new Error(`${POSTGRES_URL}: 127.0.0.1 only`);
    const problem = await postgresProblem(POSTGRES_URL);
    if (problem !== undefined) {
      log(`PostgreSQL at ${POSTGRES_URL} does not answer (${problem}): skipped`);
      rmSync(dir, { recursive: true, force: true });
      return { dialect, label, skipped: problem, cases: [], wake: undefined };
    }
    schema = `bench_${randomBytes(6).toString("hex")}`;
    databaseUrl = `${POSTGRES_URL}${POSTGRES_URL.includes("?") ? "&" : "?"}schema=${schema}`;
  }
  const profileDir = process.env.TOOLHOST_BENCH_PROFILE_DIR;
  const nodeArgs =
    profileDir === undefined || profileDir === ""
      ? []
      : [
          "--cpu-prof",
          `--cpu-prof-dir=${resolve(profileDir)}`,
          `--cpu-prof-name=toolhost-${dialect}-${logLevel}-${Date.now()}.cpuprofile`,
        ];
  const server = await startToolhost({
    databaseUrl,
    env: { TOOLHOST_BOOTSTRAP_KEY: key, TOOLHOST_LOG_LEVEL: logLevel },
    logFile: join(dir, "server.log"),
    nodeArgs,
  });
  log(
    `${label}: toolhost serve at ${server.url} (pid ${server.pid}, log level ${logLevel}${schema ? `, schema ${schema}` : ""})`,
  );
  const result = { dialect, label, skipped: undefined, cases: [], wake: undefined, diskFloor: undefined, logLevel };
  try {
    const world = await buildWorld(server.url, key);
    if (plan.wakeSamples > 0) {
      if (dialect === "sqlite") {
        result.diskFloor = measureCommits(dir, plan.floorCommits);
        log(`${label}: ${plan.floorCommits} one-row commits on a SQLite file next to the server's (the disk's floor)`);
      }
      log(`${label}: ${plan.wakeSamples} wake-up samples`);
      result.wake = await measureWakeups({ url: server.url, world, samples: plan.wakeSamples, label, log });
      failures.push(...result.wake.failures);
    }
    for (const executors of plan.executors) {
      const outcome = await runThroughput({
        url: server.url,
        world,
        executors,
        warmupMs: plan.warmupMs,
        measureMs: plan.measureMs,
        serverPid: server.pid,
        postgres: dialect === "postgres",
        label,
        log,
      });
      failures.push(...outcome.failures);
      result.cases.push(outcome);
    }
  } finally {
    const code = await server.stop();
    if (code !== 0) log(`note: the ${label} server exited with ${code}`);
    if (schema !== undefined)
      await dropSchema(POSTGRES_URL, schema).catch((error) => log(`could not drop ${schema}: ${error}`));
    rmSync(dir, { recursive: true, force: true });
  }
  return result;
}
