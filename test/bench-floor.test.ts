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

it("bench/floor primes each system for primeMs (15 s in a full run), or warmupMs in plans without it", async () => {
  const { benchPlan, primingOf } = await import(suiteUrl("../bench/floor/index.mjs"));
  expect(primingOf(benchPlan(false))).toEqual({ warmupMs: 1_500, measureMs: 15_000 });
  expect(primingOf(benchPlan(true))).toEqual({ warmupMs: 300, measureMs: 300 });
  expect(primingOf({ warmupMs: 50 })).toEqual({ warmupMs: 50, measureMs: 50 });
});

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
    timed: ["toolhost SQLite"],
  };
  const saved = process.env.BENCH_BASELINE_REF;
  process.env.BENCH_BASELINE_REF = "no-such-ref-for-the-floor-test";
  type Timed = {
    label: string;
    cycles: number;
    statementsPerCycle: number;
    rows: { label: string; perCycle: number; usPerCycle: number }[];
  };
  let outcome: {
    markdown: string;
    failures: string[];
    results: { cases: Case[]; baseline: { problem?: string }; statementTimes: Timed[] };
  };
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
  // The timed pass: a toolhost server that timed every statement of its cycles, by what they do.
  expect(results.statementTimes.map((pass) => pass.label)).toEqual(["toolhost SQLite"]);
  const [timed] = results.statementTimes as [Timed];
  expect(timed.cycles).toBeGreaterThan(0);
  const perCycle = (label: string) => timed.rows.find((row) => row.label === label)?.perCycle ?? 0;
  // Every cycle stores its three receipts and runs its transactions' statements.
  expect(perCycle("insert receipts")).toBeGreaterThanOrEqual(2.9);
  expect(perCycle("commit")).toBeGreaterThan(0);
  const summed = timed.rows.reduce((sum, row) => sum + row.perCycle, 0);
  expect(summed).toBeCloseTo(timed.statementsPerCycle, 6);
  expect(markdown).toContain("Where toolhost's statement time goes");
  expect(markdown).toContain("| `insert receipts` |");
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

describe("statement times", () => {
  it("names a statement by its verb, its tables and an UPDATE's first columns, on both dialects", async () => {
    const { statementLabel } = await import(suiteUrl("../bench/floor/statement-times.mjs"));
    expect(statementLabel("COMMIT")).toBe("commit");
    expect(statementLabel("begin immediate")).toBe("begin immediate");
    expect(statementLabel("savepoint toolhost_tx")).toBe("savepoint");
    expect(
      statementLabel(
        'select "c".*, "r"."status" from "runs" as "r" inner join "tool_calls" as "c" on "c"."run_id" = "r"."run_id"\n left join "receipts" as "x" on 1 = 1 where "r"."run_id" = $1 for update of "r", "c"',
      ),
    ).toBe("select runs, tool_calls, receipts");
    expect(
      statementLabel(
        'update "tool_calls" set "status" = ?, "settled_at_ms" = coalesce("settled_at_ms", ?), "updated_at_ms" = ?, "x" = ? where "call_id" = ?',
      ),
    ).toBe("update tool_calls set status, settled_at_ms, updated_at_ms, …");
    expect(statementLabel("update runs set ready_at_ms = ? where run_id = ?")).toBe("update runs set ready_at_ms");
    expect(
      statementLabel(
        "with changed as (update tool_calls set status = $1 returning *) insert into receipts select * from changed",
      ),
    ).toBe("with (insert + update) tool_calls, receipts");
    expect(statementLabel('insert into "receipts" ("call_id") values (?)')).toBe("insert receipts");
  });

  it("groups the times by label, most time first, per cycle", async () => {
    const { statementTimeRows } = await import(suiteUrl("../bench/floor/statement-times.mjs"));
    const { rows, usPerCycle, statementsPerCycle } = statementTimeRows(
      [
        { sql: "commit", count: 20, us: 2_000 },
        { sql: 'insert into "receipts" ("a") values (?)', count: 20, us: 600 },
        { sql: 'insert into "receipts" ("a") values (?), (?)', count: 10, us: 400 },
      ],
      10,
    );
    expect(rows).toEqual([
      { label: "commit", texts: 1, perCycle: 2, usEach: 100, usPerCycle: 200, share: 2 / 3 },
      { label: "insert receipts", texts: 2, perCycle: 3, usEach: 1_000 / 30, usPerCycle: 100, share: 1 / 3 },
    ]);
    expect(usPerCycle).toBe(300);
    expect(statementsPerCycle).toBe(5);
  });
});

describe("the floor report", () => {
  const at = (
    label: string,
    workers: number,
    server: number,
    extra: Record<string, number> = {},
    roundTripsPerCycle?: number,
  ) => ({
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
    roundTripsPerCycle,
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
        at("toolhost PostgreSQL", 8, 6, { postgres: 4 }, 20),
        at("baseline SQLite", 8, 4),
        at("baseline PostgreSQL", 8, 9, { postgres: 5 }, 34),
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
    expect(markdown).toContain("| toolhost SQLite | 8 | 1.800 | 4.000 | 0.45× | 6.0 | 6.0 | – | – | 100 / 100 |");
    expect(markdown).toContain(
      "| toolhost PostgreSQL | 8 | 6.000 | 9.000 | 0.67× | 6.0 | 6.0 | 20.0 | 34.0 | 100 / 100 |",
    );
    // Statements on SQLite, round trips on PostgreSQL, against the counts.
    expect(markdown).toContain("- target toolhost SQLite statements per cycle ≤ 15 at 8 worker(s): met (6.0)");
    expect(markdown).toContain(
      "- target toolhost PostgreSQL round trips per cycle ≤ 12 at 8 worker(s): **NOT met** (20.0)",
    );
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
