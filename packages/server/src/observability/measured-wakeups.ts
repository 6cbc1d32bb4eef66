/**
 * Wake-ups that time themselves: the latency from a `notify` on this instance to the long-poll it
 * woke answering `true` (`toolhost_wakeup_latency_seconds`). A wake-up relayed from another instance
 * has no local notify time and is not measured.
 */

import type { CallWakeups } from "../executors/call-wakeups.js";
import type { ServerMetrics } from "./server-metrics.js";

/** `inner`, measured. */
export class MeasuredCallWakeups implements CallWakeups {
  private readonly notifiedAt = new Map<string, number>();

  constructor(
    private readonly inner: CallWakeups,
    private readonly metrics: ServerMetrics,
  ) {}

  notify(bindingIds: Iterable<string>): void {
    const ids = [...bindingIds];
    const now = performance.now();
    for (const id of ids) this.notifiedAt.set(id, now);
    this.inner.notify(ids);
  }

  async wait(bindingIds: readonly string[], timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    const woken = await this.inner.wait(bindingIds, timeoutMs, signal);
    if (woken) {
      let latest: number | undefined;
      for (const id of bindingIds) {
        const at = this.notifiedAt.get(id);
        if (at !== undefined && (latest === undefined || at > latest)) latest = at;
      }
      if (latest !== undefined) this.metrics.wakeupLatency.observe((performance.now() - latest) / 1000);
    }
    return woken;
  }

  close(): Promise<void> {
    this.notifiedAt.clear();
    return this.inner.close();
  }
}
