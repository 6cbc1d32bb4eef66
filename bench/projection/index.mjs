/**
 * bench/projection: how fast the exact byte measure reads a tool result, against the speed ceiling
 * (`JSON.parse` + `JSON.stringify` + `Buffer.byteLength`, not exact) and the seeds' Python reference,
 * and what projecting an already measured result to 16 KiB costs at each result size.
 */

import { sizeLabel } from "../lib/markdown.mjs";
import { collectGarbage, median, quantile, timeAlternating } from "../lib/timing.mjs";
import { generateResult } from "./generate.mjs";
import { runPythonReference } from "./python-reference.mjs";
import { renderReport } from "./report.mjs";

/** The suite's name: its directory and its RESULTS.md section. */
export const name = "projection";

const SIZES = [64 * 2 ** 10, 2 ** 20, 16 * 2 ** 20];
const BUDGET = 16384;
/** (a) and (b) alternate in blocks of about this long, so load from other processes falls on both alike. */
const BLOCK_MS = 100;
/** (a)(b) and (c) take turns this many times per size (each round gets its share of the policy). */
const ROUNDS = 4;

/** Repetition policies per size for the measure cases (a)(b)(c); Python uses the same. */
function measurePolicy(size, quick) {
  if (quick) {
    return size > 2 ** 20
      ? { warmupReps: 1, warmupMs: 0, minReps: 1, minMs: 0, maxReps: 1000 }
      : { warmupReps: 3, warmupMs: 100, minReps: 3, minMs: 100, maxReps: 1000 };
  }
  if (size <= 64 * 2 ** 10) return { warmupReps: 20, warmupMs: 300, minReps: 50, minMs: 1000, maxReps: 100000 };
  if (size <= 2 ** 20) return { warmupReps: 5, warmupMs: 300, minReps: 15, minMs: 1000, maxReps: 100000 };
  return { warmupReps: 2, warmupMs: 0, minReps: 7, minMs: 1000, maxReps: 100000 };
}

/** Repetition policy of the projection case (d): many short calls, for a stable median and p99. */
function projectPolicy(quick) {
  return quick
    ? { warmupReps: 100, warmupMs: 0, minReps: 500, minMs: 0, maxReps: 500 }
    : { warmupReps: 2000, warmupMs: 300, minReps: 20000, minMs: 1000, maxReps: 1000000 };
}

/** One line on how each case was timed, for RESULTS.md. */
function timingNote(quick) {
  const per = SIZES.map((size) => {
    const p = measurePolicy(size, quick);
    return `${sizeLabel(size)} ≥ ${p.minReps} reps and ≥ ${p.minMs} ms after ${p.warmupReps} warm-up reps`;
  });
  const d = projectPolicy(quick);
  return (
    `Timing (per case): ${per.join("; ")}, split over ${quick ? 1 : ROUNDS} rounds in which (a)(b) and then (c) take turns, so that a drift of the machine's speed falls on all three. ` +
    `(a) and (b) alternate in blocks of about ${BLOCK_MS} ms; (c) runs one python3 process per round with its share of the policy; ` +
    `(d) times ≥ ${d.minReps} single calls per size after ${d.warmupReps} warm-up calls, the sizes alternating in blocks of about ${BLOCK_MS} ms. A full GC precedes every warm-up.`
  );
}

/**
 * Runs the suite.
 * @param {{ quick: boolean, machine: import("../lib/machine.mjs").Machine, log: (line: string) => void }} context
 * @returns {Promise<{ markdown: string, failures: string[] }>}
 */
export async function run({ quick, machine, log }) {
  const protocol = await import("../../packages/protocol/dist/index.js");
  const { measureText, parseJson, MeasuredResult, projectResult } = protocol;
  const failures = [];
  const rows = [];
  /** (d) per size, timed together after the loop. */
  const projections = [];
  if (machine.python === null) log("python3 not found: (c) the Python reference is skipped");

  for (const size of SIZES) {
    const label = sizeLabel(size);
    log(`${label}: generating`);
    const { text, bytes, items } = generateResult(size);
    log(`${label}: ${bytes} bytes, ${items} items`);
    const policy = measurePolicy(size, quick);
    const expected = measureText(text);
    const row = { label, bytes, items, measured: expected };
    const report = (what, samples) => {
      const ms = median(samples);
      log(
        `  ${label} ${what}: ${mbPerSecond(bytes, ms).toFixed(1)} MB/s (median ${ms.toFixed(3)} ms, ${samples.length} reps)`,
      );
      return { ms, reps: samples.length, mbps: mbPerSecond(bytes, ms) };
    };

    // (a)(b) and (c) take turns in rounds, so that a drift of the machine's speed (other virtual
    // machines on the host) falls on the JavaScript cases and on Python alike.
    const rounds = quick ? 1 : ROUNDS;
    const roundPolicy = {
      ...policy,
      minReps: Math.ceil(policy.minReps / rounds),
      minMs: policy.minMs / rounds,
      maxReps: Math.ceil(policy.maxReps / rounds),
    };
    const plain = () => Buffer.byteLength(JSON.stringify(JSON.parse(text)));
    const samplesA = [];
    const samplesB = [];
    const samplesC = [];
    for (let round = 1; round <= rounds; round++) {
      log(
        `  ${label} round ${round}/${rounds}: (a) measureText and (b) JSON.parse + JSON.stringify + Buffer.byteLength, alternating …`,
      );
      const progressAB = (reps, ms) => log(`  ${label} (a)/(b): ${reps.join("/")} reps, ${(ms / 1000).toFixed(1)} s`);
      const ab = timeAlternating([() => measureText(text), plain], roundPolicy, BLOCK_MS, progressAB).samples;
      samplesA.push(...ab[0]);
      samplesB.push(...ab[1]);
      collectGarbage();
      if (machine.python === null) continue;
      log(`  ${label} round ${round}/${rounds}: (c) python3 reference …`);
      const python = runPythonReference(text, roundPolicy);
      samplesC.push(...python.samples);
      if (python.bytes !== expected) {
        const message = `MISMATCH at ${label}: python3 measures ${python.bytes} bytes, measureText ${expected}`;
        log(`!!!!!!!! ${message} !!!!!!!!`);
        failures.push(message);
      }
    }
    row.a = report("(a) measureText", samplesA);
    row.b = report("(b) JSON ceiling", samplesB);
    if (samplesC.length > 0) row.c = report("(c) python3", samplesC);

    collectGarbage();
    log(`  ${label} (d) projectResult to ${BUDGET} bytes: checked; timed below with the other sizes`);
    const measured = MeasuredResult.of(parseJson(text));
    if (measured.bytes !== expected) {
      const message = `MISMATCH at ${label}: MeasuredResult.of(parseJson(text)).bytes ${measured.bytes}, measureText ${expected}`;
      log(`!!!!!!!! ${message} !!!!!!!!`);
      failures.push(message);
    }
    const preview = projectResult(measured, BUDGET);
    if (!preview.truncated || preview.retained_bytes > BUDGET) {
      const message = `${label}: projection not cut within the budget (retained ${preview.retained_bytes} bytes)`;
      log(`!!!!!!!! ${message} !!!!!!!!`);
      failures.push(message);
    }
    projections.push(() => projectResult(measured, BUDGET).retained_bytes);
    rows.push(row);
  }

  // (d) is timed for every size in alternating blocks, so that the machine's noise and the JIT's state
  // fall on all sizes alike: the question is whether the cost depends on the result's size.
  log(`(d) projectResult to ${BUDGET} bytes, all sizes alternating …`);
  const progressD = (reps, ms) => log(`  (d): ${reps.join("/")} reps, ${(ms / 1000).toFixed(1)} s`);
  const timedD = timeAlternating(projections, projectPolicy(quick), BLOCK_MS, progressD).samples;
  rows.forEach((row, i) => {
    const d = timedD[i] ?? [];
    row.d = { medianUs: median(d) * 1000, p99Us: quantile(d, 0.99) * 1000, reps: d.length };
    log(
      `  ${row.label} (d) projectResult: median ${row.d.medianUs.toFixed(1)} µs, p99 ${row.d.p99Us.toFixed(1)} µs (${d.length} reps)`,
    );
  });

  const { markdown, summary, unmet } = renderReport({
    rows,
    machine,
    quick,
    budget: BUDGET,
    failures,
    timing: timingNote(quick),
  });
  log("");
  for (const line of summary.split("\n")) log(line);
  if (unmet.length > 0) log(`targets not met: ${unmet.length} (see the table; the run still succeeds)`);
  return { markdown, failures };
}

/** Megabytes (10^6 bytes of input text) per second for `bytes` read in `ms` milliseconds. */
function mbPerSecond(bytes, ms) {
  return bytes / 1e6 / (ms / 1000);
}
