/**
 * What an executor should do about one call of its journal (pure): `calls/report` loads what the
 * server has (the call, its run's status, this executor's receipts for it) and asks `decideReport`.
 *
 * - Never confirmed to start by this executor (no `accepted` confirmed under its claim): if the run
 *   ended → `run_terminated` (do not execute); if the call ended or another executor holds it →
 *   `nothing`; if it still holds the unconfirmed claim and the server lacks its receipts → `redeliver`.
 * - Confirmed to start: the server lacks receipts the executor saved → `redeliver` (also after the
 *   run ended: late receipts are stored, the outcome is the product's truth); the outcome is unknown
 *   and no final receipt reconciled it → `reconcile`; otherwise `nothing`.
 * Compensation calls ignore their run's end (they are explicit business operations).
 */

import { FINAL_CALL_STATUSES, runFreezesCall } from "@toolhost/protocol";
import type { REPORT_ACTIONS, REPORT_REASONS, ReportedCall } from "@toolhost/protocol/wire";
import type { ReportFacts } from "../storage/storage.js";

/** One report action. */
export type ReportAction = keyof typeof REPORT_ACTIONS;

/** One report reason. */
export type ReportReason = keyof typeof REPORT_REASONS;

/** The decision for one reported call. */
export interface ReportDecision {
  readonly action: ReportAction;
  readonly reason: ReportReason;
}

const decision = (action: ReportAction, reason: ReportReason): ReportDecision => ({ action, reason });

/**
 * What the server has of the reported claim: receipt IDs count per claim, so when the report names
 * its claim only that claim's receipts are compared with the IDs it lists (another claim of the same
 * executor on the same call may have used the same IDs).
 */
export function factsOfReportedClaim(reported: ReportedCall, facts: ReportFacts | undefined): ReportFacts | undefined {
  if (facts === undefined || reported.claim_id === undefined) return facts;
  return { ...facts, receipts: facts.receipts.filter((receipt) => receipt.claim_id === reported.claim_id) };
}

/** The decision for `reported` by `executorId`, given what the server has (`facts`; undefined: no such call). */
export function decideReport(
  executorId: string,
  reported: ReportedCall,
  facts: ReportFacts | undefined,
): ReportDecision {
  if (facts === undefined) return decision("nothing", "unknown_call");
  const { call } = facts;
  const claimMatches = reported.claim_id === undefined || reported.claim_id === call.claim_id;
  const held = call.executor_id === executorId && call.claim_id !== null && claimMatches;
  const started = held && call.accepted_at_ms !== null;
  const held_ids = new Set(facts.receipts.map((receipt) => receipt.receipt_id));
  const listed = reported.receipt_ids ?? [];
  const missing = listed.some((receiptId) => !held_ids.has(receiptId));

  if (!started) {
    const runEnded = runFreezesCall(facts.run_status, call);
    if (runEnded) return decision("run_terminated", "run_ended");
    if (FINAL_CALL_STATUSES.has(call.status)) return decision("nothing", "call_closed");
    if (!held || call.status !== "claimed") return decision("nothing", "not_held");
    // Its claim is unconfirmed: what it still has to deliver is its `accepted` receipt.
    if (missing || listed.length === 0) return decision("redeliver", "missing_receipts");
    return decision("nothing", "up_to_date");
  }

  if (missing) return decision("redeliver", "missing_receipts");
  if (call.status === "reconciliation_required") return decision("reconcile", "reconciliation_open");
  if (call.status === "accepted") {
    if (reported.state === "pending_reconciliation") return decision("reconcile", "reconciliation_open");
    // It holds something to deliver that it did not name: let it send again (replays are harmless).
    if (listed.length === 0) return decision("redeliver", "missing_receipts");
    return decision("nothing", "up_to_date");
  }
  return decision("nothing", "settled");
}
