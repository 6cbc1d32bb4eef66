/**
 * How call flows (receipts, deadlines, cancellations) tell a run that one of its calls settled.
 * The runs area implements it: it records the outcome in the run's history (the projection of a
 * result is computed here, once, and stored) and, when the turn's last call settled, marks the run
 * ready — inside the caller's transaction; the turn engine makes the next turn after its commit.
 */

import type { JsonValue, MeasuredResult, ResultType, RunStatus } from "@toolhost/protocol";
import type { CallRecord, RunRecord } from "../storage/records.js";
import type { Stores } from "../storage/storage.js";

/** What became of a call, as the run must learn it. */
export type CallOutcome =
  /** A `completed` receipt: its result, measured once, and how to project it. */
  | { kind: "completed"; receipt_id: string; result: MeasuredResult; result_type: ResultType }
  /** A `failed` receipt: the product's error object. */
  | { kind: "failed"; receipt_id: string; error: JsonValue }
  /** A `cancelled` receipt, or (receipt_id null) a call cancelled before anyone started it. */
  | { kind: "cancelled"; receipt_id: string | null }
  /** A `reconciliation_required` receipt, or (receipt_id null) an accepted call silent past its deadline. */
  | { kind: "reconciliation_required"; receipt_id: string | null }
  /** Nobody claimed (or confirmed a claim on) the call before its deadline. */
  | { kind: "expired" };

/** What the run did with an outcome. */
export interface RunProgressAnswer {
  /** False when the run had already ended: nothing was added to its history. */
  applied: boolean;
  /** The run's status after this outcome (before the next turn, when the run became ready). */
  run_status: RunStatus;
  /** True when the outcome settled the turn: the run waits for the turn engine (`RunProgress.advanced`). */
  ready?: true;
  /** The history item the outcome went into and where in it its preview's result text is (when applied). */
  result_text?: HistoryResultText;
}

/** Where a tool_result item's result text is: item `seq`, UTF-16 offsets [from, from + text.length). */
export interface HistoryResultText {
  readonly seq: number;
  readonly from: number;
  readonly text: string;
}

/**
 * What the caller already knows when it locked the run BEFORE settling the call (the receipt flow):
 * the run as locked, and how many other calls of the call's turn were unsettled when it settled it.
 * Spares reading the run again and listing the turn's calls.
 */
export interface LockedRunFacts {
  readonly run: RunRecord;
  readonly others_unsettled: number;
}

/** Records settled calls in their run and advances the run. */
export interface RunProgress {
  /**
   * Inside the transaction that changed `call` (whose record already holds its new status): appends
   * the outcome to the run's history when the run is active — a later reconciled outcome as a new
   * item, never rewriting the earlier one — and, when no call of the turn is left unsettled, marks
   * the run ready for the turn engine. Compensation calls never enter the history. `locked`: see
   * LockedRunFacts.
   */
  callSettled(
    stores: Stores,
    call: CallRecord,
    outcome: CallOutcome,
    nowMs: number,
    locked?: LockedRunFacts,
  ): Promise<RunProgressAnswer>;
  /**
   * After the commit that made `runId` ready: waits for the turn engine's turn of it and answers the
   * run's status then (undefined when the engine did not advance it: stopped, or the turn failed).
   */
  advanced(runId: string): Promise<RunStatus | undefined>;
}
