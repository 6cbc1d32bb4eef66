/** The peers suite's results as Markdown: per-system medians over rounds, ratios, wake-ups, lookups, profiles. */

import { machineLines } from "../lib/machine.mjs";
import { fixed, markdownTable } from "../lib/markdown.mjs";
import { median, quantile } from "../lib/timing.mjs";

/** The issue's targets, as ratios to pg-boss and Restate (cycles/s) and to graphile-worker (wake-up p99). */
export const TARGETS = { postgresVsPgBoss: 1.0, sqliteVsPgBoss: 2.0, sqliteVsRestate: 2.0, batchedVsPgBoss: 3.0 };

const TOOLHOST = ["toolhost SQLite", "toolhost PostgreSQL"];
const TOOLHOST_BATCHED = TOOLHOST.map((label) => `${label}, batched`);
/** The peers, in the order the suite runs and reports them. */
export const PEERS = ["pg-boss", "graphile-worker", "BullMQ", "Restate"];
/** The order the per-process CPU is listed in. */
const ROLES = [
  "server",
  "driver",
  "load process",
  "restate-server",
  "SDK endpoint (Node 24)",
  "redis-server",
  "postgres",
];

/** Median of each figure over the rounds of one system and worker count (bench/floor's report too). */
export function medians(cases, label, workers) {
  const mine = cases.filter((c) => c.label === label && c.workers === workers);
  if (mine.length === 0) return undefined;
  const of = (key) => {
    const values = mine.map((c) => c[key]).filter((value) => value !== undefined && Number.isFinite(value));
    return values.length === 0 ? undefined : median(values);
  };
  const roles = [...new Set(mine.flatMap((c) => Object.keys(c.cpuMsPerCycle ?? {})))].sort(
    (a, b) => ROLES.indexOf(a) - ROLES.indexOf(b),
  );
  const cpuMsPerCycle = Object.fromEntries(
    roles.map((role) => [role, median(mine.map((c) => c.cpuMsPerCycle?.[role]).filter(Number.isFinite))]),
  );
  return {
    rounds: mine.length,
    cpuMsPerCycle,
    totalCpuMsPerCycle: of("totalCpuMsPerCycle"),
    cyclesPerSecond: of("cyclesPerSecond"),
    perRound: mine.map((c) => Math.round(c.cyclesPerSecond)),
    serverMsPerCycle: of("serverMsPerCycle"),
    postgresMsPerCycle: of("postgresMsPerCycle"),
    statementsPerCycle: of("statementsPerCycle"),
    roundTripsPerCycle: of("roundTripsPerCycle"),
    cycleStatementsPerCycle: of("cycleStatementsPerCycle"),
  };
}

const ratio = (a, b) => (a === undefined || b === undefined || !(b > 0) ? "–" : `${fixed(a / b, 2)}×`);
const ms = (value, digits = 3) => (value === undefined ? "–" : fixed(value, digits));
/** CPU ms per cycle of each process, `role 0.123 + role 0.456`. */
const cpuBreakdown = (cpu) => {
  const parts = Object.entries(cpu).map(([role, value]) => `${role} ${ms(value)}`);
  return parts.length === 0 ? "–" : parts.join(" + ");
};

/**
 * Renders the suite's RESULTS.md section and console summary.
 * @returns {{ markdown: string, summary: string }}
 */
export function renderReport({ results, plan, machine, quick, failures }) {
  const labels = [...TOOLHOST, ...TOOLHOST_BATCHED, ...PEERS].filter((label) =>
    results.cases.some((c) => c.label === label),
  );
  const peers = PEERS.filter((label) => labels.includes(label));
  const rows = [];
  const ratioRows = [];
  const summary = [];
  for (const workers of plan.workers) {
    const peerMedians = Object.fromEntries(peers.map((peer) => [peer, medians(results.cases, peer, workers)]));
    const boss = peerMedians["pg-boss"];
    for (const label of labels) {
      const m = medians(results.cases, label, workers);
      if (m === undefined) continue;
      rows.push([
        label,
        workers,
        fixed(m.cyclesPerSecond, 0),
        m.perRound.join(", "),
        cpuBreakdown(m.cpuMsPerCycle),
        ms(m.totalCpuMsPerCycle),
        fixed(m.statementsPerCycle, 1),
        fixed(m.cycleStatementsPerCycle, 1),
      ]);
      const cpu = `CPU ${ms(m.totalCpuMsPerCycle)} ms/cycle (${cpuBreakdown(m.cpuMsPerCycle)})`;
      if (TOOLHOST.includes(label) || TOOLHOST_BATCHED.includes(label)) {
        ratioRows.push([
          label,
          workers,
          ...peers.map((peer) => ratio(m.cyclesPerSecond, peerMedians[peer]?.cyclesPerSecond)),
          ...peers.map((peer) => ratio(m.totalCpuMsPerCycle, peerMedians[peer]?.totalCpuMsPerCycle)),
          ratio(m.statementsPerCycle, boss?.statementsPerCycle),
        ]);
        const versus = peers
          .map((peer) => `${ratio(m.cyclesPerSecond, peerMedians[peer]?.cyclesPerSecond)} ${peer}`)
          .join(", ");
        summary.push(
          `${label}, ${workers} worker(s): ${fixed(m.cyclesPerSecond, 0)} cycles/s${versus === "" ? "" : ` = ${versus}`}; ${cpu}; ${fixed(m.statementsPerCycle, 1)} statements/cycle`,
        );
      } else {
        summary.push(
          `${label}, ${workers} worker(s): ${fixed(m.cyclesPerSecond, 0)} cycles/s; ${cpu}; ${fixed(m.statementsPerCycle, 1)} statements/cycle`,
        );
      }
    }
  }
  const throughput = markdownTable(
    [
      "system",
      "workers",
      "cycles/s (median)",
      "per round",
      "CPU ms/cycle by process",
      "CPU ms/cycle, all processes",
      "statements/cycle",
      "less idle background",
    ],
    rows,
  );
  const ratios = markdownTable(
    [
      "toolhost on",
      "workers",
      ...peers.map((peer, i) => (i === 0 ? `cycles/s vs ${peer}` : `vs ${peer}`)),
      ...peers.map((peer, i) => (i === 0 ? `CPU/cycle vs ${peer}` : `vs ${peer}`)),
      "statements vs pg-boss",
    ],
    ratioRows,
  );
  const wakeRows = results.wakeups.map((w) => [
    w.label,
    w.wakeMs.length,
    fixed(median(w.wakeMs), 1),
    fixed(quantile(w.wakeMs, 0.99), 1),
  ]);
  for (const w of results.wakeups) {
    summary.push(
      `${w.label} idle wake-up: p50 ${fixed(median(w.wakeMs), 1)} ms, p99 ${fixed(quantile(w.wakeMs, 0.99), 1)} ms`,
    );
  }
  const idle = markdownTable(
    ["system", "statements/s while idle"],
    results.idle.map((i) => [i.label, fixed(i.statementsPerSecond, 1)]),
  );
  const wake = markdownTable(["system", "samples", "p50 ms", "p99 ms"], wakeRows);
  const lookups = markdownTable(
    ["database", "calls", "uncached µs/request", "cached µs/request"],
    results.lookups.map((l) => [l.label, l.calls, fixed(l.uncachedUs, 1), fixed(l.cachedUs, 1)]),
  );
  for (const l of results.lookups) {
    summary.push(
      `API-key lookup on ${l.label}: ${fixed(l.uncachedUs, 1)} µs uncached, ${fixed(l.cachedUs, 1)} µs cached`,
    );
  }
  const targets = targetLines(results, plan);
  summary.push(...targets);
  const profiles = results.profiles.flatMap((p) => [
    "",
    `Profile of the ${p.label} server at 8 workers (\`${p.file.split("/").pop()}\`, ${p.summary.windowSamples} samples of the measured window, start-up and warm-up left out), self time by where the code lives:`,
    "",
    markdownTable(
      ["where", "self %"],
      p.summary.byArea.map((row) => [row.area, fixed(row.percent, 1)]),
    ),
    "",
    "Hottest functions (self time):",
    "",
    markdownTable(
      ["function", "where", "self %"],
      p.summary.byFunction.map((row) => [row.name, row.where, fixed(row.percent, 1)]),
    ),
  ]);
  const markdown = [
    "## peers: toolhost against pg-boss, graphile-worker, BullMQ and Restate, same run",
    "",
    ...machineLines(machine),
    `- plan: ${plan.rounds} alternating round(s) × workers ${plan.workers.join(" and ")}, each case ${plan.warmupMs} ms warm-up + ${plan.measureMs} ms measured; ${plan.wakeSamples} wake-up samples per system${quick ? " (quick run)" : ""}`,
    "- toolhost cycle: create run → pending → claim → accepted → progress → completed over real HTTP (6 requests); a queue's cycle: enqueue → fetch → complete; a Restate cycle: one invocation.",
    `- toolhost, batched: the same servers and runs, but each executor claims up to ${plan.batchClaims ?? "–"} calls with its long-poll (\`pending?claim=N\`) and settles them with two batched receipt requests (every \`accepted\`, then every \`progress\` and \`completed\`); run creation stays one request per run. The peers stay one job (one invocation) at a time.`,
    "- What each peer measures. **pg-boss** (v10) and **graphile-worker**: PostgreSQL job queues on the same PostgreSQL as toolhost, each in its own schema; a job is committed (fsynced) when enqueued and when completed. **BullMQ**: a Redis job queue, a `Worker` of concurrency N storing each job's result as it completes it, on the machine's Redis, which persists nothing: no RDB snapshots, no append-only file, so nothing it holds is ever written to disk or fsynced (the settings read from it are below). **Restate**: a durable-execution server (`@restatedev/restate-server`, single node, default configuration: its log is fsynced), a service endpoint on `@restatedev/restate-sdk` under Node 24 whose handler does one journaled `ctx.run` side effect per invocation, invoked over the ingress HTTP API (N callers, one invocation in flight each); Restate journals the invocation, the side effect's result and the output before it answers.",
    "- CPU per cycle, every process involved, from /proc (utime + stime over the whole case): toolhost's `server` and its `driver` (this bench process: the executors and the run producers); a queue's `load process` (producers, workers and the library in one process) with its `postgres` backends (those serving that process only) or `redis-server`; Restate's `driver` (the callers), `restate-server` and its `SDK endpoint (Node 24)`. Statements: every `pg.Client#query` (one round trip), better-sqlite3 execution or ioredis command (a Lua script's EVALSHA is one) in the load process or toolhost's server, BEGIN/COMMIT and background work (sweeps, model-turn polling, pg-boss maintenance) included; Restate's storage is inside restate-server, so it has none counted.",
    "- pg-boss has no push wake-up: its idle wake-up is `work()` at its shortest polling interval (0.5 s). Restate's idle wake-up is an invocation sent with nothing in flight until its handler starts (seen over the endpoint's IPC channel).",
    ...redisLines(results.redis),
    ...(results.skipped ?? []).map(({ label, reason }) => `- ${label} left out of this run: ${reason}.`),
    "- The 2 cores are often shared with other work (see the load average above): absolute figures then drop and scatter, for every system alike since the rounds alternate; compare the ratios within one run.",
    "",
    throughput,
    "",
    "Background statements (what each system sends with nothing to do; subtracted at this rate over each case in the last column above):",
    "",
    idle,
    "",
    ratios,
    "",
    "Idle wake-up (enqueue → the idle worker sees the job):",
    "",
    wake,
    "",
    "API-key lookup (`authenticate()` in a loop, one storage, sequential): without the identity cache every request reads its key; with it, a hit.",
    "",
    lookups,
    "",
    ...targets.map((line) => `- ${line}`),
    ...(failures.length > 0 ? ["", ...failures.map((failure) => `- **correctness failure**: ${failure}`)] : []),
    ...profiles,
  ].join("\n");
  return { markdown, summary: summary.join("\n") };
}

/** What the Redis under BullMQ keeps, as read from it (`CONFIG GET save`, `appendonly`). */
function redisLines(redis) {
  if (redis === undefined) return [];
  const persists = redis.save !== "" || redis.appendonly !== "no";
  return [
    `- Redis under BullMQ (127.0.0.1:6379): \`save\` is "${redis.save}", \`appendonly\` is ${redis.appendonly}: ${persists ? "it persists (snapshots or an append-only file)" : "it does not persist and never fsyncs"}.${redis.found ? "" : " Its process was not found, so its CPU is missing."}`,
  ];
}

function targetLines(results, plan) {
  const lines = [];
  const workers = Math.max(...plan.workers);
  for (const [label, target, peer] of [
    ["toolhost PostgreSQL", TARGETS.postgresVsPgBoss, "pg-boss"],
    ["toolhost SQLite", TARGETS.sqliteVsPgBoss, "pg-boss"],
    ["toolhost SQLite", TARGETS.sqliteVsRestate, "Restate"],
    ...TOOLHOST_BATCHED.map((batched) => [batched, TARGETS.batchedVsPgBoss, "pg-boss"]),
  ]) {
    const m = medians(results.cases, label, workers);
    const theirs = medians(results.cases, peer, workers);
    if (m === undefined || theirs === undefined) continue;
    const value = m.cyclesPerSecond / theirs.cyclesPerSecond;
    lines.push(
      `target ${label} ≥ ${target}× ${peer} at ${workers} workers: ${value >= target ? "met" : "**NOT met**"} (${fixed(value, 2)}×)`,
    );
  }
  const graphile = results.wakeups.find((w) => w.label === "graphile-worker");
  for (const label of TOOLHOST) {
    const w = results.wakeups.find((entry) => entry.label === label);
    if (w === undefined || graphile === undefined) continue;
    const mine = quantile(w.wakeMs, 0.99);
    const theirs = quantile(graphile.wakeMs, 0.99);
    lines.push(
      `target ${label} wake-up p99 ≤ graphile-worker's: ${mine <= theirs ? "met" : "**NOT met**"} (${fixed(mine, 1)} vs ${fixed(theirs, 1)} ms)`,
    );
  }
  return lines;
}
