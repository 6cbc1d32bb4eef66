/**
 * Reconciliation of a write call whose outcome is unknown. The runner never runs its handler again:
 * it makes sure the server knows the outcome is unknown (`reconciliation_required`, journaled before
 * it is sent), then asks the product's resolver what happened — typically by looking the operation key
 * up in the product's own store — and journals and delivers the terminal receipt it answers. A resolver
 * that is missing, throws or cannot tell yet leaves the call `reconciling`; it is asked again later.
 */

import { draftOfReconcile } from "../decisions/reconcile-outcome.js";
import { errorObject } from "../receipt-body.js";
import { callFromJournal } from "../tool-call.js";
import { journalReceipt } from "./journal-receipt.js";
import type { RunnerRuntime } from "./runner-runtime.js";

/** How a reconciliation ended. */
export type ReconcileResult = "resolved" | "unresolved" | "not_reconciling";

/** The code of the `reconciliation_required` the runner sends for a call found running after a restart. */
export const UNKNOWN_AFTER_RESTART = "outcome_unknown_after_restart";

/** Settings of one reconciliation. */
export interface ReconcileSettings {
  /** For a call still `running`: journal and send `reconciliation_required` first (false: the server has it already). */
  readonly sendUnknown: boolean;
}

/** Reconciles `callId`. */
export async function reconcileCall(
  rt: RunnerRuntime,
  callId: string,
  settings: ReconcileSettings,
): Promise<ReconcileResult> {
  const { journal, logger, stats, events, registry } = rt;
  let entry = journal.get(callId);
  if (entry === undefined) return "not_reconciling";
  if (entry.state === "running") {
    const moved = settings.sendUnknown
      ? journalReceipt(
          rt,
          entry,
          {
            kind: "reconciliation_required",
            error: errorObject(
              UNKNOWN_AFTER_RESTART,
              "the executor restarted before it journaled the handler's outcome",
            ),
          },
          { from: ["running"], to: "reconciling", reason: UNKNOWN_AFTER_RESTART },
        ) !== undefined
      : journal.transition(callId, { from: ["running"], to: "reconciling", reason: "server_reconciliation_required" });
    if (moved)
      events.emit("reconciliation_required", { callId, operationKey: entry.operationKey, code: UNKNOWN_AFTER_RESTART });
    entry = journal.get(callId);
  }
  if (entry?.state !== "reconciling") return "not_reconciling";
  // The server hears "unknown" before it hears the outcome.
  await rt.delivery.deliverCall(callId);
  const resolver = registry.resolver(entry.toolName);
  if (resolver === undefined) {
    stats.add("reconciliations_unresolved");
    logger.warn("no onReconcile resolver for this tool: the call stays unresolved", { callId, tool: entry.toolName });
    return "unresolved";
  }
  stats.add("reconciliations_started");
  let outcome: Awaited<ReturnType<typeof resolver>>;
  try {
    outcome = await resolver(callFromJournal(entry.callJson, entry.claimId), entry.operationKey);
  } catch (error) {
    stats.add("reconciliations_unresolved");
    logger.error("the onReconcile resolver threw; it is asked again later", { callId, error });
    return "unresolved";
  }
  if (outcome === null || outcome === undefined) {
    stats.add("reconciliations_unresolved");
    logger.info("the resolver cannot tell yet; asked again later", { callId });
    return "unresolved";
  }
  const draft = draftOfReconcile(outcome, registry.get(entry.toolName)?.resultType);
  if (!draft.ok) {
    stats.add("reconciliations_unresolved");
    logger.error("the resolver's answer cannot be sent; asked again later", { callId, reason: draft.reason });
    return "unresolved";
  }
  const receiptId = journalReceipt(rt, entry, draft.draft, {
    from: ["reconciling"],
    to: "finishing",
    reason: "reconciled",
  });
  if (receiptId === undefined) return "not_reconciling";
  stats.add("reconciliations_resolved");
  events.emit("reconciled", { callId, operationKey: entry.operationKey, kind: draft.draft.kind });
  events.emit("result_journaled", { callId, receiptId, kind: draft.draft.kind });
  await rt.delivery.deliverCall(callId);
  return "resolved";
}
