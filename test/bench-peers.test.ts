// The peers benchmark harness runs end to end on tiny counts, so it cannot rot: every system starts,
// completes cycles, has its statements counted and takes its wake-up samples, and the report names
// them all. Nothing here looks at how fast anything was.
import { pathToFileURL } from "node:url";
import { expect, it } from "vitest";
import { POSTGRES_PROBLEM } from "../packages/server/test/support/test-databases.js";

const suiteUrl = (path: string): string => pathToFileURL(new URL(path, import.meta.url).pathname).href;

it("bench/peers runs a tiny plan: every system completes cycles, counted, and is reported", async () => {
  const suite = await import(suiteUrl("../bench/peers/index.mjs"));
  const { describeMachine } = await import(suiteUrl("../bench/lib/machine.mjs"));
  const plan = {
    workers: [1, 2],
    rounds: 1,
    warmupMs: 100,
    measureMs: 300,
    idleMs: 100,
    wakeSamples: 2,
    lookupCalls: 20,
    batchClaims: 4,
  };
  const lines: string[] = [];
  const { markdown, failures, results } = await suite.run({
    quick: true,
    machine: describeMachine(),
    log: (line: string) => lines.push(line),
    plan,
  });
  expect(failures).toEqual([]);
  const toolhost = POSTGRES_PROBLEM === undefined ? ["toolhost SQLite", "toolhost PostgreSQL"] : ["toolhost SQLite"];
  const batched = toolhost.map((label) => `${label}, batched`);
  const systems = [...toolhost, ...batched, ...(POSTGRES_PROBLEM === undefined ? ["pg-boss", "graphile-worker"] : [])];
  for (const label of systems) {
    for (const workers of plan.workers) {
      const measured = results.cases.find(
        (c: { label: string; workers: number }) => c.label === label && c.workers === workers,
      );
      expect(measured, `${label}, ${workers} workers`).toBeDefined();
      expect(measured.completed).toBeGreaterThan(0);
      expect(measured.statementsPerCycle).toBeGreaterThan(0);
      expect(measured.serverMsPerCycle).toBeGreaterThanOrEqual(0);
      if (!label.startsWith("toolhost SQLite")) expect(measured.postgresMsPerCycle).toBeGreaterThanOrEqual(0);
    }
    // A batched twin shares its server, so its idle wake-up is measured once, for the per-call label.
    const wake = results.wakeups.find((w: { label: string }) => w.label === label);
    if (batched.includes(label)) expect(wake).toBeUndefined();
    else expect(wake.wakeMs).toHaveLength(plan.wakeSamples);
    expect(markdown).toContain(`| ${label} |`);
  }
  expect(results.lookups.map((l: { label: string }) => l.label)).toEqual(
    POSTGRES_PROBLEM === undefined ? ["SQLite", "PostgreSQL"] : ["SQLite"],
  );
  expect(markdown).toContain("## peers: toolhost against pg-boss and graphile-worker");
}, 180_000);
