/** Formatting a crash-harness verdict: a console summary and the Markdown block docs/runner.md keeps. */

import { KILL_POINTS } from "./kill-points.mjs";

/** Start and end markers of the generated block in docs/runner.md. */
export const DOC_MARKERS = ["<!-- crash-harness:begin -->", "<!-- crash-harness:end -->"];

/** The verdict as text lines. */
export function summaryLines(result) {
  const c = result.counts;
  const kills = Object.values(result.executorKills).reduce((a, b) => a + b, 0);
  return [
    `crash harness: ${c.calls} write calls in ${result.runsPlanned} runs, ${result.seconds} s (seed ${result.seed})`,
    `  executor SIGKILLs: ${kills} (${Object.entries(result.executorKills)
      .map(([point, n]) => `${point} ${n}`)
      .join(", ")}); executor starts: ${result.executorStarts}; unexpected exits: ${result.unexpectedExits}`,
    `  server SIGKILLs: ${result.serverKills}`,
    `  call statuses: ${JSON.stringify(result.statuses)}; runs: ${JSON.stringify(result.runs)}`,
    `  side effects: ${c.effects} (reported completed directly ${c.effectsCompletedDirectly}, resolved through reconciliation ${c.effectsResolvedByReconciliation})`,
    `  calls without a side effect: ${c.callsWithoutEffect} (settled through reconciliation ${c.callsWithoutEffectResolvedByReconciliation}); calls that went through reconciliation_required: ${c.reconciliationReceipts}`,
    `  duplicates ${c.duplicateEffects}, lost final receipts ${c.lostFinalReceipts}, completed without effect ${c.phantomCompletions}, applied twice ${c.appliedTwice}, unsettled calls ${c.unsettledCalls}, open journal entries ${c.journalEntriesOpen}, undelivered receipts ${c.journalReceiptsPending}`,
    result.violations.length === 0 ? "  verdict: every invariant held" : `  VIOLATIONS (${result.violations.length}):`,
    ...result.violations.slice(0, 50).map((violation) => `    - ${violation}`),
    ...result.exitsWithoutKill.map((exit) => `  exit without a kill point: ${exit}`),
  ];
}

/** The Markdown block recording a run (kept in docs/runner.md between DOC_MARKERS). */
export function markdownBlock(result, command) {
  const c = result.counts;
  const rows = Object.entries(result.executorKills).map(
    ([point, n]) => `| \`${point}\` | ${KILL_POINTS[point].means} | ${n} |`,
  );
  return [
    DOC_MARKERS[0],
    `Recorded with \`${command}\` (seed ${result.seed}, ${result.seconds} s on this machine):`,
    "",
    "| measure | count |",
    "| --- | ---: |",
    `| write calls (${result.runsPlanned} scripted runs, created over HTTP) | ${c.calls} |`,
    `| executor processes started | ${result.executorStarts} |`,
    `| executor SIGKILLs | ${Object.values(result.executorKills).reduce((a, b) => a + b, 0)} |`,
    `| executor exits not caused by a kill point | ${result.unexpectedExits}${result.exitsWithoutKill.length > 0 ? ` (${result.exitsWithoutKill.join("; ")})` : ""} |`,
    `| server SIGKILLs (restarted on the same SQLite file) | ${result.serverKills} |`,
    `| side effects in the ledger | ${c.effects} |`,
    `| — reported \`completed\` by the handler's receipt | ${c.effectsCompletedDirectly} |`,
    `| — resolved through reconciliation | ${c.effectsResolvedByReconciliation} |`,
    `| calls that never had a side effect (settled \`failed\` through reconciliation) | ${c.callsWithoutEffect} |`,
    `| calls that went through \`reconciliation_required\` | ${c.reconciliationReceipts} |`,
    `| **duplicate side effects** | **${c.duplicateEffects}** |`,
    `| **lost final receipts** (an effect the server has no \`completed\` receipt for) | **${c.lostFinalReceipts}** |`,
    `| **completed calls without a side effect** | **${c.phantomCompletions}** |`,
    `| **calls with more than one terminal receipt** | **${c.appliedTwice}** |`,
    `| calls not final / journal entries open / receipts undelivered at the end | ${c.unsettledCalls} / ${c.journalEntriesOpen} / ${c.journalReceiptsPending} |`,
    "",
    "Executor kills per point:",
    "",
    "| point | the moment | kills |",
    "| --- | --- | ---: |",
    ...rows,
    "",
    `Call statuses at the end: ${Object.entries(result.statuses)
      .map(([status, n]) => `${status} ${n}`)
      .join(", ")}. Violations: ${result.violations.length === 0 ? "none" : result.violations.length}.`,
    DOC_MARKERS[1],
  ].join("\n");
}
