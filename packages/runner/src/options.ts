/**
 * ToolRunner options: what a product sets (units in the names), and their compiled form with every
 * default filled in and every value checked. Invalid options throw a RunnerError naming the option,
 * before anything opens.
 */

import { RunnerError } from "./errors.js";
import {
  fromPino,
  isPinoLike,
  jsonLinesLogger,
  type PinoLikeLogger,
  RUNNER_LOG_LEVELS,
  type RunnerLogger,
  type RunnerLogLevel,
  redactingLogger,
} from "./logger.js";
import type { PrometheusRegistry } from "./prometheus-export.js";
import type { ToolCall } from "./tool-call.js";

/** What `new ToolRunner(options)` takes. */
export interface ToolRunnerOptions {
  /** The server's base URL, such as `http://127.0.0.1:8080` (the runner adds `/v1/…`). */
  baseUrl: string;
  /** An API key with `executors:connect` and `tools:execute`. Never logged. */
  apiKey: string;
  /** The executor's stable ID: keep it across restarts (accepted calls and receipts belong to it). */
  executorId: string;
  /** The executor bindings this process serves. */
  bindingIds: readonly string[];
  /** The journal's SQLite file; processes sharing it can finish each other's deferred calls. */
  journalPath: string;
  /** Most handlers of one tool running at once (default 4; `register` can set it per tool). */
  maxConcurrencyPerTool?: number;
  /** How long one pending long-poll waits for a call (default 20,000; at most 30,000). */
  pollWaitMs?: number;
  /** Most candidates asked for per poll (default 50). */
  pollPageSize?: number;
  /** First retry delay of a failed request (default 100); doubles per attempt, with jitter. */
  retryBackoffMinMs?: number;
  /** Longest retry delay (default 10,000). */
  retryBackoffMaxMs?: number;
  /** Time limit of one HTTP request other than the long-poll (default 15,000). */
  requestTimeoutMs?: number;
  /** How often the outbox is swept for receipts other processes journaled (default 1,000). */
  outboxSweepIntervalMs?: number;
  /** How often unresolved reconciliations are tried again (default 5,000). */
  reconcileIntervalMs?: number;
  /** How long finished calls stay in the journal (default 7 days); older ones are pruned at start. */
  journalRetentionMs?: number;
  /** How long `stop()` keeps retrying undelivered receipts before leaving them for the next start (default 5,000). */
  stopDeliveryTimeoutMs?: number;
  /**
   * How long the server may keep refusing the runner's key or executor (401, 403, 404 of the executor)
   * before the runner fails with `access_refused` (default 60,000). Meanwhile it backs off and warns once.
   */
  refusalGraceMs?: number;
  /** The agents whose calls this executor accepts (default: every agent the key reaches). */
  agentIds?: readonly string[];
  /** The operation key of a call (default `${run_id}:${call_id}`); must be stable for a call. */
  operationKey?: (call: ToolCall) => string;
  /**
   * Use the batched routes when the server offers them (default true): claims come with the pending
   * answer and receipts are sent many to a request. False keeps to the per-call routes.
   */
  batching?: boolean;
  /**
   * Where logs go: a RunnerLogger (`info(message, fields)`), a pino-compatible logger as is
   * (`info(fields, message)`, detected by its `child` and `levels`), or a level for the default
   * JSON-lines logger on stderr (default `info`).
   */
  logger?: RunnerLogger | PinoLikeLogger | RunnerLogLevel;
  /**
   * How long `start()` keeps trying to reach the server before it fails with `connect_timeout`
   * (default: no limit, it retries until `stop()`). A refusal still fails at once (`connect_refused`).
   */
  connectTimeoutMs?: number;
  /**
   * Exit the process (code FENCED_EXIT_CODE) once the runner is fenced — another process connected
   * with the same executor ID — and has stopped (default false: the runner fails and `done()` rejects).
   */
  exitWhenFenced?: boolean;
  /**
   * A prom-client `Registry` to report `stats()` on (`toolhost_runner_*` families, labelled
   * `executor_id`); default none. prom-client stays the product's: the runner does not load it.
   */
  metricsRegistry?: PrometheusRegistry;
  /** The fetch used for every request (default the global fetch); tests inject failures here. */
  fetch?: typeof fetch;
  /** Random numbers in [0, 1) for retry jitter (default Math.random). */
  random?: () => number;
}

/** Options with every default applied. */
export interface CompiledRunnerOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly executorId: string;
  readonly bindingIds: readonly string[];
  readonly journalPath: string;
  readonly maxConcurrencyPerTool: number;
  readonly pollWaitMs: number;
  readonly pollPageSize: number;
  readonly retryBackoffMinMs: number;
  readonly retryBackoffMaxMs: number;
  readonly requestTimeoutMs: number;
  readonly outboxSweepIntervalMs: number;
  readonly reconcileIntervalMs: number;
  readonly journalRetentionMs: number;
  readonly stopDeliveryTimeoutMs: number;
  readonly refusalGraceMs: number;
  readonly agentIds: ReadonlySet<string> | null;
  readonly operationKey: (call: ToolCall) => string;
  readonly logger: RunnerLogger;
  readonly metricsRegistry: PrometheusRegistry | null;
  /** Use the batched routes when the server offers them. */
  readonly batching: boolean;
  readonly connectTimeoutMs: number | null;
  readonly exitWhenFenced: boolean;
  readonly fetch: typeof fetch;
  readonly random: () => number;
}

/** Defaults of the options that have one. */
export const RUNNER_DEFAULTS = {
  maxConcurrencyPerTool: 4,
  pollWaitMs: 20_000,
  pollPageSize: 50,
  retryBackoffMinMs: 100,
  retryBackoffMaxMs: 10_000,
  requestTimeoutMs: 15_000,
  outboxSweepIntervalMs: 1_000,
  reconcileIntervalMs: 5_000,
  journalRetentionMs: 7 * 24 * 3_600_000,
  stopDeliveryTimeoutMs: 5_000,
  refusalGraceMs: 60_000,
} as const;

/** The exit code of a process whose runner was fenced, with `exitWhenFenced`. */
export const FENCED_EXIT_CODE = 3;

/** The server's longest long-poll (`wait_ms`). */
export const POLL_WAIT_MS_MAX = 30_000;

/** The default operation key: the call's run and call IDs, stable across claims and processes. */
export function defaultOperationKey(call: ToolCall): string {
  return `${call.runId}:${call.callId}`;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

/** Checks `options` and fills the defaults; throws RunnerError `invalid_options`. */
export function compileRunnerOptions(options: ToolRunnerOptions): CompiledRunnerOptions {
  const fail = (name: string, expected: string): never => {
    throw new RunnerError("invalid_options", `option ${name}: ${expected}`, { option: name });
  };
  if (typeof options !== "object" || options === null) fail("options", "must be an object");
  const url = typeof options.baseUrl === "string" && URL.canParse(options.baseUrl) ? new URL(options.baseUrl) : null;
  if (url === null || (url.protocol !== "http:" && url.protocol !== "https:"))
    fail("baseUrl", "must be an http(s) URL");
  if (typeof options.apiKey !== "string" || !/^[\x21-\x7e]+$/.test(options.apiKey)) {
    fail("apiKey", "must be visible ASCII without spaces");
  }
  if (typeof options.executorId !== "string" || !ID.test(options.executorId)) {
    fail("executorId", "must be 1–128 letters, digits or `_ . : -`, starting with a letter or digit");
  }
  const bindings = options.bindingIds;
  if (
    !Array.isArray(bindings) ||
    bindings.length === 0 ||
    !bindings.every((id) => typeof id === "string" && ID.test(id))
  ) {
    fail("bindingIds", "must be a non-empty list of binding IDs");
  }
  if (typeof options.journalPath !== "string" || options.journalPath.length === 0) {
    fail("journalPath", "must be a file path");
  }
  const integer = (name: keyof typeof RUNNER_DEFAULTS, min: number, max: number): number => {
    const value = options[name] ?? RUNNER_DEFAULTS[name];
    if (!Number.isSafeInteger(value) || value < min || value > max)
      fail(name, `must be an integer from ${min} to ${max}`);
    return value;
  };
  const minMs = integer("retryBackoffMinMs", 1, 3_600_000);
  const maxMs = integer("retryBackoffMaxMs", 1, 3_600_000);
  if (maxMs < minMs) fail("retryBackoffMaxMs", "must be at least retryBackoffMinMs");
  return {
    baseUrl: (url as URL).toString().replace(/\/+$/, ""),
    apiKey: options.apiKey,
    executorId: options.executorId,
    bindingIds: [...new Set(bindings)],
    journalPath: options.journalPath,
    maxConcurrencyPerTool: integer("maxConcurrencyPerTool", 1, 10_000),
    pollWaitMs: integer("pollWaitMs", 0, POLL_WAIT_MS_MAX),
    pollPageSize: integer("pollPageSize", 1, 200),
    retryBackoffMinMs: minMs,
    retryBackoffMaxMs: maxMs,
    requestTimeoutMs: integer("requestTimeoutMs", 100, 3_600_000),
    outboxSweepIntervalMs: integer("outboxSweepIntervalMs", 10, 3_600_000),
    reconcileIntervalMs: integer("reconcileIntervalMs", 10, 86_400_000),
    journalRetentionMs: integer("journalRetentionMs", 0, 3_650 * 86_400_000),
    stopDeliveryTimeoutMs: integer("stopDeliveryTimeoutMs", 0, 3_600_000),
    refusalGraceMs: integer("refusalGraceMs", 0, 86_400_000),
    agentIds: agentIdsOf(options.agentIds, fail),
    operationKey: options.operationKey ?? defaultOperationKey,
    logger: loggerOf(options.logger, fail),
    metricsRegistry: metricsRegistryOf(options.metricsRegistry, fail),
    batching: batchingOf(options.batching, fail),
    connectTimeoutMs: connectTimeoutOf(options.connectTimeoutMs, fail),
    exitWhenFenced: exitWhenFencedOf(options.exitWhenFenced, fail),
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    random: options.random ?? Math.random,
  };
}

function metricsRegistryOf(
  value: PrometheusRegistry | undefined,
  fail: (name: string, expected: string) => never,
): PrometheusRegistry | null {
  if (value === undefined) return null;
  if (typeof (value as { registerMetric?: unknown } | null)?.registerMetric !== "function") {
    fail("metricsRegistry", "must be a prom-client Registry (an object with registerMetric)");
  }
  return value;
}

function batchingOf(value: boolean | undefined, fail: (name: string, expected: string) => never): boolean {
  if (value === undefined) return true;
  if (typeof value !== "boolean") fail("batching", "must be true or false");
  return value;
}

function agentIdsOf(value: readonly string[] | undefined, fail: (name: string, expected: string) => never) {
  if (value === undefined) return null;
  if (!Array.isArray(value) || !value.every((id) => typeof id === "string"))
    fail("agentIds", "must be a list of agent IDs");
  return new Set(value);
}

function loggerOf(value: ToolRunnerOptions["logger"], fail: (name: string, expected: string) => never): RunnerLogger {
  if (value === undefined) return redactingLogger(jsonLinesLogger("info"));
  if (typeof value === "string") {
    if (!RUNNER_LOG_LEVELS.includes(value))
      fail("logger", `must be a logger or one of ${RUNNER_LOG_LEVELS.join(", ")}`);
    return redactingLogger(jsonLinesLogger(value));
  }
  if (isPinoLike(value)) return redactingLogger(fromPino(value));
  const methods = ["error", "warn", "info", "debug"] as const;
  if (typeof value !== "object" || value === null || !methods.every((name) => typeof value[name] === "function")) {
    fail("logger", "must have error, warn, info and debug methods, or be one of the levels");
  }
  return redactingLogger(value);
}

function connectTimeoutOf(value: unknown, fail: (name: string, expected: string) => never): number | null {
  if (value === undefined) return null;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1 || value > 86_400_000) {
    fail("connectTimeoutMs", "must be an integer from 1 to 86400000");
  }
  return value as number;
}

function exitWhenFencedOf(value: unknown, fail: (name: string, expected: string) => never): boolean {
  if (value === undefined) return false;
  if (typeof value !== "boolean") fail("exitWhenFenced", "must be true or false");
  return value as boolean;
}
