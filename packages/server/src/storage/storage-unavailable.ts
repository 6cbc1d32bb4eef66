/**
 * Which storage failures are the database being unavailable — down, unreachable, restarting, out of
 * disk, locked by another process, too slow — rather than a bug: those leave the storage as a
 * `StorageUnavailableError`, which the HTTP layer answers 503 `storage_unavailable` with
 * `Retry-After` (see docs/storage.md). Everything else passes through unchanged (and is a 500).
 */

import { guardFailureOf } from "./stored-state-changed.js";

/** A storage operation failed because the database is unavailable; `cause` holds the driver's error. */
export class StorageUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StorageUnavailableError";
  }
}

/** True when `value` is a StorageUnavailableError (also across duplicated module copies). */
export function isStorageUnavailableError(value: unknown): value is StorageUnavailableError {
  return (
    value instanceof StorageUnavailableError || (value instanceof Error && value.name === "StorageUnavailableError")
  );
}

/** Node socket errors of a connection that cannot be made or was cut. */
const NETWORK_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "EAI_AGAIN",
  "ENOTFOUND",
]);

/**
 * PostgreSQL SQLSTATE classes and codes that mean "not now": 08 connection exception, 53 insufficient
 * resources (disk full, out of memory, too many connections), 58 system error (I/O), 57P01–57P05
 * shutdown, crash or restart, 57014 a statement cut by `statement_timeout`, 55P03 a lock not
 * available in time, 25P03 an idle transaction timed out, 25006 a write refused by a read-only
 * database (`default_transaction_read_only`, a hot standby: an operator's state, not a bug).
 */
const POSTGRES_CLASSES: readonly string[] = ["08", "53", "58"];
const POSTGRES_CODES: ReadonlySet<string> = new Set([
  "57P01",
  "57P02",
  "57P03",
  "57P04",
  "57P05",
  "57014",
  "55P03",
  "25P03",
  "25006",
]);

/** node-postgres and pg-pool errors without a code: a connection lost, not made in time, or a read timeout. */
const POSTGRES_CLIENT_MESSAGES: readonly RegExp[] = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Query read timeout$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Postgres connection has been discarded$/,
];

/**
 * SQLite result codes (better-sqlite3 names extended codes `SQLITE_IOERR_WRITE` and so on): busy or
 * locked past `busy_timeout`, I/O errors, disk full, the file not openable or read-only (moved).
 */
const SQLITE_PREFIXES: readonly string[] = [
  "SQLITE_BUSY",
  "SQLITE_LOCKED",
  "SQLITE_IOERR",
  "SQLITE_FULL",
  "SQLITE_CANTOPEN",
  "SQLITE_READONLY",
  "SQLITE_NOMEM",
  "SQLITE_PROTOCOL",
];

/** True when a driver's `error` (or an error in its `cause` chain) says the database is unavailable. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let current = error; current instanceof Error && !seen.has(current); current = current.cause) {
    seen.add(current);
    if (current.name === "StorageUnavailableError") return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && isUnavailableCode(code)) return true;
    // The client's own errors carry no code; an error with a code is judged by its code alone.
    if (code === undefined && POSTGRES_CLIENT_MESSAGES.some((pattern) => pattern.test(current.message))) return true;
  }
  return false;
}

function isUnavailableCode(code: string): boolean {
  if (NETWORK_CODES.has(code)) return true;
  if (code.startsWith("SQLITE_")) return SQLITE_PREFIXES.some((prefix) => code.startsWith(prefix));
  if (/^[0-9A-Z]{5}$/.test(code)) return POSTGRES_CODES.has(code) || POSTGRES_CLASSES.includes(code.slice(0, 2));
  return false;
}

/**
 * `error` as a StorageUnavailableError when it is one (the original kept as `cause`), as a
 * StoredStateChangedError when a write guard failed it (stored-state-changed.ts), else unchanged.
 */
export function asStorageFailure(error: unknown): unknown {
  const guardFailure = guardFailureOf(error);
  if (guardFailure !== undefined) return guardFailure;
  if (isStorageUnavailableError(error) || !isDatabaseUnavailable(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new StorageUnavailableError(`storage is unavailable: ${reason}`, { cause: error });
}

/** Runs `operation`, turning an unavailable database's failure into a StorageUnavailableError. */
export async function translatingStorageFailures<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw asStorageFailure(error);
  }
}
