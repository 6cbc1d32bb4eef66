/**
 * What a receipt does (pure): given the call as stored, its run's status, the receipt this claim stored
 * earlier under the same ID (if any) and the incoming receipt, decide — replay, refuse with a stable
 * code, or store the receipt with at most one status change taken from the call transition table.
 * The handler loads, checks that the sending key owns the receipt's executor, calls this, writes what
 * it says and answers.
 *
 * - The grant must be authentic: the server's signature of (claim, call, executor, sending key), or —
 *   for the claim holding the call — exactly the grant issued to it (the row keeps its hash), which
 *   keeps a claim's grant working after its executor reconnected with a new key and grants issued
 *   before the signed input became a JSON array. Anything else is 403 `invalid_grant`.
 * - The same receipt ID (of the same claim) with the same body digest is a replay: nothing changes,
 *   the answer is the first one with `replayed: true`, except that it tells what is true NOW — the
 *   call's and run's current statuses, and for `accepted` a live `confirmed` (`confirmedNow`), so a
 *   confirmation never outlives the deadline, the run or the claim. Another body is 409
 *   `receipt_conflict` — also after the deadline, so a redelivery is answered.
 * - After the call's deadline the grant has expired (403 `invalid_grant`) for everything but one use:
 *   the claim that accepted the call reporting its outcome, so a reconciliation can always be reported.
 * - `accepted` is confirmed only for the claim that holds the call, inside its accept window, while the
 *   run is active (a compensation call: whatever the run); otherwise `confirmed: false`, stored.
 * - `progress` and final kinds need the call accepted by this claim (409 `accept_required`); a call
 *   that already has its final receipt refuses another (409 `call_already_final`).
 * - A `progress` value larger than `maxProgressBytes` (compact JSON) is 413 `progress_too_large`; a
 *   call that has `maxProgressPerCall` progress receipts stored refuses more (409
 *   `progress_limit_exceeded`). Nothing is stored; final receipts are never refused for these.
 * - On an ended run (not a compensation call) a final receipt still moves the call (the product's
 *   truth), but `applied` is false and the run and its history stay as they are.
 */

import {
  type CallStatus,
  FINAL_CALL_STATUSES,
  FINAL_RECEIPT_KINDS,
  ProtocolError,
  RECEIPT_EVENTS,
  type RunStatus,
  runFreezesCall,
  transitionCall,
} from "@toolhost/protocol";
import type { CallOutcome } from "../runs/run-progress.js";
import type { CallRecord, ReceiptFacts } from "../storage/records.js";
import { grantHash, secretsEqual } from "./grant.js";
import type { IncomingReceipt } from "./receipt-body.js";

/** The incoming receipt and whether its grant is the server's signature of its claim, call, executor and sending key. */
export interface VerifiedReceipt extends IncomingReceipt {
  readonly grant_authentic: boolean;
}

/** The status change a stored receipt makes. */
export type ReceiptCallChange =
  /** `claimed` → `accepted` (conditional on the accept window). */
  | { readonly type: "accept" }
  /** A settling change `from` → `to`, and what the run must learn of it. */
  | { readonly type: "settle"; readonly from: CallStatus; readonly to: CallStatus; readonly outcome: CallOutcome };

/** What to do with a receipt. */
export type ReceiptDecision =
  /** Seen before with the same body: `answer_json` is the replay's answer (`replayedAnswer`); nothing changes. */
  | { readonly type: "replay"; readonly answer_json: string }
  /** Refused: nothing is stored. */
  | { readonly type: "refuse"; readonly error: ProtocolError }
  /** Store the receipt, apply `change` (if any) and answer. */
  | {
      readonly type: "store";
      readonly change: ReceiptCallChange | null;
      /** Only for `accepted`. */
      readonly confirmed: boolean | undefined;
      /** Whether the receipt counts for the run (a settling change may still learn false from the run). */
      readonly applied: boolean;
      /** The call's status once the change is made. */
      readonly call_status: CallStatus;
    };

/** The progress limits (server options) and how many progress receipts the call has stored. */
export interface ProgressFacts {
  readonly stored: number;
  readonly maxPerCall: number;
  readonly maxBytes: number;
}

/** Decides what `incoming` does to `call` (of a run in `runStatus`) at `nowMs`. */
export function decideReceipt(
  call: CallRecord,
  runStatus: RunStatus,
  existing: ReceiptFacts | undefined,
  incoming: VerifiedReceipt,
  nowMs: number,
  progress: ProgressFacts,
): ReceiptDecision {
  if (!incoming.grant_authentic && !holdsCall(call, incoming))
    return refuse("invalid_grant", "the grant does not belong to this call, claim, executor and key");
  if (existing !== undefined) {
    if (existing.body_digest === incoming.body_digest) {
      const confirmed = incoming.kind === "accepted" ? confirmedNow(call, runStatus, incoming, nowMs) : undefined;
      return {
        type: "replay",
        answer_json: replayedAnswer(existing, {
          confirmed,
          call_status: call.status,
          run_status: runStatus,
        }),
      };
    }
    return refuse(
      "receipt_conflict",
      `receipt ${JSON.stringify(incoming.receipt_id)} was sent before with another body`,
      {
        receipt_id: incoming.receipt_id,
      },
    );
  }
  const holds = holdsCall(call, incoming);
  const status = call.status;
  if (nowMs >= call.deadline_ms && !reportsOutcome(status, incoming, holds)) {
    return refuse("invalid_grant", "the grant expired with the call's deadline");
  }

  const runActive = !runFreezesCall(runStatus, call);
  const keep = (confirmed: boolean | undefined, applied: boolean): ReceiptDecision => ({
    type: "store",
    change: null,
    confirmed,
    applied,
    call_status: status,
  });

  if (incoming.kind === "accepted") {
    if (!holds || !runActive) return keep(false, false);
    if (status === "accepted") return keep(confirmedNow(call, runStatus, incoming, nowMs), true);
    const accept = transitionCall(status, "accept");
    if (accept.ok && call.accept_deadline_ms !== null && nowMs <= call.accept_deadline_ms) {
      return { type: "store", change: { type: "accept" }, confirmed: true, applied: true, call_status: accept.to };
    }
    return keep(false, false);
  }

  if (holds && FINAL_CALL_STATUSES.has(status)) {
    return refuse("call_already_final", `the call is already ${status}`, { call_status: status });
  }
  if (!holds || (status !== "accepted" && status !== "reconciliation_required")) {
    return refuse(
      "accept_required",
      "this claim must be accepted (confirmed) before it reports progress or an outcome",
      {
        call_status: status,
      },
    );
  }
  if (incoming.kind === "progress") {
    const bytes = incoming.progress_bytes ?? 0;
    if (bytes > progress.maxBytes) {
      return refuse(
        "progress_too_large",
        `the progress value is ${bytes} bytes as compact JSON, over the server's ${progress.maxBytes}`,
        { bytes, maximum: progress.maxBytes },
      );
    }
    if (progress.stored >= progress.maxPerCall) {
      return refuse(
        "progress_limit_exceeded",
        `the call has ${progress.stored} progress receipts, the most the server keeps per call; send its final receipt`,
        { stored: progress.stored, maximum: progress.maxPerCall },
      );
    }
    return keep(undefined, runActive);
  }

  const event = RECEIPT_EVENTS[incoming.kind];
  const transition = event === null ? undefined : transitionCall(status, event);
  if (transition === undefined || !transition.ok) {
    return refuse(
      "call_already_final",
      `the call is already ${status}; it takes a completed, failed or cancelled receipt`,
      {
        call_status: status,
      },
    );
  }
  return {
    type: "store",
    change: { type: "settle", from: status, to: transition.to, outcome: outcomeOf(incoming) },
    confirmed: undefined,
    applied: runActive,
    call_status: transition.to,
  };
}

/**
 * Whether an `accepted` of this claim is a go-ahead at `nowMs`: the claim holds the call in `accepted`,
 * the call's deadline has not come and the run does not freeze the call. A replayed `accepted` answers
 * this, not the stored first answer: a runner that lost its first answer must not start work on a call
 * that moved on (deadline passed, reconciliation required, run ended or cancelled, claim lapsed).
 */
export function confirmedNow(
  call: CallRecord,
  runStatus: RunStatus,
  incoming: VerifiedReceipt,
  nowMs: number,
): boolean {
  return (
    call.status === "accepted" &&
    nowMs < call.deadline_ms &&
    !runFreezesCall(runStatus, call) &&
    holdsCall(call, incoming)
  );
}

/** What a replay answers that the stored first answer cannot know: the facts as they are now. */
export interface ReplayFacts {
  /** Only for `accepted` (undefined otherwise). */
  readonly confirmed: boolean | undefined;
  readonly call_status: CallStatus;
  readonly run_status: RunStatus;
}

/** The answer of a receipt, in wire member order (`confirmed` only for `accepted`). */
export interface ReceiptAnswer {
  readonly receipt_id: string;
  readonly kind: string;
  readonly replayed: boolean;
  readonly confirmed?: boolean;
  readonly applied: boolean;
  readonly call_status: string;
  readonly run_status: string;
}

/** A receipt's answer as JSON text, its members in wire order. */
export function receiptAnswerJson(answer: ReceiptAnswer): string {
  const { receipt_id, kind, replayed, confirmed, applied, call_status, run_status } = answer;
  return JSON.stringify({
    receipt_id,
    kind,
    replayed,
    ...(confirmed === undefined ? {} : { confirmed }),
    applied,
    call_status,
    run_status,
  });
}

/**
 * Whether a first answer has the members every answer has had since 0019 — `confirmed` exactly for
 * `accepted` — so a replay can rebuild it from the receipt's columns and it is stored as NULL.
 */
export function answerRebuildable(kind: string, confirmed: boolean | undefined): boolean {
  return (confirmed !== undefined) === (kind === "accepted");
}

/**
 * The answer to a replay: the stored first answer (its members in their order, `applied` as first
 * decided) with `replayed: true` and the current `confirmed`, `call_status` and `run_status`. A first
 * answer stored as NULL (`answerRebuildable`) is rebuilt from the receipt's ID, kind and `applied`.
 */
export function replayedAnswer(
  first: Pick<ReceiptFacts, "receipt_id" | "kind" | "applied" | "answer_json">,
  now: ReplayFacts,
): string {
  if (first.answer_json === null) {
    return receiptAnswerJson({
      receipt_id: first.receipt_id,
      kind: first.kind,
      replayed: true,
      ...(now.confirmed === undefined ? {} : { confirmed: now.confirmed }),
      applied: first.applied,
      call_status: now.call_status,
      run_status: now.run_status,
    });
  }
  const answer = JSON.parse(first.answer_json) as Record<string, unknown>;
  answer.replayed = true;
  if (now.confirmed !== undefined) answer.confirmed = now.confirmed;
  answer.call_status = now.call_status;
  answer.run_status = now.run_status;
  return JSON.stringify(answer);
}

/**
 * True for the one use a grant keeps after the call's deadline: the claim that accepted the call
 * reporting its outcome (the product's reconciled truth must never be locked out).
 */
function reportsOutcome(status: CallStatus, incoming: VerifiedReceipt, holds: boolean): boolean {
  return (
    holds && FINAL_RECEIPT_KINDS.has(incoming.kind) && (status === "accepted" || status === "reconciliation_required")
  );
}

/** True when the receipt's claim and executor are the ones holding the call (its grant hash matches). */
function holdsCall(call: CallRecord, incoming: VerifiedReceipt): boolean {
  return (
    call.claim_id === incoming.claim_id &&
    call.executor_id === incoming.executor_id &&
    call.grant_hash !== null &&
    secretsEqual(call.grant_hash, grantHash(incoming.grant))
  );
}

/** What the run learns of a settling receipt. */
function outcomeOf(incoming: VerifiedReceipt): CallOutcome {
  switch (incoming.kind) {
    case "completed":
      if (incoming.result === undefined) throw new Error("a completed receipt without a result passed the body checks");
      return {
        kind: "completed",
        receipt_id: incoming.receipt_id,
        result: incoming.result,
        result_type: incoming.result_type,
      };
    case "failed":
      return { kind: "failed", receipt_id: incoming.receipt_id, error: incoming.error ?? null };
    case "cancelled":
      return { kind: "cancelled", receipt_id: incoming.receipt_id };
    default:
      return { kind: "reconciliation_required", receipt_id: incoming.receipt_id };
  }
}

function refuse(code: ProtocolError["code"], message: string, details?: Record<string, unknown>): ReceiptDecision {
  return { type: "refuse", error: new ProtocolError(code, message, undefined, details) };
}
