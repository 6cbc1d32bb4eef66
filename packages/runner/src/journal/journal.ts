/**
 * The runner's durable journal (better-sqlite3, synchronous: every method has committed when it
 * returns). Every state change that the protocol's order depends on is one conditional statement or
 * one transaction, so two processes sharing the file (a runner and a process finishing deferred
 * calls) never both win the same change. Every state change of a call goes through one guarded
 * `#move` (checked against JOURNAL_TRANSITIONS), every settling of a receipt through one guarded
 * `#settleReceipts` (OUTBOX_TRANSITIONS).
 */

import Database from "better-sqlite3";
import {
  type AssignOutcome,
  CLOSED_JOURNAL_STATES,
  isJournalEdge,
  isOutboxEdge,
  JOURNAL_INITIAL_STATE,
  JOURNAL_STATES,
  type JournalEntry,
  type JournalState,
  JournalTransitionError,
  type NewAssignment,
  type NewReceipt,
  type OutboxReceipt,
  type OutboxState,
} from "./journal-records.js";
import {
  type AssignmentRow,
  assignmentColumns,
  assignmentValues,
  entryOf,
  type MoveColumns,
  type OutboxRow,
  receiptOf,
} from "./journal-rows.js";
import { JOURNAL_DDL, JOURNAL_PRAGMAS, JOURNAL_SCHEMA_VERSION, JOURNAL_TRIGGERS_DDL } from "./journal-schema.js";

/** A state change made together with another write. */
export interface StateChange {
  readonly from: readonly JournalState[];
  readonly to: JournalState;
  readonly reason?: string | null;
}

/** A condition on the call's state for a write, with the change to make (none: the state stays). */
export interface StateCondition {
  readonly from: readonly JournalState[];
  readonly to?: JournalState;
  readonly reason?: string | null;
}

/** How many calls are in each state, and how many receipts wait for delivery. */
export type JournalCounts = Record<JournalState, number> & { readonly outboxPending: number };

/** The journal file. */
export class Journal {
  readonly #db: Database.Database;
  readonly #now: () => number;

  private constructor(db: Database.Database, now: () => number) {
    this.#db = db;
    this.#now = now;
  }

  /** Opens (creating if needed) the journal at `path`; refuses a file written by a newer schema. */
  static open(path: string, now: () => number = Date.now): Journal {
    const db = new Database(path);
    try {
      for (const pragma of JOURNAL_PRAGMAS) db.pragma(pragma);
      db.exec(JOURNAL_DDL);
      db.transaction(() => db.exec(JOURNAL_TRIGGERS_DDL)).immediate();
      const row = db.prepare("SELECT value FROM journal_meta WHERE name = 'schema_version'").get() as
        | { value: string }
        | undefined;
      if (row === undefined) {
        db.prepare("INSERT OR IGNORE INTO journal_meta (name, value) VALUES ('schema_version', ?)").run(
          String(JOURNAL_SCHEMA_VERSION),
        );
      } else if (Number(row.value) > JOURNAL_SCHEMA_VERSION) {
        throw new Error(`journal ${path} has schema version ${row.value}; this runner reads ${JOURNAL_SCHEMA_VERSION}`);
      }
    } catch (error) {
      db.close();
      throw error;
    }
    return new Journal(db, now);
  }

  /**
   * Journals a claim's assignment with its `accepted` receipt, in one transaction. A new claim of a
   * call that never started (its old claim lapsed) replaces the old one; a call that started under
   * another claim is a conflict.
   */
  assign(assignment: NewAssignment, accepted: NewReceipt): AssignOutcome {
    return this.#db
      .transaction((): AssignOutcome => {
        const existing = this.get(assignment.callId);
        const now = this.#now();
        if (existing !== undefined) {
          if (existing.claimId === assignment.claimId) return { type: "same_claim", entry: existing };
          if (existing.state !== "accepting" && existing.state !== "abandoned")
            return { type: "conflict", entry: existing };
          this.#settleReceipts(assignment.callId, null, "obsolete", {});
          const moved = this.#move(
            assignment.callId,
            { from: [existing.state], to: JOURNAL_INITIAL_STATE, reason: null },
            { ...assignmentColumns(assignment), handle_id: null },
          );
          if (!moved) throw new Error(`journal: call ${assignment.callId} changed state during its own transaction`);
        } else {
          this.#db
            .prepare(
              `INSERT INTO assignments (run_id, tool_name, effect, executor_id, claim_id, grant_secret, operation_key,
               call_json, state, created_at_ms, updated_at_ms, call_id)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            )
            .run(...assignmentValues(assignment), JOURNAL_INITIAL_STATE, now, now, assignment.callId);
        }
        this.#insertReceipt(assignment.callId, accepted, now);
        return { type: "journaled" };
      })
      .immediate();
  }

  /** The call's entry. */
  get(callId: string): JournalEntry | undefined {
    const row = this.#db.prepare("SELECT * FROM assignments WHERE call_id = ?").get(callId) as
      | AssignmentRow
      | undefined;
    return row === undefined ? undefined : entryOf(row);
  }

  /** The entry a deferred handle belongs to. */
  byHandle(handleId: string): JournalEntry | undefined {
    const row = this.#db.prepare("SELECT * FROM assignments WHERE handle_id = ?").get(handleId) as
      | AssignmentRow
      | undefined;
    return row === undefined ? undefined : entryOf(row);
  }

  /**
   * Entries in `states`, oldest first; only `executorId`'s when given (runners with different
   * executor IDs may share one file, and each recovers, sweeps and reconciles only its own calls).
   */
  entriesIn(states: readonly JournalState[], executorId?: string): JournalEntry[] {
    if (states.length === 0) return [];
    const marks = states.map(() => "?").join(", ");
    const byExecutor = executorId === undefined ? "" : " AND executor_id = ?";
    const rows = this.#db
      .prepare(`SELECT * FROM assignments WHERE state IN (${marks})${byExecutor} ORDER BY created_at_ms, call_id`)
      .all(...states, ...(executorId === undefined ? [] : [executorId])) as AssignmentRow[];
    return rows.map(entryOf);
  }

  /**
   * Moves the call from one of `change.from` to `change.to`; false when it was in none of them.
   * Throws JournalTransitionError when some `from → to` is not an edge of JOURNAL_TRANSITIONS.
   */
  transition(callId: string, change: StateChange): boolean {
    return this.#move(callId, change, {});
  }

  /**
   * Journals a receipt of the call, with a state condition (and change) when given, in one
   * transaction; false (and nothing written) when the call is not in one of `condition.from`.
   */
  appendReceipt(callId: string, receipt: NewReceipt, condition?: StateCondition): boolean {
    return this.#db
      .transaction((): boolean => {
        if (condition !== undefined) {
          const { from, to, reason } = condition;
          if (
            to !== undefined
              ? !this.transition(callId, { from, to, reason })
              : !from.includes(this.get(callId)?.state as JournalState)
          ) {
            return false;
          }
        }
        this.#insertReceipt(callId, receipt, this.#now());
        return true;
      })
      .immediate();
  }

  /** Marks a call that never started abandoned and retires its unsent receipts; false when it was not `from`. */
  abandon(callId: string, reason: string, from: readonly JournalState[] = ["accepting"]): boolean {
    return this.#db
      .transaction((): boolean => {
        if (!this.#move(callId, { from, to: "abandoned", reason }, {})) return false;
        this.#settleReceipts(callId, null, "obsolete", {});
        return true;
      })
      .immediate();
  }

  /** Records the deferred handle of a running call (running → deferred); false when it is not running. */
  defer(callId: string, handleId: string): boolean {
    return this.#move(callId, { from: ["running"], to: "deferred", reason: null }, { handle_id: handleId });
  }

  /** Every receipt of the call, in journal order. */
  receipts(callId: string): OutboxReceipt[] {
    const rows = this.#db.prepare("SELECT * FROM outbox WHERE call_id = ? ORDER BY seq").all(callId) as OutboxRow[];
    return rows.map(receiptOf);
  }

  /** The call's receipts still waiting for delivery, in journal order. */
  pendingReceipts(callId: string): OutboxReceipt[] {
    const rows = this.#db
      .prepare("SELECT * FROM outbox WHERE call_id = ? AND state = 'pending' ORDER BY seq")
      .all(callId) as OutboxRow[];
    return rows.map(receiptOf);
  }

  /** `executorId`'s calls with receipts waiting for delivery (oldest receipt first), at most `limit`. */
  callsWithPendingReceipts(limit: number, executorId: string): string[] {
    const rows = this.#db
      .prepare(
        `SELECT o.call_id, MIN(o.seq) AS first FROM outbox o JOIN assignments a ON a.call_id = o.call_id
         WHERE o.state = 'pending' AND a.executor_id = ? GROUP BY o.call_id ORDER BY first LIMIT ?`,
      )
      .all(executorId, limit) as Array<{ call_id: string }>;
    return rows.map((row) => row.call_id);
  }

  /** Counts one more delivery attempt of a receipt. */
  countAttempt(receiptId: string): void {
    this.#db
      .prepare("UPDATE outbox SET attempts = attempts + 1, updated_at_ms = ? WHERE receipt_id = ?")
      .run(this.#now(), receiptId);
  }

  /** Marks a pending receipt delivered with the server's answer; false when it was not pending. */
  markDelivered(receiptId: string, answerJson: string): boolean {
    return this.#settleReceipts(null, receiptId, "delivered", { answer_json: answerJson }) === 1;
  }

  /** Marks a pending receipt refused for good with the server's error code; false when it was not pending. */
  markRejected(receiptId: string, code: string): boolean {
    return this.#settleReceipts(null, receiptId, "rejected", { reject_code: code }) === 1;
  }

  /** How many calls are in each state and how many receipts wait for delivery. */
  counts(): JournalCounts {
    const counts = Object.fromEntries(Object.keys(JOURNAL_STATES).map((state) => [state, 0])) as Record<
      JournalState,
      number
    >;
    const rows = this.#db.prepare("SELECT state, COUNT(*) AS n FROM assignments GROUP BY state").all() as Array<{
      state: JournalState;
      n: number;
    }>;
    for (const row of rows) counts[row.state] = row.n;
    const pending = this.#db.prepare("SELECT COUNT(*) AS n FROM outbox WHERE state = 'pending'").get() as { n: number };
    return { ...counts, outboxPending: pending.n };
  }

  /** Deletes closed calls (and their receipts) last changed before `beforeMs`; answers how many. */
  prune(beforeMs: number): number {
    const closed = [...CLOSED_JOURNAL_STATES];
    const marks = closed.map(() => "?").join(", ");
    const result = this.#db
      .prepare(`DELETE FROM assignments WHERE state IN (${marks}) AND updated_at_ms < ?`)
      .run(...closed, beforeMs);
    return result.changes;
  }

  /** The durability settings in force (`wal` and 2 = FULL), so tests and diagnostics can check them. */
  durability(): { readonly journalMode: string; readonly synchronous: number } {
    return {
      journalMode: String(this.#db.pragma("journal_mode", { simple: true })),
      synchronous: Number(this.#db.pragma("synchronous", { simple: true })),
    };
  }

  /** Closes the file. */
  close(): void {
    if (this.#db.open) this.#db.close();
  }

  #insertReceipt(callId: string, receipt: NewReceipt, now: number): void {
    this.#db
      .prepare(
        `INSERT INTO outbox (receipt_id, call_id, kind, body_text, state, created_at_ms, updated_at_ms)
         VALUES (?, ?, ?, ?, 'pending', ?, ?)`,
      )
      .run(receipt.receiptId, callId, receipt.kind, receipt.bodyText, now, now);
  }

  /**
   * The one guarded state change of a call: checks every `from → to` against JOURNAL_TRANSITIONS,
   * then changes the state (and `columns`) only while the call is in one of `change.from`.
   */
  #move(callId: string, change: StateChange, columns: MoveColumns): boolean {
    for (const from of change.from) {
      if (!isJournalEdge(from, change.to)) throw new JournalTransitionError("assignments", from, change.to);
    }
    if (change.from.length === 0) return false;
    const names = Object.keys(columns);
    const sets = ["state = ?", "state_reason = ?", "updated_at_ms = ?", ...names.map((name) => `${name} = ?`)];
    const marks = change.from.map(() => "?").join(", ");
    const result = this.#db
      .prepare(`UPDATE assignments SET ${sets.join(", ")} WHERE call_id = ? AND state IN (${marks})`)
      .run(
        change.to,
        change.reason ?? null,
        this.#now(),
        ...names.map((name) => columns[name as keyof MoveColumns] ?? null),
        callId,
        ...change.from,
      );
    return result.changes === 1;
  }

  /**
   * The one guarded settling of receipts: moves the pending receipts of `callId` (every one) or the
   * receipt `receiptId` to `to` (an edge from `pending`, checked); answers how many moved.
   */
  #settleReceipts(
    callId: string | null,
    receiptId: string | null,
    to: OutboxState,
    columns: { readonly answer_json?: string; readonly reject_code?: string },
  ): number {
    if (!isOutboxEdge("pending", to)) throw new JournalTransitionError("outbox", "pending", to);
    const names = Object.keys(columns) as Array<keyof typeof columns>;
    const sets = ["state = ?", "updated_at_ms = ?", ...names.map((name) => `${name} = ?`)];
    const where = callId !== null ? "call_id = ?" : "receipt_id = ?";
    const result = this.#db
      .prepare(`UPDATE outbox SET ${sets.join(", ")} WHERE ${where} AND state = 'pending'`)
      .run(to, this.#now(), ...names.map((name) => columns[name] ?? null), callId ?? receiptId);
    return result.changes;
  }
}
