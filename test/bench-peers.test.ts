// The peers benchmark harness runs end to end on tiny counts, so it cannot rot: every system starts,
// completes cycles, has its statements and the CPU of its processes counted and takes its wake-up
// samples, and the report names them all. Nothing here looks at how fast anything was. Restate is left
// out of the run (it starts a server and a Node 24 endpoint: seconds, and Node 24 may not be fetched
// yet); its part of the report is rendered from made-up cases instead.
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { POSTGRES_PROBLEM } from "../packages/server/test/support/test-databases.js";

const suiteUrl = (path: string): string => pathToFileURL(new URL(path, import.meta.url).pathname).href;

type Case = {
  label: string;
  workers: number;
  completed: number;
  statementsPerCycle?: number;
  serverMsPerCycle?: number;
  postgresMsPerCycle?: number;
  cpuMsPerCycle: Record<string, number>;
  totalCpuMsPerCycle: number;
};

it("bench/peers runs a tiny plan: every system completes cycles, counted, and is reported", async () => {
  const suite = await import(suiteUrl("../bench/peers/index.mjs"));
  const { describeMachine } = await import(suiteUrl("../bench/lib/machine.mjs"));
  const { probeRedis } = await import(suiteUrl("../bench/peers/bullmq-peer.mjs"));
  const redis = await probeRedis();
  const plan = {
    workers: [1, 2],
    rounds: 1,
    warmupMs: 100,
    measureMs: 300,
    idleMs: 100,
    wakeSamples: 2,
    lookupCalls: 20,
    batchClaims: 4,
    peers: ["pg-boss", "graphile-worker", "BullMQ"],
  };
  const lines: string[] = [];
  const { markdown, failures, results } = await suite.run({
    quick: true,
    machine: describeMachine(),
    log: (line: string) => lines.push(line),
    plan,
  });
  expect(failures).toEqual([]);
  const withPostgres = POSTGRES_PROBLEM === undefined;
  const toolhost = withPostgres ? ["toolhost SQLite", "toolhost PostgreSQL"] : ["toolhost SQLite"];
  const batched = toolhost.map((label) => `${label}, batched`);
  const systems = [
    ...toolhost,
    ...batched,
    ...(withPostgres ? ["pg-boss", "graphile-worker"] : []),
    ...(redis.problem === undefined ? ["BullMQ"] : []),
  ];
  // A peer that cannot run is left out with its reason, printed and reported.
  const skipped = results.skipped.map((s: { label: string }) => s.label);
  expect(skipped).toEqual([
    ...(withPostgres ? [] : ["pg-boss", "graphile-worker"]),
    ...(redis.problem === undefined ? [] : ["BullMQ"]),
  ]);
  for (const label of skipped) expect(lines.some((line) => line.startsWith(`${label} left out: `))).toBe(true);
  for (const label of systems) {
    for (const workers of plan.workers) {
      const measured: Case | undefined = results.cases.find((c: Case) => c.label === label && c.workers === workers);
      expect(measured, `${label}, ${workers} workers`).toBeDefined();
      if (measured === undefined) continue;
      expect(measured.completed).toBeGreaterThan(0);
      expect(measured.statementsPerCycle).toBeGreaterThan(0);
      expect(measured.serverMsPerCycle).toBeGreaterThanOrEqual(0);
      const roles = label.startsWith("toolhost")
        ? ["server", "driver"]
        : label === "BullMQ"
          ? ["load process", ...(redis.pid === undefined ? [] : ["redis-server"])]
          : ["load process"];
      if (label.includes("PostgreSQL") || label === "pg-boss" || label === "graphile-worker") {
        expect(measured.postgresMsPerCycle).toBeGreaterThanOrEqual(0);
        roles.push("postgres");
      } else expect(measured.postgresMsPerCycle).toBeUndefined();
      expect(Object.keys(measured.cpuMsPerCycle)).toEqual(roles);
      const sum = Object.values(measured.cpuMsPerCycle).reduce((total, value) => total + value, 0);
      expect(measured.totalCpuMsPerCycle).toBeCloseTo(sum, 9);
    }
    // A batched twin shares its server, so its idle wake-up is measured once, for the per-call label.
    const wake = results.wakeups.find((w: { label: string }) => w.label === label);
    if (batched.includes(label)) expect(wake).toBeUndefined();
    else expect(wake.wakeMs).toHaveLength(plan.wakeSamples);
    expect(markdown).toContain(`| ${label} |`);
  }
  expect(results.lookups.map((l: { label: string }) => l.label)).toEqual(
    withPostgres ? ["SQLite", "PostgreSQL"] : ["SQLite"],
  );
  expect(markdown).toContain("## peers: toolhost against pg-boss, graphile-worker, BullMQ and Restate, same run");
  if (redis.problem === undefined) {
    expect(results.redis).toEqual({ save: redis.save, appendonly: redis.appendonly, found: redis.pid !== undefined });
    expect(markdown).toContain(`\`save\` is "${redis.save}", \`appendonly\` is ${redis.appendonly}`);
  }
}, 180_000);

describe("the peers report", () => {
  const at = (label: string, workers: number, cyclesPerSecond: number, cpuMsPerCycle: Record<string, number>) => ({
    round: 1,
    label,
    workers,
    cyclesPerSecond,
    completed: 100,
    cpuMsPerCycle,
    totalCpuMsPerCycle: Object.values(cpuMsPerCycle).reduce((total, value) => total + value, 0),
    serverMsPerCycle: cpuMsPerCycle.server ?? cpuMsPerCycle["restate-server"] ?? cpuMsPerCycle["load process"],
    statementsPerCycle: label === "Restate" ? undefined : 10,
    cycleStatementsPerCycle: label === "Restate" ? undefined : 10,
  });
  const results = {
    cases: [
      at("toolhost SQLite", 8, 600, { server: 2, driver: 1 }),
      at("Restate", 8, 500, { driver: 0.5, "restate-server": 3, "SDK endpoint (Node 24)": 2.5 }),
      at("BullMQ", 8, 6000, { "load process": 0.2, "redis-server": 0.1 }),
    ],
    idle: [],
    wakeups: [],
    lookups: [],
    profiles: [],
    skipped: [{ label: "pg-boss", reason: "PostgreSQL does not answer (refused)" }],
    redis: { save: "", appendonly: "no", found: true },
  };
  const plan = { workers: [8], rounds: 1, warmupMs: 1, measureMs: 1, wakeSamples: 0, batchClaims: 16 };

  it("lists each process's CPU per cycle, their sum, and toolhost's ratios to each peer that ran", async () => {
    const { renderReport } = await import(suiteUrl("../bench/peers/report.mjs"));
    const { describeMachine } = await import(suiteUrl("../bench/lib/machine.mjs"));
    const { markdown } = renderReport({ results, plan, machine: describeMachine(), quick: true, failures: [] });
    expect(markdown).toContain(
      "| Restate | 8 | 500 | 500 | driver 0.500 + restate-server 3.000 + SDK endpoint (Node 24) 2.500 | 6.000 | – | – |",
    );
    expect(markdown).toContain(
      "| BullMQ | 8 | 6000 | 6000 | load process 0.200 + redis-server 0.100 | 0.300 | 10.0 | 10.0 |",
    );
    // Only the peers that ran get ratio columns: 600/6000 and 600/500 cycles/s, 3/0.3 and 3/6 CPU.
    expect(markdown).toContain(
      "| toolhost on | workers | cycles/s vs BullMQ | vs Restate | CPU/cycle vs BullMQ | vs Restate | statements vs pg-boss |",
    );
    expect(markdown).toContain("| toolhost SQLite | 8 | 0.10× | 1.20× | 10.00× | 0.50× | – |");
    expect(markdown).toContain("- target toolhost SQLite ≥ 2× Restate at 8 workers: **NOT met** (1.20×)");
    expect(markdown).not.toContain("× pg-boss at 8 workers");
    expect(markdown).toContain('`save` is "", `appendonly` is no: it does not persist and never fsyncs.');
    expect(markdown).toContain("- pg-boss left out of this run: PostgreSQL does not answer (refused).");
  });

  it("says so when the Redis under BullMQ persists", async () => {
    const { renderReport } = await import(suiteUrl("../bench/peers/report.mjs"));
    const { describeMachine } = await import(suiteUrl("../bench/lib/machine.mjs"));
    const persisting = { ...results, redis: { save: "3600 1", appendonly: "yes", found: false } };
    const { markdown } = renderReport({
      results: persisting,
      plan,
      machine: describeMachine(),
      quick: true,
      failures: [],
    });
    expect(markdown).toContain(
      '`save` is "3600 1", `appendonly` is yes: it persists (snapshots or an append-only file).',
    );
    expect(markdown).toContain("Its process was not found, so its CPU is missing.");
  });
});

it("the Restate peer is left out with a reason when Node 24 is missing", async () => {
  const { restateProblem } = await import(suiteUrl("../bench/peers/restate-peer.mjs"));
  const saved = process.env.TOOLHOST_NODE24;
  process.env.TOOLHOST_NODE24 = "/nonexistent/node24/bin/node";
  try {
    expect(restateProblem()).toBe(
      "no Node 24 at /nonexistent/node24/bin/node (bash .ci/node24 fetches it from the npm registry, or set TOOLHOST_NODE24)",
    );
  } finally {
    if (saved === undefined) delete process.env.TOOLHOST_NODE24;
    else process.env.TOOLHOST_NODE24 = saved;
  }
});
