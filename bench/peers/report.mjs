/** The peers suite's results as Markdown: per-system medians over rounds, ratios, wake-ups, lookups, profiles. */

import { machineLines } from "../lib/machine.mjs";
import { fixed, markdownTable } from "../lib/markdown.mjs";
import { median, quantile } from "../lib/timing.mjs";

/** The targets, as ratios to pg-boss (cycles/s) and to graphile-worker (wake-up p99). */
export const TARGETS = { postgresVsPgBoss: 1.0, sqliteVsPgBoss: 2.0, batchedVsPgBoss: 3.0 };

const TOOLHOST = ["toolhost SQLite", "toolhost PostgreSQL"];
const TOOLHOST_BATCHED = TOOLHOST.map((label) => `${label}, batched`);
const PEERS = ["pg-boss", "graphile-worker"];

/** Median of each figure over the rounds of one system and worker count. */
function medians(cases, label, workers) {
  const mine = cases.filter((c) => c.label === label && c.workers === workers);
  if (mine.length === 0) return undefined;
  const of = (key) => {
    const values = mine.map((c) => c[key]).filter((value) => value !== undefined && Number.isFinite(value));
    return values.length === 0 ? undefined : median(values);
  };
  return {
    rounds: mine.length,
    cyclesPerSecond: of("cyclesPerSecond"),
    perRound: mine.map((c) => Math.round(c.cyclesPerSecond)),
    serverMsPerCycle: of("serverMsPerCycle"),
    postgresMsPerCycle: of("postgresMsPerCycle"),
    statementsPerCycle: of("statementsPerCycle"),
    cycleStatementsPerCycle: of("cycleStatementsPerCycle"),
  };
}

const ratio = (a, b) => (a === undefined || b === undefined || !(b > 0) ? "–" : `${fixed(a / b, 2)}×`);
const ms = (value, digits = 3) => (value === undefined ? "–" : fixed(value, digits));

/**
 * Renders the suite's RESULTS.md section and console summary.
 * @returns {{ markdown: string, summary: string }}
 */
export function renderReport({ results, plan, machine, quick, failures }) {
  const labels = [...TOOLHOST, ...TOOLHOST_BATCHED, ...PEERS].filter((label) =>
    results.cases.some((c) => c.label === label),
  );
  const rows = [];
  const ratioRows = [];
  const summary = [];
  for (const workers of plan.workers) {
    const boss = medians(results.cases, "pg-boss", workers);
    const graphile = medians(results.cases, "graphile-worker", workers);
    for (const label of labels) {
      const m = medians(results.cases, label, workers);
      if (m === undefined) continue;
      rows.push([
        label,
        workers,
        fixed(m.cyclesPerSecond, 0),
        m.perRound.join(", "),
        ms(m.serverMsPerCycle),
        ms(m.postgresMsPerCycle),
        fixed(m.statementsPerCycle, 1),
        fixed(m.cycleStatementsPerCycle, 1),
      ]);
      if (TOOLHOST.includes(label) || TOOLHOST_BATCHED.includes(label)) {
        ratioRows.push([
          label,
          workers,
          ratio(m.cyclesPerSecond, boss?.cyclesPerSecond),
          ratio(m.cyclesPerSecond, graphile?.cyclesPerSecond),
          ratio(m.statementsPerCycle, boss?.statementsPerCycle),
          ratio(m.serverMsPerCycle, boss?.serverMsPerCycle),
        ]);
        summary.push(
          `${label}, ${workers} worker(s): ${fixed(m.cyclesPerSecond, 0)} cycles/s = ${ratio(m.cyclesPerSecond, boss?.cyclesPerSecond)} pg-boss, ${ratio(m.cyclesPerSecond, graphile?.cyclesPerSecond)} graphile-worker; ${fixed(m.statementsPerCycle, 1)} statements/cycle`,
        );
      } else {
        summary.push(
          `${label}, ${workers} worker(s): ${fixed(m.cyclesPerSecond, 0)} cycles/s; ${fixed(m.statementsPerCycle, 1)} statements/cycle`,
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
      "server CPU ms/cycle",
      "postgres CPU ms/cycle",
      "statements/cycle",
      "less idle background",
    ],
    rows,
  );
  const ratios = markdownTable(
    [
      "toolhost on",
      "workers",
      "cycles/s vs pg-boss",
      "vs graphile-worker",
      "statements vs pg-boss",
      "server CPU vs pg-boss",
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
    "## peers: toolhost against pg-boss and graphile-worker, same run, same PostgreSQL",
    "",
    ...machineLines(machine),
    `- plan: ${plan.rounds} alternating round(s) × workers ${plan.workers.join(" and ")}, each case ${plan.warmupMs} ms warm-up + ${plan.measureMs} ms measured; ${plan.wakeSamples} wake-up samples per system${quick ? " (quick run)" : ""}`,
    "- toolhost cycle: create run → pending → claim → accepted → progress → completed over real HTTP (6 requests); peer cycle: enqueue → fetch → complete.",
    `- toolhost, batched: the same servers and runs, but each executor claims up to ${plan.batchClaims ?? "–"} calls with its long-poll (\`pending?claim=N\`) and settles them with two batched receipt requests (every \`accepted\`, then every \`progress\` and \`completed\`); run creation stays one request per run. pg-boss and graphile-worker stay one job per fetch.`,
    "- server CPU: the toolhost server process alone (its executors run in the load process); for a peer, its one process holding producers, workers and the library. postgres CPU: the backends serving that process only. Statements: every `pg.Client#query` (one round trip) or better-sqlite3 execution in that process, BEGIN/COMMIT and background work (sweeps, model-turn polling, pg-boss maintenance) included. Per-cycle figures are over the whole case.",
    "- pg-boss has no push wake-up: its idle wake-up is `work()` at its shortest polling interval (0.5 s).",
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

function targetLines(results, plan) {
  const lines = [];
  const workers = Math.max(...plan.workers);
  const boss = medians(results.cases, "pg-boss", workers);
  for (const [label, target] of [
    ["toolhost PostgreSQL", TARGETS.postgresVsPgBoss],
    ["toolhost SQLite", TARGETS.sqliteVsPgBoss],
    ...TOOLHOST_BATCHED.map((batched) => [batched, TARGETS.batchedVsPgBoss]),
  ]) {
    const m = medians(results.cases, label, workers);
    if (m === undefined || boss === undefined) continue;
    const value = m.cyclesPerSecond / boss.cyclesPerSecond;
    lines.push(
      `target ${label} ≥ ${target}× pg-boss at ${workers} workers: ${value >= target ? "met" : "**NOT met**"} (${fixed(value, 2)}×)`,
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
