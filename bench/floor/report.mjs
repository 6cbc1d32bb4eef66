/** The floor suite's results as Markdown: per-system medians over rounds, toolhost / floor, now / baseline. */

import { machineLines } from "../lib/machine.mjs";
import { fixed, markdownTable } from "../lib/markdown.mjs";
import { medians } from "../peers/report.mjs";

/** The floor systems' labels. */
export const FLOOR = {
  lookup: "floor: lookup",
  sqlite: "floor: SQLite write",
  postgres: "floor: PostgreSQL write",
};

/** The issue's targets: toolhost's server CPU per cycle at most this many floors; at most this share of the baseline's. */
export const TARGETS = {
  serverCpuVsWriteFloor: 2.0,
  serverCpuVsBaseline: 0.5,
  /** Statements per cycle on SQLite, round trips per cycle on PostgreSQL (background work included). */
  sqliteStatements: 15,
  postgresRoundTrips: 12,
};

/** toolhost on each database, with its floor of one write per request there and its baseline. */
const DIALECTS = [
  { toolhost: "toolhost SQLite", floor: FLOOR.sqlite, baseline: "baseline SQLite" },
  { toolhost: "toolhost PostgreSQL", floor: FLOOR.postgres, baseline: "baseline PostgreSQL" },
];
const ORDER = [
  FLOOR.lookup,
  FLOOR.sqlite,
  FLOOR.postgres,
  ...DIALECTS.map((d) => d.toolhost),
  ...DIALECTS.map((d) => d.baseline),
];

const ms = (value) => (value === undefined ? "–" : fixed(value, 3));

/** `a / b` as `2.50×`, or `–` when either is missing. */
export function ratioText(a, b) {
  return a === undefined || b === undefined || !(b > 0) || !Number.isFinite(a) ? "–" : `${fixed(a / b, 2)}×`;
}

/**
 * The target lines: per worker count and database, toolhost's server CPU per cycle against the floor
 * with one write per request (≤ 2×), and, when a baseline ran, against the baseline's (≤ ½).
 * @returns {string[]}
 */
export function targetLines(results, plan) {
  const lines = [];
  const ref = results.baseline?.ref;
  for (const workers of plan.workers) {
    for (const { toolhost, floor, baseline } of DIALECTS) {
      const measured = medians(results.cases, toolhost, workers);
      const mine = measured?.serverMsPerCycle;
      if (mine === undefined) continue;
      const [count, what, limit] =
        toolhost === "toolhost SQLite"
          ? [measured.statementsPerCycle, "statements", TARGETS.sqliteStatements]
          : [measured.roundTripsPerCycle, "round trips", TARGETS.postgresRoundTrips];
      if (Number.isFinite(count)) {
        lines.push(
          `target ${toolhost} ${what} per cycle ≤ ${limit} at ${workers} worker(s): ${count <= limit ? "met" : "**NOT met**"} (${fixed(count, 1)})`,
        );
      }
      const theirs = medians(results.cases, floor, workers)?.serverMsPerCycle;
      if (theirs !== undefined && theirs > 0) {
        const value = mine / theirs;
        lines.push(
          `target ${toolhost} server CPU per cycle ≤ ${TARGETS.serverCpuVsWriteFloor}× ${floor} at ${workers} worker(s): ${value <= TARGETS.serverCpuVsWriteFloor ? "met" : "**NOT met**"} (${fixed(value, 2)}×: ${ms(mine)} vs ${ms(theirs)} ms)`,
        );
      }
      const before = medians(results.cases, baseline, workers)?.serverMsPerCycle;
      if (before !== undefined && before > 0) {
        const value = mine / before;
        lines.push(
          `target ${toolhost} server CPU per cycle at least halved against ${ref} at ${workers} worker(s): ${value <= TARGETS.serverCpuVsBaseline ? "met" : "**NOT met**"} (now / baseline ${fixed(value, 2)}×: ${ms(mine)} vs ${ms(before)} ms)`,
        );
      }
    }
  }
  return lines;
}

/** Most statement kinds listed per database in the timed pass's table; the rest are summed in one row. */
const TIMED_ROWS = 16;

/**
 * The timed pass's section: per database, where the statement time of a cycle goes.
 * @returns {string[]}
 */
function statementTimeLines(timed) {
  if (timed.length === 0) return [];
  const lines = [
    "",
    `Where toolhost's statement time goes (the timed pass: per database a separate server timing every statement, one case of ${timed[0].workers} workers after one that warms it up; the measured cases above run untimed). SQLite: each statement's execution on the server's one thread, \`BEGIN\`/\`COMMIT\` included (the WAL's fsync runs apart, off the event loop). PostgreSQL: each statement from its send to its answer, wall time, so concurrent requests' statements overlap and the sum can pass the server's CPU; a pipelined transaction's statements overlap too (\`BEGIN\` is answered only with the statement it travels with, an unanswered write with the next one waited for). Statements are grouped by what they do (verb, tables, an UPDATE's first columns).`,
  ];
  for (const pass of timed) {
    const shown = pass.rows.slice(0, TIMED_ROWS);
    const rest = pass.rows.slice(TIMED_ROWS);
    const rows = shown.map((row) => [
      `\`${row.label}\``,
      fixed(row.perCycle, 2),
      fixed(row.usEach, 1),
      fixed(row.usPerCycle, 1),
      `${fixed(100 * row.share, 1)} %`,
    ]);
    if (rest.length > 0) {
      const sum = (key) => rest.reduce((total, row) => total + row[key], 0);
      rows.push([
        `${rest.length} others`,
        fixed(sum("perCycle"), 2),
        "–",
        fixed(sum("usPerCycle"), 1),
        `${fixed(100 * sum("share"), 1)} %`,
      ]);
    }
    const ofCpu =
      pass.label.includes("SQLite") && pass.serverMsPerCycle > 0
        ? `, ${fixed((100 * pass.usPerCycle) / 1000 / pass.serverMsPerCycle, 0)} % of the server's ${ms(pass.serverMsPerCycle)} ms of CPU per cycle in that case`
        : pass.serverMsPerCycle > 0
          ? ` (the server's CPU in that case: ${ms(pass.serverMsPerCycle)} ms per cycle)`
          : "";
    lines.push(
      "",
      `${pass.label}, ${pass.cycles} cycles: ${fixed(pass.statementsPerCycle, 1)} statements and ${ms(pass.usPerCycle / 1000)} ms of statement time per cycle${ofCpu}.`,
      "",
      markdownTable(["statement", "per cycle", "µs each", "µs per cycle", "share of statement time"], rows),
    );
  }
  return lines;
}

/**
 * Renders the suite's RESULTS.md section and console summary.
 * @returns {{ markdown: string, summary: string }}
 */
export function renderReport({ results, plan, machine, quick, failures }) {
  const labels = ORDER.filter((label) => results.cases.some((c) => c.label === label));
  const rows = [];
  const ratioRows = [];
  const baselineRows = [];
  const summary = [];
  for (const workers of plan.workers) {
    const of = (label) => medians(results.cases, label, workers);
    for (const label of labels) {
      const m = of(label);
      if (m === undefined) continue;
      rows.push([
        label,
        workers,
        fixed(m.cyclesPerSecond, 0),
        m.perRound.join(", "),
        ms(m.serverMsPerCycle),
        ms(m.postgresMsPerCycle),
        ms(m.cpuMsPerCycle.driver),
        ms(m.totalCpuMsPerCycle),
        fixed(m.statementsPerCycle, 1),
        fixed(m.roundTripsPerCycle, 1),
      ]);
      summary.push(
        `${label}, ${workers} worker(s): ${fixed(m.cyclesPerSecond, 0)} cycles/s; server ${ms(m.serverMsPerCycle)} ms/cycle` +
          `${m.postgresMsPerCycle === undefined ? "" : ` + postgres ${ms(m.postgresMsPerCycle)}`}; ${fixed(m.statementsPerCycle, 1)} statements/cycle` +
          `${m.roundTripsPerCycle === undefined ? "" : `, ${fixed(m.roundTripsPerCycle, 1)} round trips`}`,
      );
    }
    const lookup = of(FLOOR.lookup);
    for (const { toolhost, floor, baseline } of DIALECTS) {
      const mine = of(toolhost);
      if (mine === undefined) continue;
      const write = of(floor);
      const withPostgres = (m) =>
        m?.postgresMsPerCycle === undefined ? undefined : m.serverMsPerCycle + m.postgresMsPerCycle;
      ratioRows.push([
        toolhost,
        workers,
        ratioText(mine.serverMsPerCycle, lookup?.serverMsPerCycle),
        ratioText(mine.serverMsPerCycle, write?.serverMsPerCycle),
        ratioText(withPostgres(mine), withPostgres(write)),
        ratioText(mine.totalCpuMsPerCycle, write?.totalCpuMsPerCycle),
      ]);
      const before = of(baseline);
      if (before !== undefined) {
        baselineRows.push([
          toolhost,
          workers,
          ms(mine.serverMsPerCycle),
          ms(before.serverMsPerCycle),
          ratioText(mine.serverMsPerCycle, before.serverMsPerCycle),
          fixed(mine.statementsPerCycle, 1),
          fixed(before.statementsPerCycle, 1),
          fixed(mine.roundTripsPerCycle, 1),
          fixed(before.roundTripsPerCycle, 1),
          `${fixed(mine.cyclesPerSecond, 0)} / ${fixed(before.cyclesPerSecond, 0)}`,
        ]);
      }
    }
  }
  const targets = targetLines(results, plan);
  summary.push(...targets);
  const timeLines = statementTimeLines(results.statementTimes ?? []);
  const baseline = results.baseline;
  const baselineLines =
    baseline === undefined
      ? [
          "- No baseline in this run (`BENCH_BASELINE_REF=<git ref>` adds one; the issue's \"today's code\" is 3c1b4b7).",
        ]
      : baseline.problem !== undefined
        ? [`- Baseline ${baseline.ref} left out of this run: ${baseline.problem}.`]
        : [
            `- Baseline: ${baseline.ref} (${baseline.sha.slice(0, 10)}), checked out into a temporary worktree (\`git worktree add --detach\`), built there (\`tsc -b\`, ${fixed(baseline.buildMs / 1000, 0)} s) on this checkout's node_modules (its package-lock.json resolves every package to the version installed here), started as bench/protocol starts toolhost (\`toolhost serve --db …\`, log level warn) and measured in the same rounds; the worktree is removed afterwards.`,
          ];
  const markdown = [
    "## floor: toolhost's cycle against the floor of its own stack, same run",
    "",
    ...machineLines(machine),
    ...(quick
      ? [
          "- **quick run** (`--quick`, one short round): rough figures, until a full `npm run bench -- floor` replaces them.",
        ]
      : []),
    `- plan: ${plan.rounds} alternating round(s) × workers ${plan.workers.join(" and ")}, each case ${plan.warmupMs} ms warm-up + ${plan.measureMs} ms measured, after one unreported case per system (${Math.max(...plan.workers)} workers, ${plan.warmupMs + (plan.primeMs ?? plan.warmupMs)} ms) that warms its code up (V8 optimizes toolhost's code for about 20 s of load)${quick ? " (quick run)" : ""}`,
    "- cycle: create run → pending → claim → accepted → progress → completed over keep-alive HTTP (6 requests), driven by bench/protocol's simulated executors and run producers in the bench process (the `driver`), the same for every system, with the same request bodies.",
    "- **floor** (`bench/floor/floor-server.mjs`): a bare Fastify 5 server (no logging, no schemas) answering those requests — and connect, heartbeat, disconnect — with answers of toolhost's shape and size, its state in memory found by key (API key → scopes, call id → call; one long-poll woken per new call). `floor: lookup` does nothing else; `floor: SQLite write` adds one durable SQLite write per request (autocommit, WAL, `synchronous=FULL`: the WAL fsynced before the answer); `floor: PostgreSQL write` one INSERT or UPDATE per request instead (one round trip, a named prepared statement, committed before the answer). The SQLite floor fsyncs every write on its one thread, where toolhost shares one fsync among concurrent commits (group commit, off the event loop): its cycles/s are low, its CPU per cycle is what counts. Its writes are the row each request changes: the call (create run, claim, receipts) or the executor's connection (pending records the poll).",
    "- **toolhost**: `toolhost serve` of this checkout on a fresh SQLite file (WAL, group commit, the WAL fsynced after each commit) and on a fresh PostgreSQL schema, with bench/protocol's one-tool world.",
    ...baselineLines,
    "- CPU per cycle from /proc (utime + stime over the whole case: warm-up, window and drain, divided by the runs completed): `server` is the server process, `postgres` the backends serving it only; statements: every better-sqlite3 execution or `pg.Client#query` in the server (BEGIN/COMMIT and background work included); PostgreSQL round trips: those queries sent while nothing else of their client was on the way (toolhost's pipelined driver sends BEGIN with a transaction's first statement and its unanswered writes with COMMIT; without pipelining every query is one).",
    ...(results.skipped ?? []).map(({ label, reason }) => `- ${label} left out of this run: ${reason}.`),
    "- The 2 cores are often shared with other work (see the load average above): absolute figures then rise and scatter, for every system alike since the rounds alternate; compare the ratios within one run.",
    "",
    markdownTable(
      [
        "system",
        "workers",
        "cycles/s (median)",
        "per round",
        "server CPU ms/cycle",
        "postgres ms/cycle",
        "driver ms/cycle",
        "all processes ms/cycle",
        "statements/cycle",
        "PostgreSQL round trips/cycle",
      ],
      rows,
    ),
    "",
    "toolhost against the floor (server CPU per cycle, same run):",
    "",
    markdownTable(
      [
        "toolhost on",
        "workers",
        "vs floor: lookup",
        "vs floor: one write per request",
        "server + postgres vs floor's",
        "all processes vs floor's",
      ],
      ratioRows,
    ),
    ...(baselineRows.length === 0
      ? []
      : [
          "",
          `Server CPU per cycle: now against the baseline ${baseline.ref}:`,
          "",
          markdownTable(
            [
              "toolhost on",
              "workers",
              "now ms/cycle",
              "baseline ms/cycle",
              "now / baseline",
              "statements/cycle now",
              "baseline",
              "round trips/cycle now",
              "baseline",
              "cycles/s now / baseline",
            ],
            baselineRows,
          ),
        ]),
    ...timeLines,
    "",
    ...targets.map((line) => `- ${line}`),
    ...(failures.length > 0 ? ["", ...failures.map((failure) => `- **correctness failure**: ${failure}`)] : []),
  ].join("\n");
  return { markdown, summary: summary.join("\n") };
}
