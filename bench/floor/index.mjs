/**
 * bench/floor: toolhost's cycle against the floor of its own stack, in one run, in alternating rounds.
 * The floor is a bare Fastify server (floor-server.mjs) answering the same requests — create run →
 * pending → claim → accepted → progress → completed, plus connect, heartbeats and disconnect — with
 * answers of the same shape and size, driven by the same simulated executors (bench/protocol's, in
 * this process, keep-alive HTTP, 1 and 8 of them): with a key lookup only, with one durable SQLite
 * write per request (WAL, synchronous=FULL) and with one PostgreSQL INSERT/UPDATE per request (one
 * round trip). Beside it `toolhost serve` on SQLite and on PostgreSQL. Per system and worker count:
 * cycles/s, the CPU per cycle of the server, of its PostgreSQL backends and of this process (from
 * /proc, over the whole case), statements per cycle; and the ratio toolhost / floor against the
 * target "server CPU per cycle ≤ 2× the floor with one write per request".
 *
 * BENCH_BASELINE_REF=REF also measures REF's toolhost (checked out into a temporary worktree, built
 * on this checkout's node_modules: baseline-checkout.mjs) in the same rounds, on both databases, and
 * reports server CPU per cycle now against it (the fallback target: at least halved). It is removed
 * at the end, also when the suite fails.
 * After the rounds, a timed pass: per database a separate toolhost server whose every statement is
 * timed (statement-counter.mjs with TOOLHOST_BENCH_STATEMENT_TIMES=1), one case at the most workers,
 * reported as where its statement time goes per cycle (statement-times.mjs). The measured cases run
 * untimed.
 * TOOLHOST_TEST_DATABASE_URL picks the PostgreSQL database (default postgres://postgres@127.0.0.1:5432/test);
 * when it does not answer, the PostgreSQL systems are left out and say so. Bounded in count and time.
 */

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import {
  measureCase,
  measureIdleStatements,
  newSchema,
  POSTGRES_URL,
  startToolhostSystem,
} from "../peers/measured-systems.mjs";
import { startCountedServer } from "../peers/toolhost-process.mjs";
import { postgresProblem } from "../protocol/index.mjs";
import { prepareBaseline } from "./baseline-checkout.mjs";
import { FLOOR, renderReport } from "./report.mjs";
import { statementTimeRows } from "./statement-times.mjs";

/** The suite's name: its directory and its RESULTS.md section. */
export const name = "floor";

const FLOOR_SERVER = fileURLToPath(new URL("floor-server.mjs", import.meta.url));

/**
 * Rounds and times: bounded, so the suite stops by itself (quick about a minute, full 7 to 10 minutes).
 * `primeMs`: the measured part of each system's first, unreported case. V8 goes on optimizing
 * toolhost's code for about 20 s of load (server CPU per cycle fell by a third over that time in a
 * run on the 2-core machine, then stayed), so a full run primes each system for 15 s: the figures are
 * a served process's, not its first seconds'. The floor servers are primed the same way.
 */
export function benchPlan(quick) {
  return quick
    ? { workers: [1, 8], rounds: 1, warmupMs: 300, primeMs: 300, measureMs: 1_000, idleMs: 300 }
    : { workers: [1, 8], rounds: 3, warmupMs: 1_500, primeMs: 15_000, measureMs: 5_000, idleMs: 2_000 };
}

/** The first, unreported case's times (plans without `primeMs`, as the harness test's, prime for `warmupMs`). */
export function primingOf(plan) {
  return { warmupMs: plan.warmupMs, measureMs: plan.primeMs ?? plan.warmupMs };
}

/**
 * Runs the suite; `plan` overrides benchPlan (the harness test runs a tiny one, and may name the
 * `systems` to run by label, and the toolhost servers of the timed pass as `timed`).
 * @param {{ quick: boolean, machine: import("../lib/machine.mjs").Machine, log: (line: string) => void, plan?: object }} context
 * @returns {Promise<{ markdown: string, failures: string[], results: object }>}
 */
export async function run({ quick, machine, log, plan: override }) {
  const plan = override ?? benchPlan(quick);
  const wanted = (label) => plan.systems === undefined || plan.systems.includes(label);
  const failures = [];
  if (new URL(POSTGRES_URL).hostname !== "127.0.0.1") throw new Error(`${POSTGRES_URL}: 127.0.0.1 only`);
  const problem = await postgresProblem(POSTGRES_URL);
  if (problem !== undefined) log(`PostgreSQL at ${POSTGRES_URL} does not answer (${problem}): SQLite only`);
  const results = { plan, cases: [], idle: [], skipped: [], baseline: undefined, statementTimes: [] };
  if (problem !== undefined) {
    for (const label of [FLOOR.postgres, "toolhost PostgreSQL"].filter(wanted)) {
      results.skipped.push({ label, reason: `PostgreSQL does not answer (${problem})` });
    }
  }
  const ref = process.env.BENCH_BASELINE_REF?.trim() || undefined;
  const dir = mkdtempSync(join(tmpdir(), "toolhost-bench-floor-"));
  const admin = problem === undefined ? new pg.Client({ connectionString: POSTGRES_URL }) : undefined;
  await admin?.connect();
  const schemas = [];
  const systems = [];
  let baseline;
  try {
    if (ref !== undefined) {
      baseline = await prepareBaseline(ref, log);
      results.baseline = { ref, sha: baseline.sha, problem: baseline.problem, buildMs: baseline.buildMs };
      if (baseline.problem !== undefined) log(`baseline ${ref} left out: ${baseline.problem}`);
    }
    if (wanted(FLOOR.lookup)) systems.push(await startFloor(FLOOR.lookup, "lookup", ["lookup"], dir));
    if (wanted(FLOOR.sqlite)) {
      systems.push(await startFloor(FLOOR.sqlite, "sqlite", ["sqlite", join(dir, "floor.db")], dir));
    }
    if (admin !== undefined && wanted(FLOOR.postgres)) {
      const args = ["postgres", POSTGRES_URL, newSchema(schemas)];
      systems.push(await startFloor(FLOOR.postgres, "postgres", args, dir));
    }
    const dialects = admin === undefined ? ["sqlite"] : ["sqlite", "postgres"];
    for (const dialect of dialects) {
      const label = dialect === "sqlite" ? "toolhost SQLite" : "toolhost PostgreSQL";
      if (wanted(label)) systems.push(await startToolhostSystem(dialect, dir, schemas));
    }
    if (baseline?.bin !== undefined) {
      for (const dialect of dialects) {
        const label = `baseline ${dialect === "sqlite" ? "SQLite" : "PostgreSQL"}`;
        systems.push(await startToolhostSystem(dialect, dir, schemas, { bin: baseline.bin, label }));
      }
    }
    log(
      `systems: ${systems.map((system) => system.label).join(", ")}; ${plan.idleMs} ms idle to count background statements`,
    );
    for (const system of systems) {
      const statementsPerSecond = await measureIdleStatements(system, plan.idleMs);
      if (statementsPerSecond !== undefined) results.idle.push({ label: system.label, statementsPerSecond });
    }
    // One unreported case per system first: its JIT warm-up and first connections stay out of the figures.
    const workers = Math.max(...plan.workers);
    for (const system of systems) {
      const primed = await measureCase(system, workers, primingOf(plan), admin);
      failures.push(...primed.failures);
    }
    const priming = primingOf(plan);
    log(
      `each system warmed up by one unreported case (${workers} workers, ${priming.warmupMs + priming.measureMs} ms)`,
    );
    for (let round = 1; round <= plan.rounds; round++) {
      for (const workers of plan.workers) {
        for (const system of systems) {
          const measured = await measureCase(system, workers, plan, admin);
          failures.push(...measured.failures);
          results.cases.push({ round, ...measured });
          log(
            `round ${round}, ${workers} worker(s), ${system.label}: ${measured.cyclesPerSecond.toFixed(0)} cycles/s, ` +
              `server ${measured.serverMsPerCycle?.toFixed(3)} ms/cycle` +
              (measured.postgresMsPerCycle === undefined
                ? ""
                : ` (+ postgres ${measured.postgresMsPerCycle.toFixed(3)})`) +
              (measured.statementsPerCycle === undefined
                ? ""
                : `, ${measured.statementsPerCycle.toFixed(1)} statements/cycle`),
          );
        }
      }
    }
    // The timed pass: every toolhost measured above, or the labels `plan.timed` names (none: `[]`).
    for (const dialect of dialects) {
      const label = dialect === "sqlite" ? "toolhost SQLite" : "toolhost PostgreSQL";
      if (!(plan.timed === undefined ? wanted(label) : plan.timed.includes(label))) continue;
      const timed = await timeStatements(dialect, dir, schemas, workers, plan, admin);
      failures.push(...timed.failures);
      results.statementTimes.push({ label, ...timed });
      log(
        `${label}, timed pass at ${workers} workers: ${timed.statementsPerCycle.toFixed(1)} statements, ` +
          `${(timed.usPerCycle / 1000).toFixed(3)} ms of statement time per cycle`,
      );
    }
  } finally {
    for (const system of systems) {
      try {
        const code = await system.server.stop();
        if (code !== 0) log(`note: the ${system.label} server exited with ${code}`);
      } catch (error) {
        log(`could not stop ${system.label}: ${error}`);
      }
    }
    for (const schema of schemas) {
      await admin
        ?.query(`drop schema if exists "${schema}" cascade`)
        .catch((error) => log(`could not drop ${schema}: ${error}`));
    }
    await admin?.end();
    rmSync(dir, { recursive: true, force: true });
    if (baseline?.remove !== undefined) {
      baseline.remove();
      log(`baseline worktree ${baseline.dir} removed`);
    }
  }
  for (const failure of failures) log(`!!!!!!!! ${failure} !!!!!!!!`);
  const { markdown, summary } = renderReport({ results, plan, machine, quick, failures });
  log("");
  for (const line of summary.split("\n")) log(line);
  return { markdown, failures, results };
}

/**
 * The timed pass of one database: a toolhost server timing its statements, warmed up by one case,
 * then one measured case of `workers` workers; its statement times by what they do, per cycle.
 */
async function timeStatements(dialect, dir, schemas, workers, plan, admin) {
  const env = { TOOLHOST_BENCH_STATEMENT_TIMES: "1" };
  const system = await startToolhostSystem(dialect, dir, schemas, { env });
  try {
    const primed = await measureCase(system, workers, primingOf(plan), admin);
    await system.server.statementTimes(true);
    const measured = await measureCase(system, workers, plan, admin);
    const times = await system.server.statementTimes();
    return {
      workers,
      cycles: measured.completed,
      serverMsPerCycle: measured.serverMsPerCycle,
      ...statementTimeRows(times, measured.completed),
      failures: [...primed.failures, ...measured.failures],
    };
  } finally {
    await system.server.stop();
  }
}

/** A floor server (counted like toolhost) with its world: the keys it was given, fixed ids. */
async function startFloor(label, dialect, args, dir) {
  const world = {
    bindingId: "bnd_floor",
    sessionId: "ses_floor",
    producerKey: `bench-${randomBytes(16).toString("hex")}`,
    executorKey: `bench-${randomBytes(16).toString("hex")}`,
  };
  const server = await startCountedServer({
    label,
    script: FLOOR_SERVER,
    args,
    env: { TOOLHOST_FLOOR_PRODUCER_KEY: world.producerKey, TOOLHOST_FLOOR_EXECUTOR_KEY: world.executorKey },
    logFile: join(dir, `floor-${dialect}.log`),
  });
  // The lookup floor has no database: its statements are not counted (dialect "none").
  return { label, kind: "floor", dialect: dialect === "lookup" ? "none" : dialect, pid: server.pid, server, world };
}
