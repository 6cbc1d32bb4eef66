/**
 * Background work the runner must finish before it stops (call flows, deliveries, recovery steps).
 * A failure inside a tracked task is logged, never left as an unhandled rejection.
 */

import type { RunnerLogger } from "../logger.js";

/** The runner's in-flight tasks. */
export class TaskTracker {
  readonly #tasks = new Set<Promise<void>>();

  constructor(private readonly logger: RunnerLogger) {}

  /** Runs `work` in the background and keeps it until it settles. */
  track(what: string, work: () => Promise<unknown>): void {
    const task = Promise.resolve()
      .then(work)
      .then(
        () => undefined,
        (error: unknown) => this.logger.error(`${what} failed`, { error }),
      )
      .finally(() => this.#tasks.delete(task));
    this.#tasks.add(task);
  }

  /** How many tasks are in flight. */
  get size(): number {
    return this.#tasks.size;
  }

  /** Resolves once every task (including tasks started meanwhile) has settled. */
  async drain(): Promise<void> {
    while (this.#tasks.size > 0) await Promise.allSettled([...this.#tasks]);
  }
}
