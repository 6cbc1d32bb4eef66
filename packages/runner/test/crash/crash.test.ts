// The crash harness, bounded (inside `npm test`): ≥ 50 write calls through real runs, executors
// SIGKILLed at every kill point, the server SIGKILLed and restarted on its SQLite file; at the end no
// call has two side effects, every effect is reported completed or resolved through reconciliation,
// no final receipt was lost and nothing was applied twice. `npm run crash -- --calls 1000` is the record.
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/temp-dir.js";
// @ts-expect-error -- plain ESM module (it also runs under node for `npm run crash`), no declarations.
import { runCrashHarness } from "./harness.mjs";
// @ts-expect-error -- plain ESM module, no declarations.
import { summaryLines } from "./report.mjs";

describe("crash harness", () => {
  it("loses nothing and duplicates nothing across executor and server SIGKILLs (60 write calls)", {
    timeout: 150_000,
  }, async () => {
    const lines: string[] = [];
    const result = await runCrashHarness({
      calls: 60,
      executors: 2,
      dir: tempDir("toolhost-crash-"),
      killAfterMax: 3,
      maxExecutorKills: 24,
      serverKills: 2,
      log: (line: string) => lines.push(line),
    });
    const summary = summaryLines(result).join("\n");
    console.log(summary);
    expect(result.violations, summary).toEqual([]);
    expect(result.counts.calls).toBeGreaterThanOrEqual(60);
    expect(result.counts.duplicateEffects).toBe(0);
    expect(result.counts.lostFinalReceipts).toBe(0);
    expect(result.counts.phantomCompletions).toBe(0);
    expect(result.counts.appliedTwice).toBe(0);
    expect(result.counts.effects).toBe(
      result.counts.effectsCompletedDirectly + result.counts.effectsResolvedByReconciliation,
    );
    expect(result.serverKills).toBe(2);
    // Instances take the kill points round-robin, so the first kills cover every main point.
    expect(result.killPointsHit.length, summary).toBeGreaterThanOrEqual(7);
  });
});
