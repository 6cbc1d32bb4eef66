/**
 * Progress of the demo's steps on a terminal: each step's label while it runs (on a TTY), then a
 * line with a tick (or a cross) and how long it took, so a newcomer sees what happens and how fast.
 */

import type { Writable } from "node:stream";

/** One step's outcome line. */
export function stepLine(ok: boolean, label: string, elapsedMs: number): string {
  const time = elapsedMs < 1000 ? `${Math.round(elapsedMs)} ms` : `${(elapsedMs / 1000).toFixed(1)} s`;
  return `  ${ok ? "✓" : "✗"} ${label}  (${time})\n`;
}

/** Reports steps on `out`; `now` is the clock in milliseconds (injectable for tests). */
export class StepProgress {
  private readonly tty: boolean;

  constructor(
    private readonly out: Writable,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tty = (out as { isTTY?: boolean }).isTTY === true;
  }

  /** Writes one plain line. */
  line(text: string): void {
    this.out.write(`${text}\n`);
  }

  /**
   * Runs one step: shows `label` while it runs (TTY only), then its outcome line with `done(result)`
   * as the final label. A step that throws is reported with a cross, and the error goes on.
   */
  async step<T>(label: string, work: () => Promise<T>, done: (result: T) => string = () => label): Promise<T> {
    const started = this.now();
    if (this.tty) this.out.write(`  … ${label}`);
    const clear = this.tty ? "\r\x1b[2K" : "";
    try {
      const result = await work();
      this.out.write(clear + stepLine(true, done(result), this.now() - started));
      return result;
    } catch (error) {
      this.out.write(clear + stepLine(false, label, this.now() - started));
      throw error;
    }
  }
}
