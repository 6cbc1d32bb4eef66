/**
 * bench/scale case `history-reads`: what the database answers per model turn as a run grows. One run
 * of the scripted model with a call per turn (each result 1 KB of JSON); for each turn the executor
 * claims the call and sends `accepted`, `progress` and `completed`, and the completed receipt settles
 * it and takes the next turn in the same request. The storage's statement counter gives the rows and
 * the text (characters of string values) the database answered during that request, at turns 10, 100
 * and 500 (10 and 100 with --quick). Target: turn 500 within 2× of turn 10, i.e. a turn reads what was
 * appended since the last one, not the whole history (docs/storage.md#history-reads).
 *
 *   node bench/scale/cases/history-reads.mjs [--quick]
 */

import { markdownTable } from "../../lib/markdown.mjs";
import {
  buildScriptedWorld,
  completeCall,
  freshDatabase,
  pendingCall,
  startBenchServer,
  startRun,
} from "../scripted-runs.mjs";

const RESULT = { text: "h".repeat(1_013) };

/** One dialect: the reads of the request that settles turn `t`'s call, for every `t` in `marks`. */
async function measure(dialect, marks, log) {
  const database = await freshDatabase(dialect, log);
  if (database === undefined) return undefined;
  const last = marks[marks.length - 1];
  // No background ticks: only the requests read.
  const bench = await startBenchServer(database, {
    sweepIntervalMs: 60_000,
    modelPollIntervalMs: 60_000,
    leaseTtlMs: 86_400_000,
    heartbeatIntervalMs: 60_000,
    // One run of `last` turns and calls: above the default run limits (100 turns, 500 calls).
    maxTurns: last + 10,
    maxToolCalls: last + 10,
  });
  try {
    const script = [
      ...Array.from({ length: last + 1 }, (_, index) => ({
        tool_calls: [{ name: "tasks.write", arguments: { title: `task ${index}` } }],
      })),
      { message: "done" },
    ];
    const world = await buildScriptedWorld(bench.admin, script, 2048);
    const runId = await startRun(bench.admin, world);
    const storage = bench.server.storage;
    const reads = new Map();
    for (let turn = 1; turn <= last; turn++) {
      let before;
      await completeCall(bench.admin, world, runId, await pendingCall(bench.admin, runId), RESULT, () => {
        before = storage.stats();
      });
      const after = storage.stats();
      if (marks.includes(turn)) {
        reads.set(turn, {
          rows: after.rowsRead - before.rowsRead,
          characters: after.charactersRead - before.charactersRead,
          statements: after.statements - before.statements,
        });
        log(`${dialect} turn ${turn}: ${JSON.stringify(reads.get(turn))}`);
      }
    }
    return reads;
  } finally {
    await bench.server.close();
    await database.dispose();
  }
}

/** Runs the case. @param {{ quick: boolean, log: (line: string) => void }} context */
export async function run({ quick, log }) {
  const marks = quick ? [10, 100] : [10, 100, 500];
  const rows = [];
  const failures = [];
  for (const dialect of ["sqlite", "postgres"]) {
    const reads = await measure(dialect, marks, log);
    if (reads === undefined) continue;
    const first = reads.get(marks[0]);
    const lastMark = marks[marks.length - 1];
    const last = reads.get(lastMark);
    const ratio = last.characters / first.characters;
    if (ratio > 2)
      failures.push(`history-reads ${dialect}: turn ${lastMark} reads ${ratio.toFixed(2)}× turn ${marks[0]}`);
    for (const mark of marks) {
      const r = reads.get(mark);
      rows.push([dialect, mark, r.statements, r.rows, `${(r.characters / 1024).toFixed(1)} KB`]);
    }
    rows.push([
      dialect,
      `turn ${lastMark} / turn ${marks[0]}`,
      "",
      (last.rows / first.rows).toFixed(2),
      `${ratio.toFixed(2)}×`,
    ]);
  }
  const markdown = [
    "### Database reads per model turn (one run, one 1 KB result per turn)",
    "",
    markdownTable(["dialect", "turn", "statements", "rows read", "text read"], rows),
    "",
    "Per completed receipt, which settles the turn's call and takes the scripted model's next turn; text read is the characters of string values the database answered. Target: the last turn within 2× of turn 10.",
  ].join("\n");
  return { markdown, failures };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outcome = await run({ quick: process.argv.includes("--quick"), log: (line) => console.error(line) });
  console.log(outcome.markdown);
  if (outcome.failures.length > 0) console.log(`\nmissed: ${outcome.failures.join("; ")}`);
  process.exit(0);
}
