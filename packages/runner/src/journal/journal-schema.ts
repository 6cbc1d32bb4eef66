/**
 * The journal's SQLite schema and connection settings. WAL lets several processes share the file
 * (one runner working, another finishing deferred calls); `synchronous=FULL` makes every commit
 * durable before the runner acts on it (an `accepted` is sent only after its assignment is on disk).
 * Triggers derived from the state machines refuse any state change that is not an edge, whichever
 * process (or version) writes.
 */

import { JOURNAL_TRANSITIONS, OUTBOX_TRANSITIONS } from "./journal-records.js";

/** The schema version this code writes; a newer file is refused rather than misread. */
export const JOURNAL_SCHEMA_VERSION = 1;

/**
 * How long one statement waits for another process's lock. better-sqlite3 is synchronous: the wait
 * blocks the host's event loop, so it stays short; opening waits longer, asynchronously
 * (`journal-opener.ts`).
 */
export const JOURNAL_BUSY_TIMEOUT_MS = 50;

/** Pragmas applied on every open (the busy timeout first: switching to WAL may wait for a lock). */
export const JOURNAL_PRAGMAS = [
  `busy_timeout = ${JOURNAL_BUSY_TIMEOUT_MS}`,
  "journal_mode = WAL",
  "synchronous = FULL",
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

/** The message a transition trigger aborts with (SQLite's error carries it). */
export const ILLEGAL_TRANSITION_MESSAGE = "journal: not an edge of the state machine";

/** `from>to` literals of every edge of `table`, for a trigger's `NOT IN` list. */
function edgeList(table: Readonly<Record<string, readonly string[]>>): string {
  const edges = Object.entries(table).flatMap(([from, targets]) => targets.map((to) => `'${from}>${to}'`));
  return edges.join(", ");
}

/** A trigger refusing changes of `table`.state that are not edges (re-created on every open, so it follows the code). */
function transitionTrigger(name: string, table: string, edges: Readonly<Record<string, readonly string[]>>): string {
  return `
DROP TRIGGER IF EXISTS ${name};
CREATE TRIGGER ${name} BEFORE UPDATE OF state ON ${table}
WHEN OLD.state <> NEW.state AND (OLD.state || '>' || NEW.state) NOT IN (${edgeList(edges)})
BEGIN SELECT RAISE(ABORT, '${ILLEGAL_TRANSITION_MESSAGE}'); END;`;
}

/** The transition triggers of both tables (run in one transaction at open). */
export const JOURNAL_TRIGGERS_DDL = [
  transitionTrigger("assignments_state_edges", "assignments", JOURNAL_TRANSITIONS),
  transitionTrigger("outbox_state_edges", "outbox", OUTBOX_TRANSITIONS),
].join("\n");
