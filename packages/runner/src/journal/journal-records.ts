/**
 * What the journal holds: one assignment per call (the claim, its grant, the operation key and the
 * call as claimed) with the state of its execution, and the receipt outbox (each receipt's exact body,
 * journaled before it is sent). The states say what is left to do after a crash.
 */

import type { ReceiptKind, ToolEffect } from "@toolhost/protocol";

/** Where the execution of a call stands, as the journal records it. */
export const JOURNAL_STATES = {
  /** Operation key and assignment journaled, `accepted` journaled and maybe sent: the handler has NOT run. */
  accepting: "accepting",
  /** `confirmed: true` journaled: the handler may have started. Without a final receipt the outcome is unknown. */
  running: "running",
  /** The handler handed the call to long-running work under a deferred handle; `complete`/`fail` finishes it. */
  deferred: "deferred",
  /** The outcome is unknown (`reconciliation_required` journaled): waiting for the product's resolver. */
  reconciling: "reconciling",
  /** The final receipt is journaled; it is delivered until the server acknowledges it. */
  finishing: "finishing",
  /** The final receipt was acknowledged (or definitively refused): nothing left to do. */
  done: "done",
  /** Never started: `confirmed: false`, the run ended, or another claim took the call. */
  abandoned: "abandoned",
} as const;

/** One journal state. */
export type JournalState = keyof typeof JOURNAL_STATES;

/** States with nothing left to do. */
export const CLOSED_JOURNAL_STATES: ReadonlySet<JournalState> = new Set(["done", "abandoned"]);

/** Delivery states of an outbox receipt. */
export const OUTBOX_STATES = {
  /** Journaled, not yet acknowledged: sent (again) until the server answers. */
  pending: "pending",
  /** The server acknowledged it (a first answer or `replayed: true`). */
  delivered: "delivered",
  /** The server refused it for good (a 4xx such as `call_already_final`); never sent again. */
  rejected: "rejected",
  /** Belonged to a claim that lapsed before it was confirmed; never sent again. */
  obsolete: "obsolete",
} as const;

/** One outbox state. */
export type OutboxState = keyof typeof OUTBOX_STATES;

/** One call's assignment. */
export interface JournalEntry {
  readonly callId: string;
  readonly runId: string;
  readonly toolName: string;
  readonly effect: ToolEffect;
  readonly executorId: string;
  readonly claimId: string;
  /** The per-call grant (a secret: the journal file must be protected like the API key). */
  readonly grant: string;
  readonly operationKey: string;
  /** The claimed call's compact JSON. */
  readonly callJson: string;
  readonly state: JournalState;
  /** Why the state was reached (a stable code), when it says more than the state. */
  readonly stateReason: string | null;
  /** The deferred handle, once the handler deferred the call. */
  readonly handleId: string | null;
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
}

/** One outbox receipt. */
export interface OutboxReceipt {
  readonly receiptId: string;
  readonly callId: string;
  /** Journal order (increasing): receipts of a call are delivered in this order. */
  readonly seq: number;
  readonly kind: ReceiptKind;
  /** The exact body text sent on every delivery. */
  readonly bodyText: string;
  readonly state: OutboxState;
  readonly attempts: number;
  /** The server's answer text, once delivered. */
  readonly answerJson: string | null;
  /** The error code, once rejected. */
  readonly rejectCode: string | null;
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
}

/** A receipt about to be journaled. */
export interface NewReceipt {
  readonly receiptId: string;
  readonly kind: ReceiptKind;
  readonly bodyText: string;
}

/** A new assignment. */
export interface NewAssignment {
  readonly callId: string;
  readonly runId: string;
  readonly toolName: string;
  readonly effect: ToolEffect;
  readonly executorId: string;
  readonly claimId: string;
  readonly grant: string;
  readonly operationKey: string;
  readonly callJson: string;
}

/** What journaling an assignment did. */
export type AssignOutcome =
  /** Journaled (a new call, or a new claim replacing one that never started). */
  | { readonly type: "journaled" }
  /** The same claim is journaled already: continue from its entry. */
  | { readonly type: "same_claim"; readonly entry: JournalEntry }
  /** The call started under another claim: never accept it again. */
  | { readonly type: "conflict"; readonly entry: JournalEntry };
