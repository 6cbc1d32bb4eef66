/**
 * bench/peers: toolhost against the systems a team would pick instead — the PostgreSQL job queues
 * pg-boss (v10) and graphile-worker on the same PostgreSQL, BullMQ on the machine's Redis (which keeps
 * nothing on disk) and Restate (a durable-execution server, one journaled `ctx.run` per invocation,
 * fsynced) — in one run, in alternating rounds (every system once per round and worker count, so a
 * noisy stretch of the machine hits all of them). Per system and worker count (1 and 8): cycles per
 * second; per cycle the CPU of every process involved (read from /proc), and the statements sent;
 * then idle wake-up latency p50/p99.
 *
 * A toolhost cycle is bench/protocol's (create run → pending → claim → accepted → progress →
 * completed) through `toolhost serve` over real HTTP, the executors in this process (its CPU is the
 * "driver"). A queue's cycle is enqueue → fetch → complete, producers and workers in one child process
 * (its "server": it holds the library), plus the PostgreSQL backends serving it or redis-server. A
 * Restate cycle is one invocation over its ingress HTTP: the callers in a child process (the driver),
 * restate-server and the SDK endpoint (under Node 24). Statements: `pg.Client.prototype.query` calls
 * (every round trip), better-sqlite3 executions and ioredis commands, counted inside the load process
 * the same way for all (Restate's own storage is inside restate-server: not counted). A peer that
 * cannot run here (no Redis, no Node 24, no restate-server binary) is left out with the reason printed.
 * Bounded in count and time; 127.0.0.1 only.
 *
 * TOOLHOST_BENCH_PROFILE_DIR=DIR adds a profiling pass: a toolhost server per dialect under
 * `node --cpu-prof` at 8 workers, its profile written to DIR and summarised in the report.
 * TOOLHOST_TEST_DATABASE_URL picks the PostgreSQL database (default postgres://postgres@127.0.0.1:5432/test).
 */

import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { runThroughput } from "../protocol/throughput.mjs";
import { measureWakeups } from "../protocol/wakeup.mjs";
import { probeRedis } from "./bullmq-peer.mjs";
import { measureIdentityLookup } from "./identity-lookup.mjs";
import {
  measureCase,
  measureIdleStatements,
  newSchema,
  POSTGRES_URL,
  schemaUrl,
  startToolhostSystem,
} from "./measured-systems.mjs";
import { startPeer } from "./peer-child.mjs";
import { summariseProfile } from "./profile-summary.mjs";
import { PEERS, renderReport } from "./report.mjs";
import { restateProblem } from "./restate-peer.mjs";

/** The suite's name: its directory and its RESULTS.md section. */
export const name = "peers";

/**
 * Rounds, times and sample counts: bounded, so the suite stops by itself (about 7 minutes in full).
 * `peers` names the peers to run (all of them unless a plan says otherwise).
 */
export function benchPlan(quick) {
  return quick
    ? {
        workers: [1, 8],
        rounds: 1,
        warmupMs: 300,
        measureMs: 1_000,
        idleMs: 500,
        wakeSamples: 6,
        lookupCalls: 500,
        batchClaims: 16,
      }
    : {
        workers: [1, 8],
        batchClaims: 16,
        rounds: 3,
        warmupMs: 1_500,
        measureMs: 5_000,
        idleMs: 3_000,
        wakeSamples: 60,
        lookupCalls: 20_000,
      };
}

/**
 * Runs the suite; `plan` overrides benchPlan (the harness test runs a tiny one).
 * @param {{ quick: boolean, machine: import("../lib/machine.mjs").Machine, log: (line: string) => void, plan?: object }} context
 * @returns {Promise<{ markdown: string, failures: string[], results: object }>}
 */
export async function run({ quick, machine, log, plan: override }) {
  const plan = override ?? benchPlan(quick);
  const failures = [];
  if (new URL(POSTGRES_URL).hostname !== "127.0.0.1") throw new Error(`${POSTGRES_URL}: 127.0.0.1 only`);
  const postgresProblem = await probePostgres(POSTGRES_URL);
  if (postgresProblem !== undefined)
    log(`PostgreSQL at ${POSTGRES_URL} does not answer (${postgresProblem}): only toolhost on SQLite runs`);
  const dir = mkdtempSync(join(tmpdir(), "toolhost-bench-peers-"));
  const admin = postgresProblem === undefined ? new pg.Client({ connectionString: POSTGRES_URL }) : undefined;
  await admin?.connect();
  const schemas = [];
  const systems = [];
  const results = {
    plan,
    cases: [],
    idle: [],
    wakeups: [],
    lookups: [],
    profiles: [],
    postgresProblem,
    skipped: [],
    redis: undefined,
  };
  const wanted = plan.peers ?? PEERS;
  try {
    systems.push(await startToolhostSystem("sqlite", dir, schemas));
    if (admin !== undefined) systems.push(await startToolhostSystem("postgres", dir, schemas));
    // The same servers again, driven by batched executors (claims with the long-poll, batched receipts).
    for (const system of systems.filter((entry) => entry.kind === "toolhost")) {
      systems.push({ ...system, label: `${system.label}, batched`, batchClaims: plan.batchClaims, shares: system });
    }
    for (const system of ["pg-boss", "graphile-worker"].filter((peer) => wanted.includes(peer))) {
      if (admin === undefined) {
        results.skipped.push({ label: system, reason: `PostgreSQL does not answer (${postgresProblem})` });
        continue;
      }
      const schema = newSchema(schemas);
      const peer = await startPeer(system, POSTGRES_URL, schema);
      systems.push({ label: system, kind: "peer", dialect: "postgres", pid: peer.pid, peer });
    }
    if (wanted.includes("BullMQ")) {
      const redis = await probeRedis();
      if (redis.problem !== undefined) {
        results.skipped.push({ label: "BullMQ", reason: `Redis at 127.0.0.1:6379 does not answer (${redis.problem})` });
      } else {
        results.redis = { save: redis.save, appendonly: redis.appendonly, found: redis.pid !== undefined };
        if (redis.pid === undefined) log("BullMQ: redis-server's process was not found: its CPU is not counted");
        const peer = await startPeer("BullMQ", POSTGRES_URL, "");
        systems.push({ label: "BullMQ", kind: "peer", dialect: "redis", pid: peer.pid, peer });
      }
    }
    if (wanted.includes("Restate")) {
      const problem = restateProblem();
      if (problem !== undefined) results.skipped.push({ label: "Restate", reason: problem });
      else {
        const peer = await startPeer("Restate", POSTGRES_URL, "");
        systems.push({ label: "Restate", kind: "peer", dialect: "restate", pid: peer.pid, peer });
      }
    }
    for (const { label, reason } of results.skipped) log(`${label} left out: ${reason}`);
    log(
      `systems: ${systems.map((system) => system.label).join(", ")}; ${plan.idleMs} ms idle to count background statements`,
    );
    for (const system of systems) {
      if (system.shares !== undefined) continue;
      const statementsPerSecond = await measureIdleStatements(system, plan.idleMs);
      if (statementsPerSecond !== undefined) results.idle.push({ label: system.label, statementsPerSecond });
    }
    for (const system of systems) {
      if (system.shares !== undefined) system.idleStatementsPerSecond = system.shares.idleStatementsPerSecond;
    }
    for (let round = 1; round <= plan.rounds; round++) {
      for (const workers of plan.workers) {
        for (const system of systems) {
          const measured = await measureCase(system, workers, plan, admin);
          failures.push(...measured.failures);
          results.cases.push({ round, ...measured });
          const cpu = Object.entries(measured.cpuMsPerCycle)
            .map(([role, value]) => `${role} ${value.toFixed(3)}`)
            .join(", ");
          log(
            `round ${round}, ${workers} worker(s), ${system.label}: ${measured.cyclesPerSecond.toFixed(0)} cycles/s, ` +
              (measured.statementsPerCycle === undefined
                ? ""
                : `${measured.statementsPerCycle.toFixed(1)} statements/cycle, `) +
              `CPU ms/cycle: ${cpu}`,
          );
        }
      }
    }
    for (const system of systems) {
      // The batched twin's server is the same: its idle wake-up is the per-call one's.
      if (system.shares !== undefined) continue;
      log(`${system.label}: ${plan.wakeSamples} idle wake-ups`);
      const wake = await measureWake(system, plan, log);
      failures.push(...wake.failures);
      results.wakeups.push({ label: system.label, wakeMs: wake.wakeMs });
    }
  } finally {
    for (const system of systems) if (system.shares === undefined) await stopSystem(system, log);
  }
  try {
    log(`API-key lookup: ${plan.lookupCalls} authentications per database, without and with the identity cache`);
    results.lookups.push({ label: "SQLite", ...(await measureIdentityLookup({ calls: plan.lookupCalls })) });
    if (admin !== undefined) {
      const schema = newSchema(schemas);
      const lookup = await measureIdentityLookup({
        databaseUrl: schemaUrl(schema),
        calls: Math.ceil(plan.lookupCalls / 4),
      });
      results.lookups.push({ label: "PostgreSQL", ...lookup });
    }
    const profileDir = process.env.TOOLHOST_BENCH_PROFILE_DIR;
    if (profileDir !== undefined && profileDir !== "") {
      for (const dialect of admin === undefined ? ["sqlite"] : ["sqlite", "postgres"]) {
        results.profiles.push(await profileToolhost(dialect, dir, schemas, plan, resolve(profileDir), log));
      }
    }
  } finally {
    for (const schema of schemas) {
      await admin
        ?.query(`drop schema if exists "${schema}" cascade`)
        .catch((error) => log(`could not drop ${schema}: ${error}`));
    }
    await admin?.end();
    rmSync(dir, { recursive: true, force: true });
  }
  for (const failure of failures) log(`!!!!!!!! ${failure} !!!!!!!!`);
  const { markdown, summary } = renderReport({ results, plan, machine, quick, failures });
  log("");
  for (const line of summary.split("\n")) log(line);
  return { markdown, failures, results };
}

async function probePostgres(url) {
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

async function stopSystem(system, log) {
  try {
    if (system.kind === "toolhost") {
      const code = await system.server.stop();
      if (code !== 0) log(`note: the ${system.label} server exited with ${code}`);
    } else await system.peer.stop();
  } catch (error) {
    log(`could not stop ${system.label}: ${error}`);
  }
}

async function measureWake(system, plan, log) {
  if (system.kind === "toolhost") {
    const wake = await measureWakeups({
      url: system.server.url,
      world: system.world,
      samples: plan.wakeSamples,
      label: system.label.replace(" ", "-"),
      log,
    });
    return { wakeMs: wake.wakeMs, failures: wake.failures };
  }
  const { wakeMs } = await system.peer.ask({ type: "wakeup", samples: plan.wakeSamples }, "wakeup");
  return { wakeMs, failures: [] };
}

/** A toolhost server under `--cpu-prof` running only the 8-worker case; answers its profile's summary. */
async function profileToolhost(dialect, dir, schemas, plan, profileDir, log) {
  const profileName = `toolhost-peers-${dialect}-8-${Date.now()}.cpuprofile`;
  const nodeArgs = ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${profileName}`];
  const system = await startToolhostSystem(dialect, dir, schemas, { nodeArgs });
  log(`${system.label}: profiling at 8 workers (pid ${system.pid})`);
  const startUs = Number(process.hrtime.bigint() / 1000n);
  // Only the measured window of the case is summarised: start-up and the warm-up stay out.
  const measureMs = plan.profileMs ?? plan.measureMs;
  const window = { fromUs: startUs + plan.warmupMs * 1000, toUs: startUs + (plan.warmupMs + measureMs) * 1000 };
  try {
    await runThroughput({
      url: system.server.url,
      world: system.world,
      executors: 8,
      warmupMs: plan.warmupMs,
      measureMs: plan.profileMs ?? plan.measureMs,
      serverPid: system.pid,
      postgres: false,
      label: system.label.replace(" ", "-"),
      log: () => undefined,
    });
  } finally {
    await stopSystem(system, log);
  }
  const file = readdirSync(profileDir).find((entry) => entry === profileName);
  if (file === undefined) throw new Error(`no CPU profile ${profileName} in ${profileDir}`);
  log(`${system.label}: profile written to ${join(profileDir, file)}`);
  const summary = summariseProfile(join(profileDir, file), window);
  log(`${system.label}: ${summary.windowSamples} of ${summary.allSamples} profile samples in the measured window`);
  return { label: system.label, file: join(profileDir, file), summary };
}
