/**
 * Wake-ups for long-polling executors: when calls become claimable for a binding (created, or
 * returned to pending), the flow that committed them calls `notify` AFTER its commit; a pending
 * request waiting on one of those bindings answers at once instead of at the end of its `wait_ms`.
 */

/** Notifies and waits for "calls became claimable" per binding. */
export interface CallWakeups {
  /** Calls became claimable for these bindings; call only after the commit that made them so. */
  notify(bindingIds: Iterable<string>): void;
  /**
   * Resolves `true` when one of `bindingIds` is notified, `false` after `timeoutMs` or when `signal`
   * aborts (e.g. the client went away).
   */
  wait(bindingIds: readonly string[], timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  /** Stops every wait (answers `false`) and any background listener. */
  close(): Promise<void>;
}

/** In-process wake-ups: one server process (several processes on PostgreSQL add a NOTIFY relay). */
export class InProcessCallWakeups implements CallWakeups {
  private readonly waiters = new Map<string, Set<() => void>>();
  private closed = false;

  notify(bindingIds: Iterable<string>): void {
    for (const bindingId of bindingIds) {
      const waiting = this.waiters.get(bindingId);
      if (waiting === undefined) continue;
      for (const wake of [...waiting]) wake();
    }
  }

  wait(bindingIds: readonly string[], timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.closed || timeoutMs <= 0 || signal?.aborted === true) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (woken: boolean): void => {
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        for (const bindingId of bindingIds) {
          const waiting = this.waiters.get(bindingId);
          waiting?.delete(wakeUp);
          if (waiting?.size === 0) this.waiters.delete(bindingId);
        }
        this.stops.delete(stop);
        resolve(woken);
      };
      const wakeUp = (): void => finish(true);
      const onAbort = (): void => finish(false);
      const stop = (): void => finish(false);
      for (const bindingId of bindingIds) {
        let waiting = this.waiters.get(bindingId);
        if (waiting === undefined) {
          waiting = new Set();
          this.waiters.set(bindingId, waiting);
        }
        waiting.add(wakeUp);
      }
      this.stops.add(stop);
      signal?.addEventListener("abort", onAbort, { once: true });
      timer = setTimeout(() => finish(false), timeoutMs);
    });
  }

  private readonly stops = new Set<() => void>();

  /** Wakes every waiter (they query again): after a relay outage, when notifications may have been missed. */
  wakeAll(): void {
    this.notify([...this.waiters.keys()]);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const stop of [...this.stops]) stop();
  }
}
