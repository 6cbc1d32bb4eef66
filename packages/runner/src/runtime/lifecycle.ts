/** Where the runner is in its life: started, stopping (with the moment it began), and the stop signal. */

/** The runner's lifecycle flags. */
export class Lifecycle {
  readonly #stop = new AbortController();
  started = false;
  #stoppingSinceMs: number | null = null;

  /** Aborted when `stop()` begins: long-polls end and waits are cut short. */
  get stopSignal(): AbortSignal {
    return this.#stop.signal;
  }

  /** True once `stop()` began. */
  get stopping(): boolean {
    return this.#stoppingSinceMs !== null;
  }

  /** When `stop()` began (`performance.now()` ms: monotonic, like every interval of the runner), or null. */
  get stoppingSinceMs(): number | null {
    return this.#stoppingSinceMs;
  }

  /** Marks the stop and aborts the stop signal. */
  beginStop(nowMs: number): void {
    if (this.#stoppingSinceMs !== null) return;
    this.#stoppingSinceMs = nowMs;
    this.#stop.abort();
  }
}
