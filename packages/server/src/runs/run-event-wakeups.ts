/**
 * How a run's event streams learn that the run has new events: the commit that wrote them notifies
 * the run's ID, and whoever watches that run is woken (`run-event-tail.ts` reads once for all of
 * them). Nothing polls: a stream on an idle run runs no query. In one process (SQLite) a notification
 * reaches this process's watchers; several instances on PostgreSQL relay it through NOTIFY/LISTEN
 * (`postgres-run-event-wakeups.ts`).
 */

/** Wake-ups of a run's event readers. */
export interface RunEventWakeups {
  /** Announces that `runIds` have new committed events (call after the commit). */
  notify(runIds: readonly string[]): void;
  /** Calls `wake` whenever `runId` may have new events; answers how to stop. */
  watch(runId: string, wake: () => void): () => void;
  /** Stops relaying; watchers are no longer woken. */
  close(): Promise<void>;
}

/** The wake-ups of one process. */
export class InProcessRunEventWakeups implements RunEventWakeups {
  readonly #watchers = new Map<string, Set<() => void>>();

  notify(runIds: readonly string[]): void {
    for (const runId of runIds) {
      const watchers = this.#watchers.get(runId);
      if (watchers === undefined) continue;
      for (const wake of [...watchers]) wake();
    }
  }

  /** Wakes every watcher (notifications may have been lost). */
  wakeAll(): void {
    for (const watchers of this.#watchers.values()) for (const wake of [...watchers]) wake();
  }

  watch(runId: string, wake: () => void): () => void {
    let watchers = this.#watchers.get(runId);
    if (watchers === undefined) {
      watchers = new Set();
      this.#watchers.set(runId, watchers);
    }
    watchers.add(wake);
    return () => {
      const current = this.#watchers.get(runId);
      if (current === undefined) return;
      current.delete(wake);
      if (current.size === 0) this.#watchers.delete(runId);
    };
  }

  /** Runs watched now (for tests and diagnostics). */
  get watchedRuns(): number {
    return this.#watchers.size;
  }

  async close(): Promise<void> {
    this.#watchers.clear();
  }
}
