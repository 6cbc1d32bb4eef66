/**
 * The journal's SQLite schema and connection settings. WAL lets several processes share the file
 * (one runner working, another finishing deferred calls); `synchronous=FULL` makes every commit
 * durable before the runner acts on it (an `accepted` is sent only after its assignment is on disk).
 */

/** The schema version this code writes; a newer file is refused rather than misread. */
export const JOURNAL_SCHEMA_VERSION = 1;

/** Pragmas applied on every open. */
export const JOURNAL_PRAGMAS = [
  "journal_mode = WAL",
  "synchronous = FULL",
  "busy_timeout = 10000",
  "foreign_keys = ON",
];

/** The tables and indexes (idempotent). */
export const JOURNAL_DDL = `
CREATE TABLE IF NOT EXISTS journal_meta (
  name TEXT PRIMARY KEY NOT NULL,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS assignments (
  call_id TEXT PRIMARY KEY NOT NULL,
  run_id TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  effect TEXT NOT NULL,
  executor_id TEXT NOT NULL,
  claim_id TEXT NOT NULL,
  grant_secret TEXT NOT NULL,
  operation_key TEXT NOT NULL,
  call_json TEXT NOT NULL,
  state TEXT NOT NULL,
  state_reason TEXT,
  handle_id TEXT UNIQUE,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS assignments_state ON assignments (state, updated_at_ms);
CREATE TABLE IF NOT EXISTS outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  receipt_id TEXT NOT NULL UNIQUE,
  call_id TEXT NOT NULL REFERENCES assignments (call_id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  body_text TEXT NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  answer_json TEXT,
  reject_code TEXT,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS outbox_call ON outbox (call_id, seq);
CREATE INDEX IF NOT EXISTS outbox_state ON outbox (state, seq);
`;
