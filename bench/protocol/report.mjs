/** The protocol suite's results as Markdown: cycles per second, CPU split, wake-up latency, targets. */

import { machineLines } from "../lib/machine.mjs";
import { fixed, markdownTable } from "../lib/markdown.mjs";
import { median, quantile } from "../lib/timing.mjs";

/** The issue's targets. */
export const TARGETS = { sqliteCyclesPerSecond: 2_000, sqliteWakeP99Ms: 5, postgresWakeP99Ms: 10 };

/** HTTP requests per cycle: create run, pending, claim, accepted, progress, completed. */
const REQUESTS_PER_CYCLE = 6;

const cores = (value) => (value === undefined ? "–" : fixed(value, 2));

/** One row of the throughput table. */
function caseRow(label, c) {
  const serverMsPerCycle =
    c.cpu.server === undefined || c.cycles === 0 ? undefined : (c.cpu.server * c.elapsedMs) / c.cycles;
  return [
    label,
    c.executors,
    c.cycles,
    fixed(c.cyclesPerSecond),
    c.perSecond.length > 0 ? `${Math.min(...c.perSecond)}–${Math.max(...c.perSecond)}` : "–",
    fixed(c.cycles === 0 ? Number.NaN : c.polls / c.cycles, 2),
    fixed(c.cycles === 0 ? Number.NaN : c.lostClaims / c.cycles, 2),
    cores(c.cpu.server),
    serverMsPerCycle === undefined ? "–" : fixed(serverMsPerCycle, 2),
    cores(c.cpu.load),
    cores(c.cpu.postgres),
    cores(c.cpu.machine),
  ];
}

/** Met / NOT met with the value. */
function verdict(met, value) {
  return met ? `met (${value})` : `**NOT met** (${value})`;
}

/**
 * Renders the suite's RESULTS.md section and console summary.
 * @returns {{ markdown: string, summary: string }}
 */
export function renderReport({ dialects, logged, plan, machine, quick, failures }) {
  const rows = [];
  for (const d of dialects) for (const c of d.cases) rows.push(caseRow(d.label, c));
  for (const c of logged.cases) rows.push(caseRow(`${logged.label}, log level info`, c));
  const throughput = markdownTable(
    [
      "database",
      "executors",
      "cycles",
      "cycles/s",
      "per second (min–max)",
      "polls/cycle",
      "lost claims/cycle",
      "server CPU (cores)",
      "server CPU ms/cycle",
      "load process CPU",
      "postgres CPU",
      "machine busy (of 2)",
    ].map((h) => (h === "machine busy (of 2)" ? `machine busy (of ${machine.cores})` : h)),
    rows,
  );
  const wakeRows = dialects
    .filter((d) => d.wake !== undefined && d.wake.wakeMs.length > 0)
    .map((d) => [
      d.label,
      d.wake.wakeMs.length,
      fixed(median(d.wake.wakeMs), 2),
      fixed(quantile(d.wake.wakeMs, 0.99), 2),
      fixed(Math.max(...d.wake.wakeMs), 2),
      fixed(median(d.wake.createMs), 2),
      fixed(quantile(d.wake.createMs, 0.99), 2),
    ]);
  for (const d of dialects) {
    if (d.wake === undefined || d.wake.readMs === undefined || d.wake.readMs.length === 0) continue;
    for (const [what, samples] of [
      ["`GET /v1/health`", d.wake.healthMs],
      ["authenticated `GET /v1/sessions/{id}`", d.wake.readMs],
    ]) {
      wakeRows.push([
        `(request floor, ${d.label}: ${what} after the same pause)`,
        samples.length,
        fixed(median(samples), 2),
        fixed(quantile(samples, 0.99), 2),
        fixed(Math.max(...samples), 2),
        "–",
        "–",
      ]);
    }
  }
  const floor = dialects.find((d) => d.diskFloor !== undefined)?.diskFloor;
  if (floor !== undefined && floor.length > 0) {
    wakeRows.push([
      "(disk floor: a one-row SQLite commit, `synchronous=FULL`)",
      floor.length,
      fixed(median(floor), 2),
      fixed(quantile(floor, 0.99), 2),
      fixed(Math.max(...floor), 2),
      "–",
      "–",
    ]);
  }
  const wakeTable = markdownTable(
    ["database", "samples", "wake-up p50 ms", "wake-up p99 ms", "max ms", "create-run answer p50 ms", "p99 ms"],
    wakeRows,
  );

  const sqlite = dialects.find((d) => d.dialect === "sqlite");
  const postgres = dialects.find((d) => d.dialect === "postgres");
  const best = (d) => (d?.cases.length ? Math.max(...d.cases.map((c) => c.cyclesPerSecond)) : Number.NaN);
  const p99 = (d) => (d?.wake?.wakeMs.length ? quantile(d.wake.wakeMs, 0.99) : Number.NaN);
  const sqliteBest = best(sqlite);
  const targetRows = [
    [
      `≥ ${TARGETS.sqliteCyclesPerSecond} cycles/s on SQLite (best of ${plan.executors.join("/")} executors)`,
      verdict(sqliteBest >= TARGETS.sqliteCyclesPerSecond, `${fixed(sqliteBest)}/s`),
    ],
    [
      `wake-up p99 ≤ ${TARGETS.sqliteWakeP99Ms} ms on SQLite`,
      verdict(p99(sqlite) <= TARGETS.sqliteWakeP99Ms, `${fixed(p99(sqlite), 2)} ms`),
    ],
    [
      `wake-up p99 ≤ ${TARGETS.postgresWakeP99Ms} ms on PostgreSQL`,
      postgres?.skipped !== undefined
        ? `not measured (PostgreSQL skipped: ${postgres.skipped})`
        : verdict(p99(postgres) <= TARGETS.postgresWakeP99Ms, `${fixed(p99(postgres), 2)} ms`),
    ],
  ];
  const limits = [];
  for (const d of dialects) {
    const top = d.cases.reduce((a, c) => (a === undefined || c.cyclesPerSecond > a.cyclesPerSecond ? c : a), undefined);
    if (top === undefined || top.cpu.server === undefined) continue;
    const msPerCycle = (top.cpu.server * top.elapsedMs) / top.cycles;
    const thread =
      d.dialect === "sqlite"
        ? "its one JavaScript thread runs the requests and every SQLite statement, and waits out each commit's fsync on top"
        : "its JavaScript thread runs the requests and the pg driver";
    limits.push(
      `${d.label}, ${top.executors} executors: the server process used ${fixed(top.cpu.server, 2)} cores ` +
        `(${fixed(msPerCycle, 2)} ms of CPU per cycle, i.e. at most ${fixed(1000 / msPerCycle, 0)} cycles/s on one core: ${thread}), ` +
        `the load process ${cores(top.cpu.load)}, ` +
        `${d.dialect === "postgres" ? `PostgreSQL ${cores(top.cpu.postgres)} (${fixed((top.cpu.postgres * top.elapsedMs) / top.cycles, 2)} ms per cycle), ` : ""}` +
        `the machine ${cores(top.cpu.machine)} of ${machine.cores} cores; about ${fixed(top.cyclesPerSecond * REQUESTS_PER_CYCLE, 0)} HTTP requests/s.`,
    );
  }

  const setup = [
    "Server: `toolhost serve` (the real CLI) in a child process on 127.0.0.1, `TOOLHOST_LOG_LEVEL=warn` (log lines to a file), default options (sweeps every 250 ms, 15 s leases); a fresh SQLite file (WAL, group commit, each commit fsynced off the event loop before it is answered) or a fresh PostgreSQL schema (`?schema=bench_…`, dropped afterwards) on the local cluster.",
    "World: one binding; a toolset with one `write` tool on it; an agent version whose scripted model emits one call of that tool and then a final message. **A cycle is one run**: `POST /v1/sessions/{id}/runs` (the run and its pending call, one transaction) → an executor's long-poll `GET …/pending` answers it → `claim` → `accepted` → `progress` → `completed`, whose result ends the run (history, next model turn, one transaction). That is 6 HTTP requests and 5 write transactions per cycle.",
    `Load: this process (a minimal HTTP/1.1 keep-alive client on raw sockets, one connection per executor; node:http's client costs several times more CPU per request and the load shares the ${machine.cores} cores with the server). ⌈N/2⌉ + 2 producer connections keep at most 2N + 4 runs not yet completed; each executor loops pending (\`limit\` = min(2N + 4, 50), \`wait_ms\` 1000) → claim (from a random candidate of the page; a lost race — \`already_claimed\`, or \`run_terminated\` when the page was stale — tries the next one, up to 4) → accepted → progress → completed, and heartbeats every 4 s on a shared connection. ${plan.warmupMs} ms warm-up, then completions counted over ${plan.measureMs} ms; afterwards every created run must complete (it is checked), as must every answer (confirmed, applied, run completed).`,
    "CPU: `process.cpuUsage()` of the load process, `/proc/<pid>/stat` of the server, every `postgres` process (other users of the cluster count too) and `/proc/stat` for the machine, over the measured window, in cores (1.00 = one core busy throughout).",
    `Wake-up: one executor long-polls (\`wait_ms\` 30000) with nothing pending; 15–25 ms later the producer sends \`POST /v1/sessions/{id}/runs\`. The sample runs from just before that request is written until the executor has read the pending answer naming the new call (the run's transaction and commit, the in-process wake-up, the candidates query, both HTTP legs); the executor then settles the call. ${plan.wakeSamples} samples per database on an otherwise idle server; "create-run answer" is the producer's own latency for comparison. The disk floor is ${plan.floorCommits} one-row transactions on a SQLite file in the same directory (WAL, \`synchronous=FULL\`), timed just before the SQLite wake-ups: the commit every wake-up contains cannot be faster. The request floors are, after the same 15–25 ms pause, a request that does nothing (\`GET /v1/health\`) and one that only authenticates (a key lookup in the database; the session it reads is cached): no wake-up can be faster than they are.`,
  ].map((line) => `- ${line}`);

  const markdown = [
    "## protocol: executor protocol cycles and wake-up latency",
    "",
    ...machineLines(machine),
    `- run: ${quick ? "quick (rough numbers)" : "full"}`,
    "",
    ...setup,
    "",
    throughput,
    "",
    wakeTable,
    "",
    "Targets:",
    "",
    markdownTable(["target", "result"], targetRows),
    "",
    "Where the time goes (the fastest case of each database):",
    "",
    ...limits.map((line) => `- ${line}`),
    ...(postgres?.skipped !== undefined ? [`- PostgreSQL was skipped: ${postgres.skipped}`] : []),
    "- What the profiles of this benchmark show (statements per cycle, idle wake-up cost, logging) and what was left alone: [docs/protocol.md, Performance](../docs/protocol.md#performance).",
    "",
    failures.length === 0
      ? "- Correctness: every answer was the expected one and every created run completed."
      : `- **Failures**: ${failures.join("; ")}`,
  ].join("\n");
  const summaryLines = rows.map(
    (r) => `${r[0]}, ${r[1]} executors: ${r[3]} cycles/s (server ${r[7]} cores, load ${r[9]})`,
  );
  for (const w of wakeRows)
    summaryLines.push(
      `${w[0]}${w[0].startsWith("(") ? "" : " wake-up"}: p50 ${w[2]} ms, p99 ${w[3]} ms (${w[1]} samples)`,
    );
  for (const t of targetRows) summaryLines.push(`${t[0]}: ${t[1]}`);
  return { markdown, summary: summaryLines.join("\n") };
}
