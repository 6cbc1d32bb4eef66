/**
 * The server's Prometheus metrics (prom-client), one registry per app so several apps in one process
 * never share counters. Names follow the Prometheus conventions (snake case, unit suffix, `_total`
 * on counters; docs/operations.md#metrics). Counters and histograms are fed by the flows as things
 * happen on this instance; the gauges (calls by status, pending age, executors online, per binding
 * when asked) are read from the database when `/metrics` is scraped, so every instance on one
 * database reports the same values for them. The process and Node.js families come from
 * prom-client's default metrics.
 */

import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Clock } from "../clock.js";
import type { CallStatsStore } from "../storage/storage.js";
import { bindingGauges } from "./binding-gauges.js";

/** Seconds buckets for latencies from a few milliseconds to a minute. */
const LATENCY_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Receipt kinds counted by name; anything else (a refused body) counts as `invalid`. */
const RECEIPT_KINDS: ReadonlySet<string> = new Set([
  "accepted",
  "progress",
  "completed",
  "failed",
  "cancelled",
  "reconciliation_required",
]);

/** What the metrics are built with. */
export interface ServerMetricsOptions {
  /** Add the per-binding gauges (pending calls, executors online), bounded; default totals only. */
  readonly perBinding: boolean;
}

/** Every metric of one server, on its own registry. */
export class ServerMetrics {
  /** The registry `/metrics` renders. */
  readonly registry = new Registry();
  /** Receipts answered, by kind and outcome (`recorded`, `replayed`, or the error code). */
  readonly receipts: Counter<"kind" | "outcome">;
  /** Receipts answered as a replay of an earlier delivery. */
  readonly replays: Counter;
  /** 409 answers, by error code (claims lost, receipt conflicts, …). */
  readonly conflicts: Counter<"code">;
  /** From a call's creation to the claim that won it. */
  readonly claimLatency: Histogram;
  /** From a notify (calls became claimable) to the long-poll it woke answering. */
  readonly wakeupLatency: Histogram;
  /**
   * Model input tokens: `estimated` before the request, `actual` as the provider reported; by provider
   * and model connection (operator-declared, so bounded), never by model name (tenant text).
   */
  readonly modelTokens: Counter<"provider" | "connection" | "kind">;
  /** Domain events (calls expired, leases lapsed, claims released, reconciliations, compactions). */
  readonly domainEvents: Counter<"event">;
  /** Every answered request, by method, route template and status class. */
  readonly requestDuration: Histogram<"method" | "route" | "status_class">;

  constructor(stats: CallStatsStore, clock: Clock, options: ServerMetricsOptions = { perBinding: false }) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requestDuration = new Histogram({
      name: "http_server_request_duration_seconds",
      help: "Duration of answered HTTP requests, by method, route template and status class (2xx … 5xx).",
      labelNames: ["method", "route", "status_class"],
      buckets: LATENCY_BUCKETS_S,
      registers,
    });
    this.receipts = new Counter({
      name: "toolhost_receipts_total",
      help: "Receipts answered, by kind and outcome (recorded, replayed, or the error code).",
      labelNames: ["kind", "outcome"],
      registers,
    });
    this.replays = new Counter({
      name: "toolhost_receipt_replays_total",
      help: "Receipts answered as a replay of an earlier delivery of the same receipt_id.",
      registers,
    });
    this.conflicts = new Counter({
      name: "toolhost_conflicts_total",
      help: "409 answers, by error code.",
      labelNames: ["code"],
      registers,
    });
    this.claimLatency = new Histogram({
      name: "toolhost_claim_latency_seconds",
      help: "Time from a tool call's creation to the claim that won it.",
      buckets: LATENCY_BUCKETS_S,
      registers,
    });
    this.wakeupLatency = new Histogram({
      name: "toolhost_wakeup_latency_seconds",
      help: "Time from calls becoming claimable on this instance to the long-poll they woke answering.",
      buckets: LATENCY_BUCKETS_S,
      registers,
    });
    this.modelTokens = new Counter({
      name: "toolhost_model_input_tokens_total",
      help: "Model request input tokens by provider and model connection: estimated before sending, actual as the provider reported.",
      labelNames: ["provider", "connection", "kind"],
      registers,
    });
    this.domainEvents = new Counter({
      name: "toolhost_domain_events_total",
      help: "Domain events: call_expired, lease_lapsed, claim_released, reconciliation_required, compaction, run_deleted.",
      labelNames: ["event"],
      registers,
    });
    // The database-wide gauges are read once per scrape, shared by the three gauges.
    let snapshot: ReturnType<CallStatsStore["snapshot"]> | undefined;
    const read = () => {
      snapshot ??= stats.snapshot().finally(() => {
        snapshot = undefined;
      });
      return snapshot;
    };
    new Gauge({
      name: "toolhost_calls",
      help: "Unsettled tool calls in the database, by status (settled ones: toolhost_receipts_total).",
      labelNames: ["status"],
      registers,
      async collect() {
        this.reset();
        for (const [status, count] of Object.entries((await read()).calls_by_status)) this.set({ status }, count);
      },
    });
    new Gauge({
      name: "toolhost_oldest_pending_call_age_seconds",
      help: "Age of the oldest pending tool call (0 when none is pending).",
      registers,
      async collect() {
        const oldest = (await read()).oldest_pending_created_at_ms;
        this.set(oldest === null ? 0 : Math.max(0, clock.nowMs() - oldest) / 1000);
      },
    });
    new Gauge({
      name: "toolhost_executors_online",
      help: "Executors with an online connection.",
      registers,
      async collect() {
        this.set((await read()).executors_online);
      },
    });
    if (options.perBinding) bindingGauges(this.registry, stats);
  }

  /** Counts one receipt answered with `status` (by either receipt route); `sentKind` is the body's `kind`. */
  countReceipt(sentKind: unknown, status: number, replayed: boolean, code: string | undefined): void {
    const kind = typeof sentKind === "string" && RECEIPT_KINDS.has(sentKind) ? sentKind : "invalid";
    if (replayed) this.replays.inc();
    const outcome = status === 200 ? (replayed ? "replayed" : "recorded") : (code ?? `http_${status}`);
    this.receipts.inc({ kind, outcome });
  }

  /** Observes a claim won `waitedMs` after its call was created (by the claim route or `pending?claim=N`). */
  observeClaim(waitedMs: number): void {
    this.claimLatency.observe(Math.max(0, waitedMs) / 1000);
  }

  /** The metrics in Prometheus' text format. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  /** Its content type. */
  get contentType(): string {
    return this.registry.contentType;
  }
}
