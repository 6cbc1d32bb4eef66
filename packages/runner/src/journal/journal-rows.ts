/**
 * The journal's rows as SQLite holds them, and their mapping to and from the records the runner uses.
 */

import type { ReceiptKind, ToolEffect } from "@toolhost/protocol";
import type { JournalEntry, JournalState, NewAssignment, OutboxReceipt, OutboxState } from "./journal-records.js";

/** An `assignments` row. */
export interface AssignmentRow {
  call_id: string;
  run_id: string;
  tool_name: string;
  effect: string;
  executor_id: string;
  claim_id: string;
  grant_secret: string;
  operation_key: string;
  call_json: string;
  state: string;
  state_reason: string | null;
  handle_id: string | null;
  created_at_ms: number;
  updated_at_ms: number;
}

/** An `outbox` row. */
export interface OutboxRow {
  seq: number;
  receipt_id: string;
  call_id: string;
  kind: string;
  body_text: string;
  state: string;
  attempts: number;
  answer_json: string | null;
  reject_code: string | null;
  created_at_ms: number;
  updated_at_ms: number;
}

export /** Columns an assignment's state change may rewrite besides its state (assign, defer). */
type MoveColumns = Partial<Record<keyof AssignmentRow, string | number | null>>;

/** The assignment columns in INSERT order (`run_id` … `call_json`). */
export function assignmentValues(a: NewAssignment): [string, string, string, string, string, string, string, string] {
  return [a.runId, a.toolName, a.effect, a.executorId, a.claimId, a.grant, a.operationKey, a.callJson];
}

/** The columns a new claim rewrites when it replaces one that never started. */
export function assignmentColumns(a: NewAssignment): MoveColumns {
  return {
    run_id: a.runId,
    tool_name: a.toolName,
    effect: a.effect,
    executor_id: a.executorId,
    claim_id: a.claimId,
    grant_secret: a.grant,
    operation_key: a.operationKey,
    call_json: a.callJson,
  };
}

/** The entry of an `assignments` row. */
export function entryOf(row: AssignmentRow): JournalEntry {
  return {
    callId: row.call_id,
    runId: row.run_id,
    toolName: row.tool_name,
    effect: row.effect as ToolEffect,
    executorId: row.executor_id,
    claimId: row.claim_id,
    grant: row.grant_secret,
    operationKey: row.operation_key,
    callJson: row.call_json,
    state: row.state as JournalState,
    stateReason: row.state_reason,
    handleId: row.handle_id,
    createdAtMs: row.created_at_ms,
    updatedAtMs: row.updated_at_ms,
  };
}

/** The receipt of an `outbox` row. */
export function receiptOf(row: OutboxRow): OutboxReceipt {
  return {
    receiptId: row.receipt_id,
    callId: row.call_id,
    seq: row.seq,
    kind: row.kind as ReceiptKind,
    bodyText: row.body_text,
    state: row.state as OutboxState,
    attempts: row.attempts,
    answerJson: row.answer_json,
    rejectCode: row.reject_code,
    createdAtMs: row.created_at_ms,
    updatedAtMs: row.updated_at_ms,
  };
}
