/**
 * Structured logging. The runner logs through a small interface a product can back with its own
 * logger (pino, winston, …); the default writes one JSON object per line to standard error. Field
 * values named like secrets (grants, API keys, authorization headers) are replaced before any line is
 * written, whichever logger is used: the runner holds per-call grants and must never leak them.
 */

/** Log levels, most to least severe; `silent` logs nothing. */
export const RUNNER_LOG_LEVELS = ["error", "warn", "info", "debug", "silent"] as const;

/** One log level. */
export type RunnerLogLevel = (typeof RUNNER_LOG_LEVELS)[number];

/** Structured facts of one log line. */
export type LogFields = Record<string, unknown>;

/** What the runner logs through. */
export interface RunnerLogger {
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
}

/**
 * Field names whose values are never logged, compared exactly after lowercasing and dropping `_` and
 * `-` (so `apiKey`, `api_key` and `API-KEY` match; `max_tokens` and `secretary` do not).
 */
export const REDACTED_FIELD_NAMES: ReadonlySet<string> = new Set([
  "grant",
  "grants",
  "apikey",
  "authorization",
  "proxyauthorization",
  "cookie",
  "setcookie",
  "secret",
  "clientsecret",
  "password",
  "passphrase",
  "token",
  "accesstoken",
  "refreshtoken",
  "idtoken",
  "bearertoken",
  "sessiontoken",
  "privatekey",
]);

/** True when a field named `name` is redacted. */
export function isRedactedFieldName(name: string): boolean {
  return REDACTED_FIELD_NAMES.has(name.toLowerCase().replace(/[_-]/g, ""));
}

/** The placeholder written instead of a redacted value. */
export const REDACTED = "[redacted]";

/** A copy of `fields` with secret-named members replaced (nested objects too). */
export function redactFields(fields: LogFields, depth = 0): LogFields {
  const out: LogFields = {};
  for (const [key, value] of Object.entries(fields)) {
    if (isRedactedFieldName(key)) out[key] = REDACTED;
    else if (value instanceof Error) out[key] = errorFields(value, depth);
    else if (depth < 4 && typeof value === "object" && value !== null && !Array.isArray(value)) {
      out[key] = redactFields(value as LogFields, depth + 1);
    } else out[key] = value;
  }
  return out;
}

/** An error as logged: name, message and stack (a handler's stack is what finds the bug), and its cause. */
function errorFields(error: Error, depth: number): LogFields {
  const fields: LogFields = { name: error.name, message: error.message };
  if (error.stack !== undefined) fields.stack = error.stack;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" || typeof code === "number") fields.code = code;
  if (error.cause instanceof Error && depth < 4) fields.cause = errorFields(error.cause, depth + 1);
  return fields;
}

/** The methods of a pino-compatible logger the runner uses: `(fields, message)`. */
export interface PinoLikeLogger {
  error(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
  debug(fields: object, message: string): void;
  child(bindings: object): unknown;
  levels: object;
}

/** True when `value` looks like pino (or a pino-compatible logger): it has `child` and `levels`. */
export function isPinoLike(value: unknown): value is PinoLikeLogger {
  const candidate = value as { child?: unknown; levels?: unknown; info?: unknown } | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.child === "function" &&
    typeof candidate.levels === "object" &&
    candidate.levels !== null &&
    typeof candidate.info === "function"
  );
}

/** A RunnerLogger writing through a pino-compatible logger (its argument order is `(fields, message)`). */
export function fromPino(logger: PinoLikeLogger): RunnerLogger {
  return {
    error: (message, fields) => logger.error(fields ?? {}, message),
    warn: (message, fields) => logger.warn(fields ?? {}, message),
    info: (message, fields) => logger.info(fields ?? {}, message),
    debug: (message, fields) => logger.debug(fields ?? {}, message),
  };
}

const SEVERITY: Readonly<Record<RunnerLogLevel, number>> = { error: 0, warn: 1, info: 2, debug: 3, silent: -1 };

/** A logger writing JSON lines (`{"time","level","msg",…fields}`) through `write` (default stderr). */
export function jsonLinesLogger(
  level: RunnerLogLevel = "info",
  write: (line: string) => void = (line) => process.stderr.write(line),
  bindings: LogFields = {},
): RunnerLogger {
  const line = (at: Exclude<RunnerLogLevel, "silent">, message: string, fields?: LogFields): void => {
    if (SEVERITY[at] > SEVERITY[level]) return;
    const record = { time: new Date().toISOString(), level: at, msg: message, ...bindings, ...(fields ?? {}) };
    write(`${JSON.stringify(record)}\n`);
  };
  return {
    error: (message, fields) => line("error", message, fields),
    warn: (message, fields) => line("warn", message, fields),
    info: (message, fields) => line("info", message, fields),
    debug: (message, fields) => line("debug", message, fields),
  };
}

/** Wraps `logger` so that every line's fields are redacted first (products' loggers included). */
export function redactingLogger(logger: RunnerLogger): RunnerLogger {
  const safe = (fields?: LogFields): LogFields | undefined => (fields === undefined ? undefined : redactFields(fields));
  return {
    error: (message, fields) => logger.error(message, safe(fields)),
    warn: (message, fields) => logger.warn(message, safe(fields)),
    info: (message, fields) => logger.info(message, safe(fields)),
    debug: (message, fields) => logger.debug(message, safe(fields)),
  };
}

/** A logger that writes nothing. */
export const silentLogger: RunnerLogger = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
};
