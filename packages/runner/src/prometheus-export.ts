/**
 * The runner's `stats()` as Prometheus metrics on a registry the product passes in (the
 * `metricsRegistry` option; see docs/runner.md#metrics-events-and-logs). The runner does not load
 * prom-client: it hands the registry metric objects of the shape prom-client's `Registry` reads
 * (`name`, `help`, `type`, `get()`), so products without Prometheus carry nothing. Every series is
 * labelled `executor_id`, so several runners of one process share one registry and one family per
 * metric; values are read from `stats()` at each scrape.
 */

import { RUNNER_COUNTERS, type RunnerCounter, type RunnerStats } from "./stats.js";

/** What the runner needs of a prom-client `Registry` (any version with `registerMetric`). */
export interface PrometheusRegistry {
  /** Adds a metric; prom-client throws when the name is already taken by another metric. */
  registerMetric(metric: never): void;
}

/** One sample of a metric. */
interface Sample {
  readonly value: number;
  readonly labels: Readonly<Record<string, string>>;
}

/** A metric as prom-client's registry reads it. */
interface CollectedMetric {
  readonly name: string;
  readonly help: string;
  readonly type: "counter" | "gauge";
  readonly aggregator: "sum";
  get(): Promise<{ name: string; help: string; type: string; aggregator: "sum"; values: Sample[] }>;
  reset(): void;
}

/** A runner whose stats a registry reports. */
interface Source {
  readonly executorId: string;
  readonly stats: () => RunnerStats;
}

/** The metric names: `toolhost_runner_<counter>_total` per counter, and the gauges. */
export const RUNNER_GAUGES = {
  toolhost_runner_handlers_in_flight: "Handlers running now, by tool.",
  toolhost_runner_journal_calls: "Calls in the runner's journal, by state.",
  toolhost_runner_journal_undelivered_receipts: "Journaled receipts not yet acknowledged by the server.",
  toolhost_runner_connected: "1 while the runner holds a connection, else 0.",
} as const;

const sourcesByRegistry = new WeakMap<PrometheusRegistry, Source[]>();

/** The samples of one metric over every runner of a registry. */
function samplesOf(name: string, source: Source): Sample[] {
  const executor_id = source.executorId;
  const stats = source.stats();
  switch (name) {
    case "toolhost_runner_handlers_in_flight":
      return Object.entries(stats.inFlight).map(([tool, value]) => ({ value, labels: { executor_id, tool } }));
    case "toolhost_runner_journal_calls":
      return Object.entries(stats.journal ?? {})
        .filter(([state]) => state !== "outboxPending")
        .map(([state, value]) => ({ value, labels: { executor_id, state } }));
    case "toolhost_runner_journal_undelivered_receipts":
      return stats.journal === null ? [] : [{ value: stats.journal.outboxPending, labels: { executor_id } }];
    case "toolhost_runner_connected":
      return [{ value: stats.connection === null ? 0 : 1, labels: { executor_id } }];
    default: {
      const counter = name.slice("toolhost_runner_".length, -"_total".length) as RunnerCounter;
      return [{ value: stats.counters[counter], labels: { executor_id } }];
    }
  }
}

function metric(registry: PrometheusRegistry, name: string, help: string, type: "counter" | "gauge"): CollectedMetric {
  return {
    name,
    help,
    type,
    aggregator: "sum",
    async get() {
      const values = (sourcesByRegistry.get(registry) ?? []).flatMap((source) => samplesOf(name, source));
      return { name, help, type, aggregator: "sum", values };
    },
    reset() {
      // Values are read from the runners at each scrape: nothing to reset.
    },
  };
}

/** Reports `stats` of executor `executorId` on `registry` from now on (the families are added once per registry). */
export function exportRunnerMetrics(registry: PrometheusRegistry, executorId: string, stats: () => RunnerStats): void {
  const known = sourcesByRegistry.get(registry);
  if (known !== undefined) {
    if (!known.some((source) => source.executorId === executorId)) known.push({ executorId, stats });
    return;
  }
  sourcesByRegistry.set(registry, [{ executorId, stats }]);
  const metrics = [
    ...Object.entries(RUNNER_COUNTERS).map(([counter, help]) =>
      metric(registry, `toolhost_runner_${counter}_total`, `Runner: ${help}.`, "counter"),
    ),
    ...Object.entries(RUNNER_GAUGES).map(([name, help]) => metric(registry, name, `Runner: ${help}`, "gauge")),
  ];
  // The registry reads these as it reads its own metrics (prom-client's Registry duck-types them).
  for (const each of metrics) registry.registerMetric(each as never);
}
