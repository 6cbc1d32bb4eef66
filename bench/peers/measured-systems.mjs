/**
 * What bench/peers and bench/floor share: starting a counted toolhost server with bench/protocol's
 * world, a system's statement counts, its background rate while idle, and one throughput case with
 * the CPU of every process involved. A system is either an HTTP server of the executor protocol
 * (`system.server`: toolhost, or bench/floor's bare Fastify) driven by bench/protocol's simulated
 * executors in this process, or a peer child (`system.peer`, see peer-child.mjs) that runs its own load.
 */

import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { runThroughput } from "../protocol/throughput.mjs";
import { buildWorld } from "../protocol/world.mjs";
import { backendCpuMs, backendCpuSpent, backendsOf, processCpuMs } from "./postgres-backends.mjs";
import { startCountedToolhost } from "./toolhost-process.mjs";

/** The PostgreSQL database the benchmarks use (each in schemas of its own). */
export const POSTGRES_URL = process.env.TOOLHOST_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

/** A fresh schema name, remembered in `schemas` so the suite drops it at the end. */
export function newSchema(schemas) {
  const schema = `bench_${randomBytes(6).toString("hex")}`;
  schemas.push(schema);
  return schema;
}

/** POSTGRES_URL with toolhost's `schema=` parameter. */
export function schemaUrl(schema) {
  return `${POSTGRES_URL}${POSTGRES_URL.includes("?") ? "&" : "?"}schema=${schema}`;
}

/**
 * A toolhost server (counted) on a fresh database of `dialect`, with bench/protocol's world built in
 * it. `bin` runs another checkout's `toolhost` (bench/floor's baseline), `label` names it, `env` adds
 * to the server's environment.
 */
export async function startToolhostSystem(dialect, dir, schemas, { nodeArgs = [], bin, label, env = {} } = {}) {
  const databaseUrl =
    dialect === "sqlite"
      ? `sqlite:${join(dir, `bench-${randomBytes(4).toString("hex")}.db`)}`
      : schemaUrl(newSchema(schemas));
  const key = `bench-${randomBytes(16).toString("hex")}`;
  const server = await startCountedToolhost({
    databaseUrl,
    env: { TOOLHOST_BOOTSTRAP_KEY: key, TOOLHOST_LOG_LEVEL: "warn", ...env },
    logFile: join(dir, `server-${dialect}-${randomBytes(4).toString("hex")}.log`),
    nodeArgs,
    bin,
  });
  try {
    const world = await buildWorld(server.url, key);
    const name = label ?? (dialect === "sqlite" ? "toolhost SQLite" : "toolhost PostgreSQL");
    return { label: name, kind: "toolhost", dialect, pid: server.pid, server, world };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/**
 * Statements of the system's own database kind so far; undefined when it has none counted (Restate's
 * storage is inside its server, bench/floor's lookup floor has no database).
 */
export async function statementsOf(system) {
  if (system.dialect === "restate") return undefined;
  const counts = system.server !== undefined ? await system.server.statements() : await system.peer.statements();
  return counts[system.dialect];
}

/** PostgreSQL systems: the round trips of their database client so far (`statement-counter.mjs`); else undefined. */
export async function roundTripsOf(system) {
  if (system.dialect !== "postgres") return undefined;
  const counts = system.server !== undefined ? await system.server.statements() : await system.peer.statements();
  return counts.postgresRoundTrips;
}

/** Sets `system.idleStatementsPerSecond`: what it sends with nothing to do, over `idleMs`. */
export async function measureIdleStatements(system, idleMs) {
  const before = await statementsOf(system);
  if (before === undefined) return undefined;
  const t0 = performance.now();
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  system.idleStatementsPerSecond = ((await statementsOf(system)) - before) / ((performance.now() - t0) / 1000);
  return system.idleStatementsPerSecond;
}

/**
 * The processes of a case whose CPU counts, by role. A protocol server: the server and this process
 * (the executors and run producers: the driver); a queue: its load process (producers, workers, the
 * library) and redis-server when it has one; Restate: the callers' process (the driver),
 * restate-server and its endpoint. PostgreSQL backends are added by measureCase.
 */
function processesOf(system) {
  if (system.server !== undefined) {
    return [
      { role: "server", pid: system.pid },
      { role: "driver", pid: process.pid },
    ];
  }
  const load = { role: system.dialect === "restate" ? "driver" : "load process", pid: system.pid };
  return [load, ...system.peer.processes];
}

/** The role whose CPU is the system's "server CPU": where its queue or journal logic runs. */
function serverRole(system) {
  if (system.server !== undefined) return "server";
  return system.dialect === "restate" ? "restate-server" : "load process";
}

/**
 * One throughput case of `workers` workers; every per-cycle figure is over the whole case (warm-up,
 * window, drain) divided by the runs completed in it. `admin` (a connected pg.Client) finds the
 * PostgreSQL backends of a `postgres` system.
 */
export async function measureCase(system, workers, plan, admin) {
  const backendsBefore = system.dialect === "postgres" ? await backendsOf(admin, system.pid) : [];
  const processes = processesOf(system);
  const before = {
    processMs: processes.map(({ pid }) => processCpuMs(pid)),
    backends: backendCpuMs(backendsBefore),
    statements: await statementsOf(system),
    roundTrips: await roundTripsOf(system),
    atMs: performance.now(),
  };
  let cycles;
  let elapsedMs;
  let completed;
  const failures = [];
  if (system.server !== undefined) {
    const outcome = await runThroughput({
      url: system.server.url,
      world: system.world,
      executors: workers,
      warmupMs: plan.warmupMs,
      measureMs: plan.measureMs,
      serverPid: system.pid,
      postgres: false,
      label: system.label.replace(/[ ,()]+/g, "-"),
      log: () => undefined,
      batchClaims: system.batchClaims,
    });
    failures.push(...outcome.failures);
    ({ cycles, elapsedMs } = outcome);
    completed = outcome.created;
  } else {
    const outcome = await system.peer.ask(
      { type: "throughput", workers, warmupMs: plan.warmupMs, measureMs: plan.measureMs },
      "throughput",
    );
    ({ cycles, elapsedMs, completed } = outcome);
  }
  const after = await statementsOf(system);
  const tripsAfter = await roundTripsOf(system);
  const statements = after === undefined ? undefined : after - before.statements;
  // What the system runs anyway (sweeps, polling, maintenance), at its idle rate over the case.
  const background = ((system.idleStatementsPerSecond ?? 0) * (performance.now() - before.atMs)) / 1000;
  const cpuMs = {};
  processes.forEach(({ role, pid }, i) => {
    const now = processCpuMs(pid);
    if (now !== undefined && before.processMs[i] !== undefined) cpuMs[role] = now - before.processMs[i];
  });
  if (system.dialect === "postgres") {
    const backendsAfter = new Set([...backendsBefore, ...(await backendsOf(admin, system.pid))]);
    cpuMs.postgres = backendCpuSpent(before.backends, backendCpuMs(backendsAfter));
  }
  if (completed === 0) failures.push(`${system.label}, ${workers} workers: no cycle completed`);
  const per = (value) => (value === undefined ? undefined : completed > 0 ? value / completed : Number.NaN);
  const cpuMsPerCycle = Object.fromEntries(Object.entries(cpuMs).map(([role, value]) => [role, per(value)]));
  return {
    label: system.label,
    workers,
    cycles,
    completed,
    elapsedMs,
    cyclesPerSecond: (cycles * 1000) / elapsedMs,
    cpuMsPerCycle,
    totalCpuMsPerCycle: per(Object.values(cpuMs).reduce((sum, value) => sum + value, 0)),
    serverMsPerCycle: cpuMsPerCycle[serverRole(system)],
    postgresMsPerCycle: cpuMsPerCycle.postgres,
    statementsPerCycle: per(statements),
    roundTripsPerCycle:
      tripsAfter === undefined || before.roundTrips === undefined ? undefined : per(tripsAfter - before.roundTrips),
    cycleStatementsPerCycle: statements === undefined ? undefined : per(Math.max(0, statements - background)),
    failures,
  };
}
