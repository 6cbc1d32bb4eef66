/**
 * The call wake-up each executor's last pending answer used (docs/executors.md, "Wake-ups"), so that a
 * claim of ANOTHER call hands it on: A is woken for X and B for Y, B is answered [X, Y] and wins X,
 * A loses it. Y's wake-up went to B, which took X instead, so B's claim gives Y's wake-up to the next
 * waiter; A's lost race wakes nobody (X is taken). Wake-ups are thus neither lost nor multiplied by
 * races. Bounded: one entry per executor, at most `WOKEN_CALLS_MAX` (the oldest is dropped), each kept
 * for `WOKEN_CALL_TTL_MS`; a forgotten entry only delays its call to someone's next poll.
 */

import type { CallWakeup } from "./wakeup.js";

/** Most executors whose last wake-up is remembered. */
export const WOKEN_CALLS_MAX = 10_000;

/** How long a remembered wake-up waits for its executor's claim. */
export const WOKEN_CALL_TTL_MS = 30_000;

interface Remembered {
  readonly wakeup: CallWakeup;
  readonly atMs: number;
}

/** The remembered wake-ups, by executor; times on the monotonic clock. */
export class WokenCalls {
  readonly #byExecutor = new Map<string, Remembered>();

  /** Remembers that `executorId`'s pending answer used `wakeup` (undefined forgets the previous one). */
  answered(executorId: string, wakeup: CallWakeup | undefined, nowMs: number): void {
    this.#byExecutor.delete(executorId);
    if (wakeup === undefined) return;
    this.#byExecutor.set(executorId, { wakeup, atMs: nowMs });
    if (this.#byExecutor.size > WOKEN_CALLS_MAX) {
      const oldest = this.#byExecutor.keys().next().value;
      if (oldest !== undefined) this.#byExecutor.delete(oldest);
    }
  }

  /**
   * After `executorId` won its claim of `callId`: answers the remembered wake-up to hand on when it
   * was for another call, or undefined; either way the memory ends. Only won claims are told (they
   * passed the executor's ownership checks), so another key cannot make an executor forget; a lost
   * race keeps the memory (the executor may claim its woken call next) until its next answer or TTL.
   */
  claimed(executorId: string, callId: string, nowMs: number): CallWakeup | undefined {
    const remembered = this.#byExecutor.get(executorId);
    if (remembered === undefined) return undefined;
    if (nowMs - remembered.atMs > WOKEN_CALL_TTL_MS) {
      this.#byExecutor.delete(executorId);
      return undefined;
    }
    this.#byExecutor.delete(executorId);
    return remembered.wakeup.call_id === callId ? undefined : remembered.wakeup;
  }

  /** How many executors have a remembered wake-up. */
  get size(): number {
    return this.#byExecutor.size;
  }
}
