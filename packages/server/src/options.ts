/**
 * Server options: what the caller may set (all optional), and their compiled form with every default
 * filled in. Precedence: an explicit option, then its `TOOLHOST_*` environment variable, then the
 * default. An empty environment variable counts as unset. Invalid values throw an Error naming the
 * option or variable, before anything starts.
 */

import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PENDING_WAIT_MS_MAX } from "@toolhost/protocol/wire";
import type { DestinationStream } from "pino";
import { parseDatabaseUrl } from "./storage/database-url.js";

/** Log levels, most to least severe; `silent` logs nothing. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** One log level. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What a caller may set; every field is optional. */
export interface ServerOptions {
  /** `sqlite:PATH`, `sqlite::memory:` or `postgres://…` (default `sqlite:./toolhost.db`). */
  databaseUrl?: string;
  /** Interface to listen on (default `127.0.0.1`). */
  host?: string;
  /** TCP port; 0 picks a free one (default 8080). */
  port?: number;
  /** A secret that becomes an admin key with every scope (idempotent across restarts); null for none. */
  bootstrapKey?: string | null;
  /** Largest request body accepted; larger answers 413 (default 8 MiB). */
  bodyLimitBytes?: number;
  /** Least severe level logged (default `info`). */
  logLevel?: LogLevel;
  /** Serve `GET /metrics` without a credential (default false: it needs a key with `metrics:read`). */
  metricsPublic?: boolean;
  /**
   * Add per-binding gauges of pending calls and online executors (default false: totals only); at most
   * 100 bindings get a series each, the rest are summed under `_other`.
   */
  metricsPerBinding?: boolean;
  /**
   * The server's public base URL (`https://tools.example.com`), named by the OpenAPI document's
   * `servers` entry (default: none, the entry is the request's own scheme and host).
   */
  publicUrl?: string | null;
  /** Where log lines go (default standard output; `toolhost serve` passes standard error). Not configurable from the environment. */
  logDestination?: DestinationStream;
  /** How long shutdown waits for in-flight requests before closing their connections (default 10 s). */
  shutdownTimeoutMs?: number;
  /** How often executors are asked to heartbeat (default 5 s). */
  heartbeatIntervalMs?: number;
  /** How long an executor stays online after its last heartbeat (default 15 s). */
  leaseTtlMs?: number;
  /** How long a claim may wait for its `accepted` receipt before the call returns to pending (default 30 s). */
  acceptWindowMs?: number;
  /** How often deadlines, accept windows and leases are swept (default 250 ms). */
  sweepIntervalMs?: number;
  /** The built web console served at `/` (default: this checkout's `packages/console/dist`); null serves none. */
  consoleDirectory?: string | null;
  /** PostgreSQL: longest wait for a database connection, new or from the pool (default 5 s). */
  databaseConnectTimeoutMs?: number;
  /** PostgreSQL: longest one SQL statement may run, `statement_timeout` (default 10 s; migrations are exempt). */
  databaseQueryTimeoutMs?: number;
  /** How long a request (headers and body) may take to arrive; later it answers 408 and closes (default 30 s). */
  requestTimeoutMs?: number;
  /** How long a request's headers may take to arrive; at most `requestTimeoutMs` (default 10 s). */
  headersTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open between requests (default 72 s). */
  keepAliveTimeoutMs?: number;
  /** How long a connection may carry no byte either way, mid-request or mid-answer (default 60 s). */
  connectionIdleTimeoutMs?: number;
  /** How long an instance holds a run's model turn without renewing it (default 30 s). */
  modelLeaseMs?: number;
  /** How often the run driver looks for queued model turns (default 200 ms). */
  modelPollIntervalMs?: number;
  /** Most model requests one instance makes at once (default 8). */
  modelConcurrency?: number;
  /** Timeout of each attempt of a model request (default 120 s). */
  modelTimeoutMs?: number;
  /** Retries of a model request after 429, 5xx, timeouts and connection failures (default 3). */
  modelMaxRetries?: number;
  /** How often an event stream sends a heartbeat comment (default 15 s). */
  eventHeartbeatMs?: number;
  /** How often an open event stream looks for new events (default 250 ms). */
  eventPollIntervalMs?: number;
  /**
   * How long a key's identity is cached (default 1 s; 0 caches nothing). Revocations through the API
   * take effect on the next request regardless; this bounds those made straight in the database.
   */
  identityCacheTtlMs?: number;
}

/** Server options with every default applied and every value checked. */
export interface CompiledServerOptions {
  readonly databaseUrl: string;
  readonly host: string;
  readonly port: number;
  readonly bootstrapKey: string | null;
  readonly bodyLimitBytes: number;
  readonly logLevel: LogLevel;
  readonly metricsPublic: boolean;
  readonly metricsPerBinding: boolean;
  readonly publicUrl: string | null;
  readonly logDestination: DestinationStream | undefined;
  readonly shutdownTimeoutMs: number;
  readonly heartbeatIntervalMs: number;
  readonly leaseTtlMs: number;
  readonly acceptWindowMs: number;
  readonly sweepIntervalMs: number;
  readonly consoleDirectory: string | null;
  readonly databaseConnectTimeoutMs: number;
  readonly databaseQueryTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly connectionIdleTimeoutMs: number;
  readonly modelLeaseMs: number;
  readonly modelPollIntervalMs: number;
  readonly modelConcurrency: number;
  readonly modelTimeoutMs: number;
  readonly modelMaxRetries: number;
  readonly eventHeartbeatMs: number;
  readonly eventPollIntervalMs: number;
  readonly identityCacheTtlMs: number;
}

/** Defaults of the options that have one. */
export const SERVER_DEFAULTS = {
  databaseUrl: "sqlite:./toolhost.db",
  host: "127.0.0.1",
  port: 8080,
  bodyLimitBytes: 8 * 1024 * 1024,
  logLevel: "info",
  metricsPublic: false,
  metricsPerBinding: false,
  shutdownTimeoutMs: 10_000,
  heartbeatIntervalMs: 5_000,
  leaseTtlMs: 15_000,
  acceptWindowMs: 30_000,
  sweepIntervalMs: 250,
  databaseConnectTimeoutMs: 5_000,
  databaseQueryTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  // Longer than the 60 s idle timeout of common load balancers, which must close first (Fastify's default).
  keepAliveTimeoutMs: 72_000,
  connectionIdleTimeoutMs: 60_000,
  modelLeaseMs: 30_000,
  modelPollIntervalMs: 200,
  modelConcurrency: 8,
  modelTimeoutMs: 120_000,
  modelMaxRetries: 3,
  eventHeartbeatMs: 15_000,
  eventPollIntervalMs: 250,
  identityCacheTtlMs: 1_000,
} as const satisfies Partial<CompiledServerOptions>;

/** The environment variable of each option that has one. */
export const SERVER_ENV = {
  databaseUrl: "TOOLHOST_DATABASE_URL",
  host: "TOOLHOST_HOST",
  port: "TOOLHOST_PORT",
  bootstrapKey: "TOOLHOST_BOOTSTRAP_KEY",
  bodyLimitBytes: "TOOLHOST_BODY_LIMIT_BYTES",
  logLevel: "TOOLHOST_LOG_LEVEL",
  metricsPublic: "TOOLHOST_METRICS_PUBLIC",
  metricsPerBinding: "TOOLHOST_METRICS_PER_BINDING",
  publicUrl: "TOOLHOST_PUBLIC_URL",
  shutdownTimeoutMs: "TOOLHOST_SHUTDOWN_TIMEOUT_MS",
  heartbeatIntervalMs: "TOOLHOST_HEARTBEAT_INTERVAL_MS",
  leaseTtlMs: "TOOLHOST_LEASE_TTL_MS",
  acceptWindowMs: "TOOLHOST_ACCEPT_WINDOW_MS",
  sweepIntervalMs: "TOOLHOST_SWEEP_INTERVAL_MS",
  consoleDirectory: "TOOLHOST_CONSOLE_DIR",
  databaseConnectTimeoutMs: "TOOLHOST_DATABASE_CONNECT_TIMEOUT_MS",
  databaseQueryTimeoutMs: "TOOLHOST_DATABASE_QUERY_TIMEOUT_MS",
  requestTimeoutMs: "TOOLHOST_REQUEST_TIMEOUT_MS",
  headersTimeoutMs: "TOOLHOST_HEADERS_TIMEOUT_MS",
  keepAliveTimeoutMs: "TOOLHOST_KEEP_ALIVE_TIMEOUT_MS",
  connectionIdleTimeoutMs: "TOOLHOST_CONNECTION_IDLE_TIMEOUT_MS",
  modelLeaseMs: "TOOLHOST_MODEL_LEASE_MS",
  modelPollIntervalMs: "TOOLHOST_MODEL_POLL_INTERVAL_MS",
  modelConcurrency: "TOOLHOST_MODEL_CONCURRENCY",
  modelTimeoutMs: "TOOLHOST_MODEL_TIMEOUT_MS",
  modelMaxRetries: "TOOLHOST_MODEL_MAX_RETRIES",
  eventHeartbeatMs: "TOOLHOST_EVENT_HEARTBEAT_MS",
  eventPollIntervalMs: "TOOLHOST_EVENT_POLL_INTERVAL_MS",
  identityCacheTtlMs: "TOOLHOST_IDENTITY_CACHE_TTL_MS",
} as const;

/**
 * The console's build: the copy an installed package ships in its `console/` folder (made by its
 * `prepack`), else the console package's build output in the repository (src/ and dist/ sit at the
 * same depth, so both resolve from either).
 */
const SHIPPED_CONSOLE_DIRECTORY = fileURLToPath(new URL("../console", import.meta.url));
const CHECKOUT_CONSOLE_DIRECTORY = fileURLToPath(new URL("../../console/dist", import.meta.url));
export const BUNDLED_CONSOLE_DIRECTORY = existsSync(join(SHIPPED_CONSOLE_DIRECTORY, "index.html"))
  ? SHIPPED_CONSOLE_DIRECTORY
  : CHECKOUT_CONSOLE_DIRECTORY;

/** Largest body limit accepted (1 GiB): beyond that a single JSON body is a mistake. */
export const MAX_BODY_LIMIT_BYTES = 1024 * 1024 * 1024;

/**
 * Shortest connection idle timeout accepted: a pending long-poll carries no byte for up to its
 * `wait_ms` (at most 30 s), and must not be cut.
 */
export const MIN_CONNECTION_IDLE_TIMEOUT_MS = PENDING_WAIT_MS_MAX + 5_000;

/** Longest bootstrap secret accepted (the Authorization header must carry it). */
export const MAX_BOOTSTRAP_KEY_LENGTH = 512;

/** A bearer token: visible ASCII without spaces (what an Authorization header can carry verbatim). */
export const BEARER_TOKEN_PATTERN = /^[\x21-\x7e]+$/;

type Env = Readonly<Record<string, string | undefined>>;

/** Where a raw value came from, for error messages. */
interface Source {
  readonly label: string;
  readonly raw: unknown;
}

/** Checks `options`, fills defaults from `env` and then from SERVER_DEFAULTS. */
export function compileServerOptions(options: ServerOptions = {}, env: Env = process.env): CompiledServerOptions {
  const pick = <K extends keyof typeof SERVER_ENV>(key: K): Source | undefined => {
    if (options[key] !== undefined) return { label: `option ${key}`, raw: options[key] };
    const text = env[SERVER_ENV[key]];
    if (text === undefined || text === "") return undefined;
    return { label: `environment variable ${SERVER_ENV[key]}`, raw: text };
  };
  return {
    databaseUrl: databaseUrlOf(pick("databaseUrl")),
    host: hostOf(pick("host")),
    port: integerOf(pick("port"), 0, 65_535) ?? SERVER_DEFAULTS.port,
    bootstrapKey: bootstrapKeyOf(options.bootstrapKey === null ? undefined : pick("bootstrapKey")),
    bodyLimitBytes: integerOf(pick("bodyLimitBytes"), 1, MAX_BODY_LIMIT_BYTES) ?? SERVER_DEFAULTS.bodyLimitBytes,
    logLevel: logLevelOf(pick("logLevel")),
    metricsPublic: booleanOf(pick("metricsPublic")) ?? SERVER_DEFAULTS.metricsPublic,
    metricsPerBinding: booleanOf(pick("metricsPerBinding")) ?? SERVER_DEFAULTS.metricsPerBinding,
    publicUrl: options.publicUrl === null ? null : publicUrlOf(pick("publicUrl")),
    logDestination: options.logDestination,
    shutdownTimeoutMs: integerOf(pick("shutdownTimeoutMs"), 0, 3_600_000) ?? SERVER_DEFAULTS.shutdownTimeoutMs,
    heartbeatIntervalMs: integerOf(pick("heartbeatIntervalMs"), 10, 3_600_000) ?? SERVER_DEFAULTS.heartbeatIntervalMs,
    leaseTtlMs: integerOf(pick("leaseTtlMs"), 20, 86_400_000) ?? SERVER_DEFAULTS.leaseTtlMs,
    acceptWindowMs: integerOf(pick("acceptWindowMs"), 10, 86_400_000) ?? SERVER_DEFAULTS.acceptWindowMs,
    sweepIntervalMs: integerOf(pick("sweepIntervalMs"), 5, 60_000) ?? SERVER_DEFAULTS.sweepIntervalMs,
    consoleDirectory: options.consoleDirectory === null ? null : consoleDirectoryOf(pick("consoleDirectory")),
    databaseConnectTimeoutMs:
      integerOf(pick("databaseConnectTimeoutMs"), 100, 600_000) ?? SERVER_DEFAULTS.databaseConnectTimeoutMs,
    databaseQueryTimeoutMs:
      integerOf(pick("databaseQueryTimeoutMs"), 100, 3_600_000) ?? SERVER_DEFAULTS.databaseQueryTimeoutMs,
    ...requestTimeoutsOf(pick),
    keepAliveTimeoutMs: integerOf(pick("keepAliveTimeoutMs"), 1, 3_600_000) ?? SERVER_DEFAULTS.keepAliveTimeoutMs,
    connectionIdleTimeoutMs:
      integerOf(pick("connectionIdleTimeoutMs"), MIN_CONNECTION_IDLE_TIMEOUT_MS, 3_600_000) ??
      SERVER_DEFAULTS.connectionIdleTimeoutMs,
    modelLeaseMs: integerOf(pick("modelLeaseMs"), 30, 3_600_000) ?? SERVER_DEFAULTS.modelLeaseMs,
    modelPollIntervalMs: integerOf(pick("modelPollIntervalMs"), 5, 60_000) ?? SERVER_DEFAULTS.modelPollIntervalMs,
    modelConcurrency: integerOf(pick("modelConcurrency"), 1, 1_000) ?? SERVER_DEFAULTS.modelConcurrency,
    modelTimeoutMs: integerOf(pick("modelTimeoutMs"), 10, 3_600_000) ?? SERVER_DEFAULTS.modelTimeoutMs,
    modelMaxRetries: integerOf(pick("modelMaxRetries"), 0, 20) ?? SERVER_DEFAULTS.modelMaxRetries,
    eventHeartbeatMs: integerOf(pick("eventHeartbeatMs"), 10, 3_600_000) ?? SERVER_DEFAULTS.eventHeartbeatMs,
    eventPollIntervalMs: integerOf(pick("eventPollIntervalMs"), 5, 60_000) ?? SERVER_DEFAULTS.eventPollIntervalMs,
    identityCacheTtlMs: integerOf(pick("identityCacheTtlMs"), 0, 60_000) ?? SERVER_DEFAULTS.identityCacheTtlMs,
  };
}

/** The request and headers timeouts; the headers must be due no later than the whole request (as Node requires). */
function requestTimeoutsOf(
  pick: (key: "requestTimeoutMs" | "headersTimeoutMs") => Source | undefined,
): Pick<CompiledServerOptions, "requestTimeoutMs" | "headersTimeoutMs"> {
  const requestSource = pick("requestTimeoutMs");
  const headersSource = pick("headersTimeoutMs");
  const requestTimeoutMs = integerOf(requestSource, 50, 3_600_000) ?? SERVER_DEFAULTS.requestTimeoutMs;
  const headersTimeoutMs =
    integerOf(headersSource, 50, 3_600_000) ?? Math.min(SERVER_DEFAULTS.headersTimeoutMs, requestTimeoutMs);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw invalid(
      headersSource ?? { label: "option headersTimeoutMs", raw: headersTimeoutMs },
      `must not exceed the request timeout (${requestTimeoutMs} ms), got ${headersTimeoutMs}`,
    );
  }
  return { requestTimeoutMs, headersTimeoutMs };
}

function invalid(source: Source, expected: string): Error {
  return new Error(`${source.label}: ${expected}`);
}

function integerOf(source: Source | undefined, min: number, max: number): number | undefined {
  if (source === undefined) return undefined;
  const { raw } = source;
  const value = typeof raw === "string" && /^[0-9]+$/.test(raw.trim()) ? Number(raw.trim()) : raw;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) {
    throw invalid(source, `must be an integer from ${min} to ${max}, got ${JSON.stringify(String(raw))}`);
  }
  return value;
}

function databaseUrlOf(source: Source | undefined): string {
  if (source === undefined) return SERVER_DEFAULTS.databaseUrl;
  if (typeof source.raw !== "string") throw invalid(source, "must be a string");
  try {
    parseDatabaseUrl(source.raw);
  } catch (error) {
    throw invalid(source, (error as Error).message);
  }
  return source.raw;
}

function hostOf(source: Source | undefined): string {
  if (source === undefined) return SERVER_DEFAULTS.host;
  if (typeof source.raw !== "string" || !/^[A-Za-z0-9.:_%[\]-]+$/.test(source.raw)) {
    throw invalid(source, "must be a host name or an IP address");
  }
  return source.raw;
}

function bootstrapKeyOf(source: Source | undefined): string | null {
  if (source === undefined) return null;
  const { raw } = source;
  if (typeof raw !== "string" || raw.length > MAX_BOOTSTRAP_KEY_LENGTH || !BEARER_TOKEN_PATTERN.test(raw)) {
    // Never echo the value: it is a secret.
    throw invalid(source, `must be 1 to ${MAX_BOOTSTRAP_KEY_LENGTH} visible ASCII characters without spaces`);
  }
  return raw;
}

function consoleDirectoryOf(source: Source | undefined): string {
  if (source === undefined) return BUNDLED_CONSOLE_DIRECTORY;
  if (typeof source.raw !== "string") throw invalid(source, "must be a directory path");
  return resolve(source.raw);
}

/** Longest public URL accepted. */
export const MAX_PUBLIC_URL_LENGTH = 2_048;

function publicUrlOf(source: Source | undefined): string | null {
  if (source === undefined) return null;
  const { raw } = source;
  let url: URL | undefined;
  try {
    url = typeof raw === "string" && raw.length <= MAX_PUBLIC_URL_LENGTH ? new URL(raw) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash) {
    throw invalid(source, "must be an http or https URL without query or fragment (https://tools.example.com)");
  }
  // No trailing slash: the document's paths start with one.
  return url.href.replace(/\/+$/, "");
}

function booleanOf(source: Source | undefined): boolean | undefined {
  if (source === undefined) return undefined;
  if (source.raw === true || source.raw === "true") return true;
  if (source.raw === false || source.raw === "false") return false;
  throw invalid(source, "must be true or false");
}

function logLevelOf(source: Source | undefined): LogLevel {
  if (source === undefined) return SERVER_DEFAULTS.logLevel;
  const level = LOG_LEVELS.find((candidate) => candidate === source.raw);
  if (level === undefined) throw invalid(source, `must be one of ${LOG_LEVELS.join(", ")}`);
  return level;
}
