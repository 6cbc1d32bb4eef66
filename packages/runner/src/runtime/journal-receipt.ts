/**
 * Journaling a receipt of a call: its exact body text is written to the outbox (with the state
 * condition and change the flow needs, in one transaction) before anything is sent.
 */

import type { StateCondition } from "../journal/journal.js";
import type { JournalEntry } from "../journal/journal-records.js";
import { newReceiptId, type ReceiptDraft, receiptBodyText } from "../receipt-body.js";
import type { RunnerRuntime } from "./runner-runtime.js";

/** Journals `draft` for `entry`'s claim; answers the receipt ID, or undefined when `condition` failed. */
export function journalReceipt(
  rt: RunnerRuntime,
  entry: JournalEntry,
  draft: ReceiptDraft,
  condition?: StateCondition,
): string | undefined {
  const receiptId = newReceiptId(draft.kind);
  const bodyText = receiptBodyText(
    { receiptId, executorId: entry.executorId, claimId: entry.claimId, grant: entry.grant },
    draft,
  );
  if (!rt.journal.appendReceipt(entry.callId, { receiptId, kind: draft.kind, bodyText }, condition)) return undefined;
  rt.stats.add("receipts_journaled");
  rt.events.emit("receipt_journaled", { callId: entry.callId, receiptId, kind: draft.kind });
  return receiptId;
}
