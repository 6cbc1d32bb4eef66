/**
 * Wake-ups that time themselves: the latency from a `notify` on this instance to the long-poll it
 * woke ending its wait (`toolhost_wakeup_latency_seconds`). A wake-up relayed from another instance
 * has no local notify time and is not measured.
 */

import type { ServerMetrics } from "../observability/server-metrics.js";
import type { CallWakeups, WaitFor, Woken } from "./call-wakeups.js";
import type { Wakeup } from "./wakeup.js";

/** `inner`, measured. */
export class MeasuredCallWakeups implements CallWakeups {
  /** When each wake-up was notified here (the object itself reaches the waiter in process). */
  private notifiedAt = new WeakMap<Wakeup, number>();

  constructor(
    private readonly inner: CallWakeups,
    private readonly metrics: ServerMetrics,
  ) {}

  notify(wakeups: Iterable<Wakeup>): void {
    const list = [...wakeups];
    const now = performance.now();
    for (const wakeup of list) this.notifiedAt.set(wakeup, now);
    this.inner.notify(list);
  }

  async wait(waitFor: WaitFor, timeoutMs: number, signal?: AbortSignal): Promise<Woken | undefined> {
    const woken = await this.inner.wait(waitFor, timeoutMs, signal);
    const at = woken === undefined || woken === "everyone" ? undefined : this.notifiedAt.get(woken);
    if (at !== undefined) this.metrics.wakeupLatency.observe((performance.now() - at) / 1000);
    return woken;
  }

  close(): Promise<void> {
    this.notifiedAt = new WeakMap();
    return this.inner.close();
  }
}
