/**
 * Finishing deferred calls. A handler that deferred its call left a handle in the journal; any
 * process opening the same journal can finish it: the final receipt is journaled (deferred →
 * finishing, in one transaction, so two finishers never both win) and then delivered. A process that
 * only finishes calls (never started) tries for a bounded time and leaves the receipt in the outbox,
 * where the started runner's sweep delivers it.
 */

import { isBusinessError, isCancelledError, RunnerError } from "../errors.js";
import type { JournalEntry } from "../journal/journal-records.js";
import { toJsonValue } from "../json-value.js";
import { errorObject, type ReceiptDraft } from "../receipt-body.js";
import type { RunnerCounter } from "../stats.js";
import type { DeferredHandle } from "../tool-context.js";
import { journalReceipt } from "./journal-receipt.js";
import type { DeliverySettings } from "./receipt-delivery.js";
import type { RunnerRuntime } from "./runner-runtime.js";

/** What finishing a deferred call did. */
export interface FinishResult {
  readonly callId: string;
  readonly receiptId: string;
  /** True once the server acknowledged the receipt; false when it waits in the outbox (or was refused). */
  readonly delivered: boolean;
  /** The server's refusal code, when it refused the receipt for good. */
  readonly rejectedCode: string | null;
}

/** An error a deferred call fails with: a BusinessError, a CancelledError, any Error, or `{code, message}`. */
export type DeferredError =
  | Error
  | { readonly code: string; readonly message: string; readonly details?: Record<string, unknown> };

/** The draft of `runner.fail(handle, error)`: CancelledError → `cancelled`, anything else → `failed`. */
export function failureDraft(error: DeferredError): ReceiptDraft {
  const details = (error as { details?: Record<string, unknown> }).details;
  const json = details === undefined ? undefined : toJsonValue(details);
  if (isCancelledError(error)) return { kind: "cancelled", error: errorObject("cancelled", error.message, json) };
  if (isBusinessError(error)) return { kind: "failed", error: errorObject(error.code, error.message, json) };
  if (error instanceof Error) return { kind: "failed", error: errorObject("failed", error.message, json) };
  return { kind: "failed", error: errorObject(String(error.code), String(error.message), json) };
}

/** Journals and delivers the final receipt of the deferred call `handle`. */
export async function finishDeferred(
  rt: RunnerRuntime,
  handle: DeferredHandle | string,
  draft: ReceiptDraft,
  counter: RunnerCounter,
): Promise<FinishResult> {
  const entry = entryOf(rt, handle);
  const receiptId = journalReceipt(rt, entry, draft, {
    from: ["deferred"],
    to: "finishing",
    reason: `deferred_${draft.kind}`,
  });
  if (receiptId === undefined) {
    throw new RunnerError("handle_finished", `deferred call ${entry.callId} is already finished`, {
      callId: entry.callId,
    });
  }
  rt.stats.add(counter);
  rt.events.emit("result_journaled", { callId: entry.callId, receiptId, kind: draft.kind });
  const result = (await rt.delivery.deliverCall(entry.callId, deliverySettings(rt))).get(receiptId);
  return {
    callId: entry.callId,
    receiptId,
    delivered: result?.type === "acked",
    rejectedCode: result?.type === "rejected" ? result.code : null,
  };
}

/** Journals and delivers a progress receipt of the deferred call `handle`. */
export async function deferredProgress(
  rt: RunnerRuntime,
  handle: DeferredHandle | string,
  data: Record<string, unknown>,
): Promise<void> {
  const entry = entryOf(rt, handle);
  const receiptId = journalReceipt(
    rt,
    entry,
    { kind: "progress", progress: toJsonValue(data) },
    { from: ["deferred"] },
  );
  if (receiptId === undefined) {
    throw new RunnerError("handle_finished", `deferred call ${entry.callId} is already finished`, {
      callId: entry.callId,
    });
  }
  await rt.delivery.deliverCall(entry.callId, deliverySettings(rt));
}

function entryOf(rt: RunnerRuntime, handle: DeferredHandle | string): JournalEntry {
  const handleId = typeof handle === "string" ? handle : handle?.id;
  const entry = typeof handleId === "string" ? rt.journal.byHandle(handleId) : undefined;
  if (entry === undefined)
    throw new RunnerError("unknown_handle", `no deferred call has handle ${JSON.stringify(handleId)}`);
  return entry;
}

/** A started runner keeps trying; a finishing-only process leaves the receipt to the started one. */
function deliverySettings(rt: RunnerRuntime): DeliverySettings {
  return rt.lifecycle.started ? {} : { giveUpAfterMs: rt.options.stopDeliveryTimeoutMs };
}
