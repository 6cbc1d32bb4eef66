/**
 * Every server option, declared once: its environment variable, its kind (with bounds and unit), its
 * default and one line of docs. The option types, SERVER_DEFAULTS, SERVER_ENV, the parsing in
 * `compileServerOptions` and the options table of docs/operations.md are all derived from it. Names
 * carry their unit (`…Ms`, `…Bytes`); doc lines are markdown read from docs/operations.md, so their
 * links are relative to docs/.
 */

import { PENDING_WAIT_MS_MAX, RUN_LIMIT_MAXIMA, RUN_TIMEOUT_MS_MIN } from "@toolhost/protocol/wire";
import { NO_CONNECTIONS } from "../models/connections-option.js";
import { BUNDLED_CONSOLE_DIRECTORY } from "./console-directory.js";
import { boolean, integer, type OptionKind, oneOf } from "./option-kinds.js";
import {
  bootstrapKeyKind,
  databaseUrlKind,
  directoryKind,
  hostKind,
  logDestinationKind,
  modelConnectionsKind,
  publicUrlKind,
} from "./server-option-kinds.js";

/** Log levels, most to least severe; `silent` logs nothing. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** One log level. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Largest body limit accepted (1 GiB): beyond that a single JSON body is a mistake. */
export const MAX_BODY_LIMIT_BYTES = 1024 * 1024 * 1024;

/**
 * Shortest connection idle timeout accepted: a pending long-poll carries no byte for up to its
 * `wait_ms` (at most 30 s), and must not be cut.
 */
export const MIN_CONNECTION_IDLE_TIMEOUT_MS = PENDING_WAIT_MS_MAX + 5_000;

/** Longest run retention accepted (100 years): beyond that, 0 (keep everything) says it better. */
export const MAX_RUN_RETENTION_MS = 100 * 365 * 86_400_000;

/** One option's declaration. */
export interface OptionSpec<Input, Value, Default, Nullable extends boolean, Env extends string | null> {
  /** Its environment variable; null: it can only be passed in code. */
  readonly env: Env;
  readonly kind: OptionKind<Input, Value>;
  /** The compiled value when neither the option nor its variable is set. */
  readonly default: Default;
  /** An explicit `null` means none, and the variable is not read. */
  readonly nullable: Nullable;
  /** The default as the docs show it, when the kind cannot show it (computed, or none). */
  readonly shownDefault?: string;
  /** One line for the docs' table (markdown). */
  readonly doc: string;
}

/** Any option's declaration. */
// biome-ignore lint/suspicious/noExplicitAny: the table holds options of every input and value type.
export type AnyOptionSpec = OptionSpec<any, any, unknown, boolean, string | null>;

/** Declares one option, keeping its literal types for the derived ones. */
function option<
  Input,
  Value,
  const Default extends Value | null | undefined,
  const Env extends `TOOLHOST_${string}` | null,
  const Nullable extends boolean = false,
>(spec: {
  readonly env: Env;
  readonly kind: OptionKind<Input, Value>;
  readonly default: Default;
  readonly nullable?: Nullable;
  readonly shownDefault?: string;
  readonly doc: string;
}): OptionSpec<Input, Value, Default, Nullable, Env> {
  return { ...spec, nullable: (spec.nullable ?? false) as Nullable };
}

const ms = (min: number, max: number) => integer({ min, max, unit: "ms" });
const bytes = (min: number, max: number) => integer({ min, max, unit: "bytes" });
const count = (min: number, max: number) => integer({ min, max, unit: "count" });

/** The server options, in the order the docs list them. */
export const SERVER_OPTION_TABLE = {
  databaseUrl: option({
    env: "TOOLHOST_DATABASE_URL",
    kind: databaseUrlKind,
    default: "sqlite:./toolhost.db",
    doc: "The database ([storage.md](storage.md)).",
  }),
  host: option({ env: "TOOLHOST_HOST", kind: hostKind, default: "127.0.0.1", doc: "The interface to listen on." }),
  port: option({
    env: "TOOLHOST_PORT",
    kind: integer({ min: 0, max: 65_535, unit: "number" }),
    default: 8080,
    doc: "The TCP port; 0 picks a free one.",
  }),
  bootstrapKey: option({
    env: "TOOLHOST_BOOTSTRAP_KEY",
    kind: bootstrapKeyKind,
    default: null,
    nullable: true,
    shownDefault: "none",
    doc: "A secret that becomes an admin key with every scope, the same across restarts ([security.md](security.md)).",
  }),
  bodyLimitBytes: option({
    env: "TOOLHOST_BODY_LIMIT_BYTES",
    kind: bytes(1, MAX_BODY_LIMIT_BYTES),
    default: 8 * 1024 * 1024,
    doc: "The largest request body accepted; a larger one answers 413 `body_too_large`.",
  }),
  logLevel: option({
    env: "TOOLHOST_LOG_LEVEL",
    kind: oneOf(LOG_LEVELS),
    default: "info",
    doc: "The least severe level logged ([Logs](#logs)).",
  }),
  metricsPublic: option({
    env: "TOOLHOST_METRICS_PUBLIC",
    kind: boolean(),
    default: false,
    doc: "Serve `GET /metrics` without a credential; otherwise it needs a key with `metrics:read` ([Metrics](#metrics)).",
  }),
  metricsPerBinding: option({
    env: "TOOLHOST_METRICS_PER_BINDING",
    kind: boolean(),
    default: false,
    doc: "Add per-binding gauges of pending calls and online executors: at most 100 bindings get a series each, the rest are summed under `_other`.",
  }),
  publicUrl: option({
    env: "TOOLHOST_PUBLIC_URL",
    kind: publicUrlKind,
    default: null,
    nullable: true,
    shownDefault: "none",
    doc: "The server's public base URL, the OpenAPI document's `servers` entry (none: the scheme and host the request reached); set it behind a proxy.",
  }),
  logDestination: option({
    env: null,
    kind: logDestinationKind,
    default: undefined,
    shownDefault: "standard output",
    doc: "Where log lines go (`toolhost serve` passes standard error).",
  }),
  shutdownTimeoutMs: option({
    env: "TOOLHOST_SHUTDOWN_TIMEOUT_MS",
    kind: ms(0, 3_600_000),
    default: 10_000,
    doc: "How long shutdown waits for in-flight requests before closing their connections.",
  }),
  heartbeatIntervalMs: option({
    env: "TOOLHOST_HEARTBEAT_INTERVAL_MS",
    kind: ms(10, 3_600_000),
    default: 5_000,
    doc: "How often executors are asked to heartbeat ([executors.md](executors.md)).",
  }),
  leaseTtlMs: option({
    env: "TOOLHOST_LEASE_TTL_MS",
    kind: ms(20, 86_400_000),
    default: 15_000,
    doc: "How long an executor stays online after its last heartbeat.",
  }),
  acceptWindowMs: option({
    env: "TOOLHOST_ACCEPT_WINDOW_MS",
    kind: ms(10, 86_400_000),
    default: 30_000,
    doc: "How long a claim may wait for its `accepted` receipt before the call returns to pending ([protocol.md](protocol.md)).",
  }),
  sweepIntervalMs: option({
    env: "TOOLHOST_SWEEP_INTERVAL_MS",
    kind: ms(5, 60_000),
    default: 250,
    doc: "How often deadlines, accept windows, leases, runs whose turn engine died and the retention of ended runs are swept.",
  }),
  consoleDirectory: option({
    env: "TOOLHOST_CONSOLE_DIR",
    kind: directoryKind,
    default: BUNDLED_CONSOLE_DIRECTORY,
    nullable: true,
    shownDefault: "the console shipped with the package, else the checkout's `packages/console/dist`",
    doc: "The built web console served at `/`; null (in code) serves none ([console.md](console.md)).",
  }),
  databaseConnectTimeoutMs: option({
    env: "TOOLHOST_DATABASE_CONNECT_TIMEOUT_MS",
    kind: ms(100, 600_000),
    default: 5_000,
    doc: "PostgreSQL: the longest wait for a database connection, new or from the pool; then 503 `storage_unavailable`.",
  }),
  databaseQueryTimeoutMs: option({
    env: "TOOLHOST_DATABASE_QUERY_TIMEOUT_MS",
    kind: ms(100, 3_600_000),
    default: 10_000,
    doc: "PostgreSQL: the longest one SQL statement may run (`statement_timeout`; migrations are exempt).",
  }),
  requestTimeoutMs: option({
    env: "TOOLHOST_REQUEST_TIMEOUT_MS",
    kind: ms(50, 3_600_000),
    default: 30_000,
    doc: "How long a request (headers and body) may take to arrive; later it answers 408 and closes ([http-api.md](http-api.md#slow-clients)).",
  }),
  headersTimeoutMs: option({
    env: "TOOLHOST_HEADERS_TIMEOUT_MS",
    kind: ms(50, 3_600_000),
    default: 10_000,
    shownDefault: "10 s, at most `requestTimeoutMs`",
    doc: "How long a request's headers may take to arrive; at most `requestTimeoutMs`.",
  }),
  keepAliveTimeoutMs: option({
    env: "TOOLHOST_KEEP_ALIVE_TIMEOUT_MS",
    kind: ms(1, 3_600_000),
    // Longer than the 60 s idle timeout of common load balancers, which must close first (Fastify's default).
    default: 72_000,
    doc: "How long an idle keep-alive connection stays open between requests; longer than the balancer's idle timeout.",
  }),
  connectionIdleTimeoutMs: option({
    env: "TOOLHOST_CONNECTION_IDLE_TIMEOUT_MS",
    kind: ms(MIN_CONNECTION_IDLE_TIMEOUT_MS, 3_600_000),
    default: 60_000,
    doc: "How long a connection may carry no byte either way, mid-request or mid-answer; never below 35 s, so a long-poll is never cut.",
  }),
  modelLeaseMs: option({
    env: "TOOLHOST_MODEL_LEASE_MS",
    kind: ms(30, 3_600_000),
    default: 30_000,
    doc: "How long an instance holds a run's model turn without renewing it ([runs.md](runs.md)).",
  }),
  modelPollIntervalMs: option({
    env: "TOOLHOST_MODEL_POLL_INTERVAL_MS",
    kind: ms(5, 60_000),
    default: 200,
    doc: "How often the run driver looks for queued model turns (one queued on this server is picked at once, after its commit).",
  }),
  modelConcurrency: option({
    env: "TOOLHOST_MODEL_CONCURRENCY",
    kind: count(1, 1_000),
    default: 8,
    doc: "The most model requests one instance makes at once.",
  }),
  modelTimeoutMs: option({
    env: "TOOLHOST_MODEL_TIMEOUT_MS",
    kind: ms(10, 3_600_000),
    default: 120_000,
    doc: "The timeout of each attempt of a model request.",
  }),
  modelMaxRetries: option({
    env: "TOOLHOST_MODEL_MAX_RETRIES",
    kind: count(0, 20),
    default: 3,
    doc: "Retries of a model request after 429, 5xx, timeouts and connection failures.",
  }),
  eventHeartbeatMs: option({
    env: "TOOLHOST_EVENT_HEARTBEAT_MS",
    kind: ms(10, 3_600_000),
    default: 15_000,
    doc: "How often a run event stream sends a heartbeat comment ([runs.md](runs.md#the-event-stream)).",
  }),
  maxEventStreamsPerKey: option({
    env: "TOOLHOST_MAX_EVENT_STREAMS_PER_KEY",
    kind: count(1, 100_000),
    default: 32,
    doc: "The most run event streams open at once with one API key, on this instance; past it 429 `too_many_streams`.",
  }),
  maxEventStreams: option({
    env: "TOOLHOST_MAX_EVENT_STREAMS",
    kind: count(1, 100_000),
    default: 1_000,
    doc: "The most run event streams open at once on this instance.",
  }),
  eventStreamMaxMs: option({
    env: "TOOLHOST_EVENT_STREAM_MAX_MS",
    kind: ms(100, 86_400_000),
    default: 900_000,
    doc: "The longest a run event stream stays open; then it ends and its client resumes with `Last-Event-ID`.",
  }),
  identityCacheTtlMs: option({
    env: "TOOLHOST_IDENTITY_CACHE_TTL_MS",
    kind: ms(0, 60_000),
    default: 1_000,
    doc: "How long a key's identity is cached (0: not at all); bounds revocations made straight in the database, those through the API apply on the next request ([security.md](security.md#the-rules-that-hold-the-promise)).",
  }),
  modelConnections: option({
    env: "TOOLHOST_MODEL_CONNECTIONS",
    kind: modelConnectionsKind,
    default: NO_CONNECTIONS,
    shownDefault: "none",
    doc: 'The model connections agent versions may name, `{"<id>": {"provider", "base_url", "api_key_env"?}}`; the scripted model needs none ([configuration.md](configuration.md#model-connections)).',
  }),
  maxTurns: option({
    env: "TOOLHOST_MAX_TURNS",
    kind: count(1, RUN_LIMIT_MAXIMA.max_turns),
    default: 100,
    doc: "The most model turns one run makes; an agent version may set less ([runs.md](runs.md#limits)).",
  }),
  maxToolCalls: option({
    env: "TOOLHOST_MAX_TOOL_CALLS",
    kind: count(1, RUN_LIMIT_MAXIMA.max_tool_calls),
    default: 500,
    doc: "The most tool calls one run's model may ask for, refused ones included; an agent version may set less.",
  }),
  runTimeoutMs: option({
    env: "TOOLHOST_RUN_TIMEOUT_MS",
    kind: ms(RUN_TIMEOUT_MS_MIN, RUN_LIMIT_MAXIMA.run_timeout_ms),
    default: 3_600_000,
    doc: "The longest a run may last before it is `expired`; an agent version may set less.",
  }),
  maxProgressPerCall: option({
    env: "TOOLHOST_MAX_PROGRESS_PER_CALL",
    kind: count(0, 100_000),
    default: 100,
    doc: "The most `progress` receipts stored per call ([protocol.md](protocol.md#progress-limits)).",
  }),
  maxProgressBytes: option({
    env: "TOOLHOST_MAX_PROGRESS_BYTES",
    kind: bytes(2, MAX_BODY_LIMIT_BYTES),
    default: 65_536,
    doc: "The largest `progress` value of one receipt, in bytes of compact JSON.",
  }),
  runRetentionMs: option({
    env: "TOOLHOST_RUN_RETENTION_MS",
    kind: ms(0, MAX_RUN_RETENTION_MS),
    default: 30 * 86_400_000,
    doc: "How long an ended run is kept; older ones are deleted with all their rows (0 keeps everything; [Retention](#retention)).",
  }),
} as const;
