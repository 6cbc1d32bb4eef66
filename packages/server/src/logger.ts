/**
 * The server's pino logger: one JSON object per line with an ISO-8601 `time` and a string `level`
 * (`"info"`, not 30), so lines read the same in a terminal and in a log store. Secrets never reach a
 * log line: authorization headers, API-key secrets and the bootstrap key are redacted wherever they
 * appear in a logged object.
 */

import { type DestinationStream, type Logger, pino } from "pino";
import type { LogLevel } from "./options.js";

/** Paths pino censors in every logged object. */
export const REDACTED_LOG_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  "headers.authorization",
  "authorization",
  "key",
  "*.key",
  "bootstrapKey",
  "*.bootstrapKey",
  "secret",
  "*.secret",
] as const;

/** A logger at `level` writing JSON lines to `destination` (standard output by default). */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: [...REDACTED_LOG_PATHS], censor: "[redacted]" },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
