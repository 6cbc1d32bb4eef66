/**
 * Bounded concurrency per tool: a slot is taken when a call is claimed and given back once its
 * outcome is journaled, so a slow tool never starves the others and never runs more handlers than
 * allowed. Waiters are woken when any slot is given back.
 */

/** A taken slot; `release` is idempotent. */
export interface ToolSlot {
  readonly tool: string;
  release(): void;
}

/** Slot counts per tool. */
export class ToolSlots {
  readonly #used = new Map<string, number>();
  #waiters: Array<() => void> = [];

  /** Takes a slot of `tool` when fewer than `limit` are taken; undefined otherwise. */
  tryAcquire(tool: string, limit: number): ToolSlot | undefined {
    const used = this.#used.get(tool) ?? 0;
    if (used >= limit) return undefined;
    this.#used.set(tool, used + 1);
    let released = false;
    return {
      tool,
      release: () => {
        if (released) return;
        released = true;
        this.#used.set(tool, (this.#used.get(tool) ?? 1) - 1);
        const waiters = this.#waiters;
        this.#waiters = [];
        for (const wake of waiters) wake();
      },
    };
  }

  /** Takes a slot of `tool`, waiting for one; undefined when `signal` aborts first. */
  async acquire(tool: string, limit: number, signal: AbortSignal): Promise<ToolSlot | undefined> {
    for (;;) {
      const slot = this.tryAcquire(tool, limit);
      if (slot !== undefined || signal.aborted) return slot;
      await this.released(60_000, signal);
    }
  }

  /** Resolves when any slot is given back, after `maxMs`, or when `signal` aborts. */
  released(maxMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, maxMs);
      signal?.addEventListener("abort", done, { once: true });
      this.#waiters.push(done);
    });
  }

  /** Slots taken now, per tool (tools with none omitted). */
  inUse(): Record<string, number> {
    return Object.fromEntries([...this.#used].filter(([, used]) => used > 0));
  }
}
