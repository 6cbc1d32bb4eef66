// bench/floor's harness runs end to end on tiny counts, so it cannot rot: each floor server answers
// bench/protocol's executors through whole cycles, its writes are counted, and the report names it.
// Nothing here looks at how fast anything was. toolhost's own servers are measured the same way by
// bench/peers' harness test (the code is shared); the baseline's build (tsc -b of a whole checkout)
// is too slow for a test, so only its refusal of a ref that is not there runs. Then the pure parts:
// which lockfile differences keep a baseline from this node_modules, and the report's verdicts.
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { POSTGRES_PROBLEM } from "../packages/server/test/support/test-databases.js";

const suiteUrl = (path: string): string => pathToFileURL(new URL(path, import.meta.url).pathname).href;

type Case = { label: string; workers: number; completed: number; statementsPerCycle?: number };

it("bench/floor runs a tiny plan: every floor completes cycles with one write per request", async () => {
  const suite = await import(suiteUrl("../bench/floor/index.mjs"));
  const { FLOOR } = await import(suiteUrl("../bench/floor/report.mjs"));
  const { describeMachine } = await import(suiteUrl("../bench/lib/machine.mjs"));
  const plan = {
    workers: [1, 2],
    rounds: 1,
    warmupMs: 100,
    measureMs: 300,
    idleMs: 100,
    systems: [FLOOR.lookup, FLOOR.sqlite, FLOOR.postgres],
  };
  const saved = process.env.BENCH_BASELINE_REF;
  process.env.BENCH_BASELINE_REF = "no-such-ref-for-the-floor-test";
  let outcome: { markdown: string; failures: string[]; results: { cases: Case[]; baseline: { problem?: string } } };
  try {
    outcome = await suite.run({ quick: true, machine: describeMachine(), log: () => undefined, plan });
  } finally {
    if (saved === undefined) delete process.env.BENCH_BASELINE_REF;
    else process.env.BENCH_BASELINE_REF = saved;
  }
  const { markdown, failures, results } = outcome;
  expect(failures).toEqual([]);
  const floors =
    POSTGRES_PROBLEM === undefined ? [FLOOR.lookup, FLOOR.sqlite, FLOOR.postgres] : [FLOOR.lookup, FLOOR.sqlite];
  for (const label of floors) {
    for (const workers of plan.workers) {
      const measured = results.cases.find((c) => c.label === label && c.workers === workers);
      expect(measured, `${label}, ${workers} workers`).toBeDefined();
      expect(measured?.completed).toBeGreaterThan(0);
      // Six requests a cycle, each one write; polls that found nothing and connects write too.
      if (label === FLOOR.lookup) expect(measured?.statementsPerCycle).toBeUndefined();
      else expect(measured?.statementsPerCycle).toBeGreaterThanOrEqual(6);
    }
    expect(markdown).toContain(`| ${label} |`);
  }
  expect(results.baseline.problem).toMatch(/^no-such-ref-for-the-floor-test is not a commit here/);
  expect(markdown).toContain("- Baseline no-such-ref-for-the-floor-test left out of this run: ");
  expect(markdown).toContain("## floor: toolhost's cycle against the floor of its own stack, same run");
}, 120_000);

describe("the baseline's lockfile check", () => {
  const lock = (packages: Record<string, { version?: string; link?: boolean; resolved?: string }>) => ({ packages });
  const here = lock({
    "": { version: "0.1.0" },
    "packages/server": { version: "0.1.0" },
    "node_modules/@toolhost/server": { resolved: "packages/server", link: true },
    "node_modules/fastify": { version: "5.6.0" },
    "node_modules/pg": { version: "8.16.0" },
    "packages/server/node_modules/glob": { version: "11.0.0" },
    "node_modules/bullmq": { version: "6.7.0" },
  });

  it("accepts a ref whose packages are all installed here at its versions (packages added since do not matter)", async () => {
    const { lockDifferences } = await import(suiteUrl("../bench/floor/baseline-checkout.mjs"));
    const { "node_modules/bullmq": _added, ...older } = here.packages;
    // The workspaces' own entries (their declared ranges) are not what gets loaded: only node_modules counts.
    expect(lockDifferences(lock({ ...older, "packages/server": { version: "0.0.9" } }), here)).toEqual([]);
  });

  it("names each package the ref would load otherwise: another version, missing, a link instead of a package", async () => {
    const { lockDifferences } = await import(suiteUrl("../bench/floor/baseline-checkout.mjs"));
    const ref = lock({
      ...here.packages,
      "node_modules/fastify": { version: "5.5.0" },
      "node_modules/kysely": { version: "0.28.0" },
      "packages/server/node_modules/glob": { version: "10.4.0" },
      "node_modules/@toolhost/server": { version: "0.1.0" },
    });
    expect(lockDifferences(ref, here)).toEqual([
      "node_modules/@toolhost/server: 0.1.0 there, a link to packages/server here",
      "node_modules/fastify: 5.5.0 there, 5.6.0 here",
      "packages/server/node_modules/glob: 10.4.0 there, 11.0.0 here",
      "node_modules/kysely 0.28.0: not installed here",
    ]);
    expect(lockDifferences({}, here)).toEqual(["the ref's package-lock.json has no `packages` (lockfile v1)"]);
  });
});

describe("the floor report", () => {
  const at = (label: string, workers: number, server: number, extra: Record<string, number> = {}) => ({
    round: 1,
    label,
    workers,
    cyclesPerSecond: 100,
    completed: 100,
    cpuMsPerCycle: { server, driver: 0.5, ...extra },
    totalCpuMsPerCycle: server + 0.5 + (extra.postgres ?? 0),
    serverMsPerCycle: server,
    postgresMsPerCycle: extra.postgres,
    statementsPerCycle: 6,
  });
  const plan = { workers: [8], rounds: 1, warmupMs: 1, measureMs: 1 };

  it("divides toolhost's server CPU per cycle by the floor's and by the baseline's, with the verdicts", async () => {
    const { FLOOR, renderReport } = await import(suiteUrl("../bench/floor/report.mjs"));
    const { describeMachine } = await import(suiteUrl("../bench/lib/machine.mjs"));
    const results = {
      cases: [
        at(FLOOR.lookup, 8, 0.5),
        at(FLOOR.sqlite, 8, 1),
        at(FLOOR.postgres, 8, 1.5, { postgres: 1 }),
        at("toolhost SQLite", 8, 1.8),
        at("toolhost PostgreSQL", 8, 6, { postgres: 4 }),
        at("baseline SQLite", 8, 4),
        at("baseline PostgreSQL", 8, 9, { postgres: 5 }),
      ],
      skipped: [],
      baseline: { ref: "3c1b4b7", sha: "3c1b4b75e04adbe33faf9bc07c21edcac3adf167", buildMs: 60_000 },
    };
    const { markdown } = renderReport({ results, plan, machine: describeMachine(), quick: true, failures: [] });
    // vs lookup, vs one write, (server + postgres) vs the floor's, all processes vs the floor's.
    expect(markdown).toContain("| toolhost SQLite | 8 | 3.60× | 1.80× | – | 1.53× |");
    expect(markdown).toContain("| toolhost PostgreSQL | 8 | 12.00× | 4.00× | 4.00× | 3.50× |");
    expect(markdown).toContain(
      "- target toolhost SQLite server CPU per cycle ≤ 2× floor: SQLite write at 8 worker(s): met (1.80×: 1.800 vs 1.000 ms)",
    );
    expect(markdown).toContain(
      "- target toolhost PostgreSQL server CPU per cycle ≤ 2× floor: PostgreSQL write at 8 worker(s): **NOT met** (4.00×: 6.000 vs 1.500 ms)",
    );
    expect(markdown).toContain("| toolhost SQLite | 8 | 1.800 | 4.000 | 0.45× | 6.0 | 6.0 | 100 / 100 |");
    expect(markdown).toContain(
      "- target toolhost SQLite server CPU per cycle at least halved against 3c1b4b7 at 8 worker(s): met (now / baseline 0.45×: 1.800 vs 4.000 ms)",
    );
    expect(markdown).toContain(
      "- target toolhost PostgreSQL server CPU per cycle at least halved against 3c1b4b7 at 8 worker(s): **NOT met** (now / baseline 0.67×: 6.000 vs 9.000 ms)",
    );
  });

  it("says when no baseline ran, or why it was left out", async () => {
    const { FLOOR, renderReport } = await import(suiteUrl("../bench/floor/report.mjs"));
    const { describeMachine } = await import(suiteUrl("../bench/lib/machine.mjs"));
    const cases = [at(FLOOR.sqlite, 8, 1), at("toolhost SQLite", 8, 3)];
    const render = (baseline?: object) =>
      renderReport({
        results: { cases, skipped: [], baseline },
        plan,
        machine: describeMachine(),
        quick: true,
        failures: [],
      }).markdown;
    expect(render()).toContain("- No baseline in this run (`BENCH_BASELINE_REF=<git ref>` adds one;");
    expect(
      render({ ref: "v0", problem: "its package-lock.json needs packages this node_modules does not hold" }),
    ).toContain(
      "- Baseline v0 left out of this run: its package-lock.json needs packages this node_modules does not hold.",
    );
    expect(render()).not.toContain("at least halved");
  });
});
