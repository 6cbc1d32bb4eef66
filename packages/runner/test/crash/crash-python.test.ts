// The crash harness against the Python runner (sdk/python), inside `npm test`: 300 write calls through
// real runs, Python executor processes SIGKILLed at every kill point, the server SIGKILLed and
// restarted on its SQLite file; at the end no call has two side effects, no final receipt was lost and
// nothing was applied twice. Skips (saying so) only where python3 is missing, never under CI=true.
// `npm run crash -- --runner python --calls 1000` is the record (docs/runner-python.md).
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/temp-dir.js";
// @ts-expect-error -- plain ESM module (it also runs under node for `npm run crash`), no declarations.
import { runCrashHarness } from "./harness.mjs";
// @ts-expect-error -- plain ESM module, no declarations.
import { PYTHON } from "./processes.mjs";
// @ts-expect-error -- plain ESM module, no declarations.
import { summaryLines } from "./report.mjs";

const python = spawnSync(PYTHON, ["--version"], { encoding: "utf8" });
const pythonMissing = python.status !== 0;
const requirePython = process.env.CI === "true";
if (pythonMissing && !requirePython) console.warn(`${PYTHON} is missing: skipping the Python runner's crash harness`);

describe.skipIf(pythonMissing && !requirePython)("crash harness, Python runner", () => {
  it("loses nothing and duplicates nothing across executor and server SIGKILLs (300 write calls)", {
    timeout: 240_000,
  }, async () => {
    expect(python.status, `${PYTHON} --version: ${python.stderr}`).toBe(0);
    const lines: string[] = [];
    const result = await runCrashHarness({
      calls: 300,
      executors: 2,
      runner: "python",
      dir: tempDir("toolhost-crash-py-"),
      activeRuns: 15,
      killAfterMax: 6,
      // Two kills per main point (round-robin) and one more: restarting a Python process under a loaded
      // CI machine costs seconds, and the kills are what make this test long, not the calls.
      maxExecutorKills: 16,
      serverKills: 2,
      // A bound, not an assertion: 106 s here on 2 cores at load 17; the deadline only ends a hung run.
      timeoutMs: 200_000,
      log: (line: string) => lines.push(line),
    });
    const summary = summaryLines(result).join("\n");
    console.log(summary);
    expect(result.violations, summary).toEqual([]);
    expect(result.counts.calls).toBeGreaterThanOrEqual(300);
    expect(result.counts.duplicateEffects).toBe(0);
    expect(result.counts.lostFinalReceipts).toBe(0);
    expect(result.counts.phantomCompletions).toBe(0);
    expect(result.counts.appliedTwice).toBe(0);
    expect(result.counts.effects).toBe(
      result.counts.effectsCompletedDirectly + result.counts.effectsResolvedByReconciliation,
    );
    expect(result.serverKills).toBe(2);
    expect(result.unexpectedExits, summary).toBe(0);
    // Instances take the kill points round-robin, so the first kills cover every main point.
    expect(result.killPointsHit.length, summary).toBeGreaterThanOrEqual(7);
  });
});
