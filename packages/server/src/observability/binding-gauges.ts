/**
 * The opt-in per-binding gauges (`metricsPerBinding`): pending calls and online executors by
 * `binding`. Bindings are created through the API, so their number is not the operator's to bound:
 * at most `BINDING_SERIES_MAX` bindings get their own series — those with the most pending calls, then
 * the most executors online, then by ID — and the rest are summed under `binding="_other"`. Read from
 * the database once per scrape, like the totals.
 */

import { Gauge, type Registry } from "prom-client";
import type { BindingLoadSnapshot, CallStatsStore } from "../storage/storage.js";

/** Most bindings with a series of their own per gauge; the rest are summed under `_other`. */
export const BINDING_SERIES_MAX = 100;

/** The label value the bindings past `BINDING_SERIES_MAX` are summed under (no binding ID starts with `_`). */
export const OTHER_BINDINGS = "_other";

/** The values of both gauges, at most `max` bindings each plus `_other` (pure). */
export function boundedBindingLoad(
  load: BindingLoadSnapshot,
  max: number,
): { pending: Map<string, number>; online: Map<string, number> } {
  const ids = new Set([...Object.keys(load.pending_by_binding), ...Object.keys(load.executors_online_by_binding)]);
  const pendingOf = (id: string) => load.pending_by_binding[id] ?? 0;
  const onlineOf = (id: string) => load.executors_online_by_binding[id] ?? 0;
  const ranked = [...ids].sort(
    (a, b) => pendingOf(b) - pendingOf(a) || onlineOf(b) - onlineOf(a) || (a < b ? -1 : a > b ? 1 : 0),
  );
  const pending = new Map<string, number>();
  const online = new Map<string, number>();
  for (const [index, id] of ranked.entries()) {
    const label = index < max ? id : OTHER_BINDINGS;
    pending.set(label, (pending.get(label) ?? 0) + pendingOf(id));
    online.set(label, (online.get(label) ?? 0) + onlineOf(id));
  }
  return { pending, online };
}

/** Registers both per-binding gauges on `registry`. */
export function bindingGauges(registry: Registry, stats: CallStatsStore): void {
  let snapshot: Promise<ReturnType<typeof boundedBindingLoad>> | undefined;
  const read = () => {
    snapshot ??= stats
      .bindingLoad()
      .then((load) => boundedBindingLoad(load, BINDING_SERIES_MAX))
      .finally(() => {
        snapshot = undefined;
      });
    return snapshot;
  };
  new Gauge({
    name: "toolhost_binding_pending_calls",
    help: `Pending tool calls by binding (the ${BINDING_SERIES_MAX} busiest; the rest summed as ${OTHER_BINDINGS}).`,
    labelNames: ["binding"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const [binding, count] of (await read()).pending) this.set({ binding }, count);
    },
  });
  new Gauge({
    name: "toolhost_binding_executors_online",
    help: `Online executors serving each binding (the ${BINDING_SERIES_MAX} busiest; the rest summed as ${OTHER_BINDINGS}).`,
    labelNames: ["binding"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const [binding, count] of (await read()).online) this.set({ binding }, count);
    },
  });
}
