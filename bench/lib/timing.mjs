/**
 * Repetition and timing for the benchmarks: warm up, then repeat a case until both a minimum time
 * and a minimum number of repetitions are reached, timing each repetition with `performance.now()`.
 * The Python reference (bench/projection/python-reference.py) follows the same policy.
 *
 * A forced full collection (`gc()`) can throw away V8's optimised code of the protocol's reader
 * classes ("deoptimizing … reason: weak objects"), which natural collections do not, so a full
 * collection only ever comes before a warm-up, never between a warm-up and the timed repetitions.
 */

/**
 * @typedef {object} RepPolicy
 * @property {number} warmupReps  repetitions run (untimed) before measuring
 * @property {number} warmupMs    and at least this long
 * @property {number} minReps     measure at least this many repetitions
 * @property {number} minMs       and for at least this long
 * @property {number} maxReps     never more than this many
 */

/** True when node was started with --expose-gc, so cases can start from a collected heap. */
export const gcExposed = typeof globalThis.gc === "function";

/** A full collection (when exposed), so one case's garbage is not billed to the next; warm up after it. */
export function collectGarbage() {
  if (gcExposed) globalThis.gc();
}

/** A young-generation collection (when exposed): cheap, and leaves optimised code alone. */
function collectYoungGarbage() {
  if (gcExposed) globalThis.gc({ type: "minor" });
}

function warmUp(fn, policy) {
  let sink = 0;
  const start = performance.now();
  for (let i = 0; i < policy.warmupReps || performance.now() - start < policy.warmupMs; i++) sink += fn();
  return sink;
}

/**
 * Times `fn` under `policy` after a full collection and a warm-up; `fn` returns a number that is
 * summed into a sink, so its work cannot be optimised away. `onProgress(reps, elapsedMs)` is called
 * about every two seconds of measuring.
 * @param {() => number} fn
 * @param {RepPolicy} policy
 * @param {(reps: number, elapsedMs: number) => void} [onProgress]
 * @returns {{ samples: number[], sink: number }} per-repetition times in milliseconds
 */
export function timeRepeated(fn, policy, onProgress) {
  collectGarbage();
  let sink = warmUp(fn, policy);
  const samples = [];
  const start = performance.now();
  let lastReport = start;
  for (;;) {
    const t0 = performance.now();
    sink += fn();
    const t1 = performance.now();
    samples.push(t1 - t0);
    if (samples.length >= policy.maxReps) break;
    if (samples.length >= policy.minReps && t1 - start >= policy.minMs) break;
    if (onProgress && t1 - lastReport >= 2000) {
      lastReport = t1;
      onProgress(samples.length, t1 - start);
    }
  }
  return { samples, sink };
}

/**
 * Times several cases in alternating blocks of about `blockMs` (at least one repetition each), so
 * that load from other processes falls on every case alike. A young-generation collection between
 * blocks keeps most of one case's garbage out of the next block. Each case gets `policy` on its own:
 * its warm-up, then at least `minReps` repetitions and `minMs` of measured time (or `maxReps`).
 * @param {(() => number)[]} fns
 * @param {RepPolicy} policy
 * @param {number} blockMs
 * @param {(reps: number[], elapsedMs: number) => void} [onProgress]
 * @returns {{ samples: number[][], sink: number }} per-repetition times in milliseconds, per case
 */
export function timeAlternating(fns, policy, blockMs, onProgress) {
  collectGarbage();
  let sink = 0;
  for (const fn of fns) sink += warmUp(fn, policy);
  const samples = fns.map(() => []);
  const measured = fns.map(() => 0);
  const done = (i) =>
    samples[i].length >= policy.maxReps || (samples[i].length >= policy.minReps && measured[i] >= policy.minMs);
  const start = performance.now();
  let lastReport = start;
  while (!fns.every((_, i) => done(i))) {
    for (let i = 0; i < fns.length; i++) {
      if (done(i)) continue;
      collectYoungGarbage();
      const blockStart = performance.now();
      do {
        const t0 = performance.now();
        sink += fns[i]();
        const elapsed = performance.now() - t0;
        samples[i].push(elapsed);
        measured[i] += elapsed;
      } while (performance.now() - blockStart < blockMs && !done(i));
    }
    const now = performance.now();
    if (onProgress && now - lastReport >= 2000) {
      lastReport = now;
      onProgress(
        samples.map((s) => s.length),
        now - start,
      );
    }
  }
  return { samples, sink };
}

/** The q-quantile (0..1) of `samples` by nearest rank. */
export function quantile(samples, q) {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

/** The median of `samples` (mean of the two middle ones for an even count). */
export function median(samples) {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
