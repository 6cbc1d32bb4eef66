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

/** The state a call is journaled in first (with its assignment and `accepted` receipt). */
export const JOURNAL_INITIAL_STATE = "accepting" satisfies JournalState;

/**
 * The journal's state machine: the states each state may move to, and nothing else. Every state change
 * goes through `Journal`'s one guarded transition, which throws JournalTransitionError on any other
 * step (a bug, never a runtime condition); the file's own trigger refuses them too.
 */
export const JOURNAL_TRANSITIONS = {
  /** Confirmed (`running`), never to start (`abandoned`), or re-journaled under a new claim (`accepting`). */
  accepting: ["accepting", "running", "abandoned"],
  /** Deferred by its handler, outcome journaled (`finishing`) or unknown (`reconciling`), or closed by recovery. */
  running: ["deferred", "finishing", "reconciling", "done"],
  /** Finished by `complete`/`fail` or its handler (`finishing`), or its handler threw after deferring. */
  deferred: ["finishing", "reconciling"],
  /** The resolver's terminal receipt is journaled (`finishing`), or recovery found nothing left (`done`). */
  reconciling: ["finishing", "done"],
  /** Every receipt is delivered or refused for good. */
  finishing: ["done"],
  /** Terminal. */
  done: [],
  /** A later claim of the same call (the old one lapsed unconfirmed) journals it again. */
  abandoned: ["accepting"],
} as const satisfies Record<JournalState, readonly JournalState[]>;

/** True when the journal may move a call from `from` to `to`. */
export function isJournalEdge(from: JournalState, to: JournalState): boolean {
  return (JOURNAL_TRANSITIONS[from] as readonly JournalState[]).includes(to);
}

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

/** The outbox's state machine: a receipt is journaled `pending` and settles once, for good. */
export const OUTBOX_TRANSITIONS = {
  /** Acknowledged, refused for good, or retired with its lapsed claim. */
  pending: ["delivered", "rejected", "obsolete"],
  /** Terminal. */
  delivered: [],
  /** Terminal. */
  rejected: [],
  /** Terminal. */
  obsolete: [],
} as const satisfies Record<OutboxState, readonly OutboxState[]>;

/** True when the outbox may move a receipt from `from` to `to`. */
export function isOutboxEdge(from: OutboxState, to: OutboxState): boolean {
  return (OUTBOX_TRANSITIONS[from] as readonly OutboxState[]).includes(to);
}

/** A journal write asked for a step its state machine does not have (a bug in the runner). */
export class JournalTransitionError extends Error {
  constructor(
    readonly table: "assignments" | "outbox",
    readonly from: string,
    readonly to: string,
  ) {
    super(`the journal refuses the step ${from} -> ${to} of ${table}: not an edge of its state machine`);
    this.name = "JournalTransitionError";
  }
}

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
