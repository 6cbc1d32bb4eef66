/**
 * From a journaled assignment (state `accepting`) to a running handler: deliver the journaled
 * `accepted` receipt (or read its journaled answer), and only on `confirmed: true` journal `running`
 * and start. `confirmed: false` (the run ended, the claim lapsed) abandons the call without running
 * anything. A call refused by the checks, or whose business cancel was requested before it started,
 * is confirmed and then reported `failed` / `cancelled` without running its handler.
 */

import type { ReceiptDraft } from "../receipt-body.js";
import { errorObject } from "../receipt-body.js";
import { journalReceipt } from "./journal-receipt.js";
import { ReceiptDelivery, type ReceiptResult } from "./receipt-delivery.js";
import { runHandler } from "./run-handler.js";
import type { RunnerRuntime } from "./runner-runtime.js";
import type { ToolSlot } from "./tool-slots.js";

/** A check that refused the call: it is reported `failed` with this code once confirmed. */
export interface AcceptRefusal {
  readonly code: string;
  readonly message: string;
}

/** Accepts `callId` (journal state `accepting`) and runs it when confirmed; releases `slot` in every case. */
export async function acceptAndRun(
  rt: RunnerRuntime,
  callId: string,
  slot: ToolSlot,
  refusal?: AcceptRefusal,
): Promise<void> {
  const { journal, stats, events, logger } = rt;
  let released = false;
  const release = (): void => {
    released = true;
    slot.release();
  };
  try {
    const result = await acceptedResult(rt, callId);
    if (result.type === "pending") return;
    if (result.type === "rejected" || result.answer.confirmed !== true) {
      const reason = result.type === "rejected" ? result.code : "not_confirmed";
      if (journal.abandon(callId, reason)) {
        stats.add("accepts_refused");
        rt.cancellations.forget(callId);
        logger.info("the call was not confirmed: it will not run here", { callId, reason });
        events.emit("abandoned", { callId, reason });
      }
      return;
    }
    if (!journal.transition(callId, { from: ["accepting"], to: "running", reason: "confirmed" })) return;
    const entry = journal.get(callId);
    if (entry === undefined) return;
    stats.add("accepts_confirmed");
    events.emit("confirmed", { callId, operationKey: entry.operationKey });

    const registration = rt.registry.get(entry.toolName);
    let instead: { draft: ReceiptDraft; code: string } | undefined;
    if (refusal !== undefined) {
      instead = { draft: { kind: "failed", error: errorObject(refusal.code, refusal.message) }, code: refusal.code };
    } else if (rt.cancellations.isRequested(callId)) {
      const error = errorObject("cancelled", "cancelled before the business task started");
      instead = { draft: { kind: "cancelled", error }, code: "cancelled" };
    } else if (registration === undefined) {
      const error = errorObject("tool_not_registered", `tool ${entry.toolName} is not registered in this executor`);
      instead = { draft: { kind: "failed", error }, code: "tool_not_registered" };
    }
    if (instead !== undefined) {
      // Nothing ran: the outcome is certain, no reconciliation needed.
      const receiptId = journalReceipt(rt, entry, instead.draft, {
        from: ["running"],
        to: "finishing",
        reason: instead.code,
      });
      release();
      if (receiptId === undefined) return;
      events.emit("result_journaled", { callId, receiptId, kind: instead.draft.kind });
      await rt.delivery.deliverCall(callId);
      return;
    }
    if (registration === undefined) return;
    released = true;
    await runHandler(rt, entry, registration, slot);
  } finally {
    if (!released) slot.release();
  }
}

/** The answer to the call's `accepted` receipt: delivering it when pending, else as journaled. */
async function acceptedResult(rt: RunnerRuntime, callId: string): Promise<ReceiptResult> {
  const accepted = rt.journal
    .receipts(callId)
    .filter((receipt) => receipt.kind === "accepted" && receipt.state !== "obsolete")
    .at(-1);
  if (accepted === undefined) return { type: "rejected", code: "no_accepted_receipt" };
  if (accepted.state !== "pending") return ReceiptDelivery.resultOf(accepted);
  const results = await rt.delivery.deliverCall(callId);
  return results.get(accepted.receiptId) ?? { type: "pending" };
}
