/**
 * Recovery after a restart (pure): what to report to the server for each journal entry, and what to
 * do with the server's answer. The journal's state is the executor's truth about its own progress
 * (in particular `accepting` proves the handler never ran, because `running` is journaled before it is
 * called); the report answer is the server's truth about the call. A write handler whose call was
 * confirmed is never run again: without a journaled result its call goes to reconciliation.
 */

import { FINAL_CALL_STATUSES, isCallStatus } from "@toolhost/protocol";
import type { CallReport, ReportedCall } from "@toolhost/protocol/wire";
import type { JournalEntry, OutboxReceipt } from "../journal/journal-records.js";

/** Most receipt IDs the server takes per reported call. */
export const REPORTED_RECEIPT_IDS_MAX = 100;

/** What to do about one journal entry after the report. */
export type RecoveryStep =
  /** `accepted` may not have reached the server: send it again; run the handler only on `confirmed: true`. */
  | { readonly type: "resume_accept" }
  /** The call never started here and never will: mark it abandoned. */
  | { readonly type: "abandon"; readonly reason: string }
  /** Redeliver the journaled receipts (same IDs and bodies); a delivered final receipt closes the call. */
  | { readonly type: "deliver" }
  /** Outcome unknown: (journal and send `reconciliation_required` when `sendUnknown`), then ask the resolver. */
  | { readonly type: "reconcile"; readonly sendUnknown: boolean }
  /** A read tool without a result: run its handler again (reads have no side effect). */
  | { readonly type: "rerun" }
  /** Nothing is left to do on the server's side: mark the call done. */
  | { readonly type: "close"; readonly reason: string }
  /** Not part of the report (deferred calls): leave it as it is. */
  | { readonly type: "wait" };

/** Reasons meaning the call is not (or no longer) this executor's to run. */
const NOT_OURS: ReadonlySet<string> = new Set(["unknown_call", "call_closed", "not_held", "run_ended"]);

/** The reported form of `entry`, or undefined when it is not reported (deferred, closed). */
export function reportedCallOf(entry: JournalEntry, receipts: readonly OutboxReceipt[]): ReportedCall | undefined {
  let state: ReportedCall["state"];
  switch (entry.state) {
    case "accepting":
    case "finishing":
      state = "pending_delivery";
      break;
    case "running":
      state = entry.effect === "read" ? "pending_delivery" : "pending_reconciliation";
      break;
    case "reconciling":
      state = "pending_reconciliation";
      break;
    default:
      return undefined;
  }
  // Pending receipts first: those are the ones whose arrival is in doubt.
  const listed = receipts.filter((receipt) => receipt.state !== "obsolete");
  const ordered = [...listed.filter((r) => r.state === "pending"), ...listed.filter((r) => r.state !== "pending")];
  return {
    call_id: entry.callId,
    claim_id: entry.claimId,
    state,
    receipt_ids: ordered.slice(0, REPORTED_RECEIPT_IDS_MAX).map((receipt) => receipt.receiptId),
  };
}

/** The step for `entry` given the server's `report` of it (undefined: the server said nothing about it). */
export function planRecovery(entry: JournalEntry, report: CallReport | undefined): RecoveryStep {
  if (entry.state === "deferred" || entry.state === "done" || entry.state === "abandoned") return { type: "wait" };
  if (report === undefined) return { type: "wait" };
  const notOurs = report.action === "run_terminated" || (report.action === "nothing" && NOT_OURS.has(report.reason));
  const status = report.status;
  const final = status !== null && isCallStatus(status) && FINAL_CALL_STATUSES.has(status);

  switch (entry.state) {
    case "accepting":
      // The handler never ran: the call may still be started, unless it is not ours any more.
      if (notOurs || report.reason === "settled") return { type: "abandon", reason: report.reason };
      return { type: "resume_accept" };
    case "running":
      if (notOurs) return { type: "close", reason: report.reason };
      if (final) return { type: "close", reason: "settled" };
      if (entry.effect === "read") return { type: "rerun" };
      return { type: "reconcile", sendUnknown: status !== "reconciliation_required" };
    case "reconciling":
      if (notOurs) return { type: "close", reason: report.reason };
      if (final) return { type: "close", reason: "settled" };
      return { type: "reconcile", sendUnknown: false };
    case "finishing":
      return { type: "deliver" };
  }
}
