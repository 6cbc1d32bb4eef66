/**
 * What the documented protocol answers (docs/protocol.md, docs/executors.md), predicted on the
 * model before a request is sent: for a claim and for a receipt, either one exact answer (and the
 * change it makes) or a refusal with its status and code. A request from a key that does not own the
 * executor (did not open its current connection) is refused with 403 `executor_key_mismatch` —
 * marked, so that its success is reported as the broken invariant it is.
 */

import type { CallEvent } from "@toolhost/protocol";
import { PENDING_CLAIM_MAX } from "@toolhost/protocol/wire";
import {
  ACCEPT_WINDOW_MS,
  callOf,
  confirmationLive,
  type ExecName,
  isFinal,
  isLive,
  type KeyName,
  type KnownClaim,
  type ModelCall,
  moveCall,
  type ProtocolModel,
  type ReceiptAnswer,
  releaseCall,
  runActiveFor,
  runOf,
  toolOf,
} from "./protocol-model-state.js";

/** A predicted refusal: its status and code; `wrongKey` when the key may not act for the executor. */
export type Refusal = {
  readonly type: "refuse";
  readonly status: number;
  readonly code: string;
  readonly wrongKey?: true;
};

/** The refusal of a request from a key that does not own the executor. */
const WRONG_KEY: Refusal = { type: "refuse", status: 403, code: "executor_key_mismatch", wrongKey: true };

/** What a claim must answer. */
export type ClaimPrediction =
  | Refusal
  /** A new claim: 200 `replayed: false`, the call `claimed`. */
  | { readonly type: "new" }
  /** The executor's own claim again: 200 `replayed: true`, the same claim ID and grant. */
  | { readonly type: "replay"; readonly claimId: string };

/** Predicts a claim of `call` by executor `exec` with `key`, naming connection `connectionId`. */
export function predictClaim(
  model: ProtocolModel,
  call: ModelCall,
  exec: ExecName,
  key: KeyName,
  connectionId: string,
): ClaimPrediction {
  const executor = model.executors[exec];
  if (key !== executor.owner) return WRONG_KEY;
  if (connectionId !== executor.connectionId) return refuse(409, "connection_superseded");
  if (!isLive(model, exec)) return refuse(409, "connection_offline");
  if (!runActiveFor(model, call)) return refuse(409, "run_terminated");
  const lapsed = lapsedClaim(model, call);
  if (call.claim !== null && call.claim.exec === exec && !lapsed) {
    // A grant is never issued again to a key it was not made for (the executor was taken over since).
    return call.claim.key === key ? { type: "replay", claimId: call.claim.claimId } : refuse(409, "conflict");
  }
  if ((call.status === "pending" || lapsed) && model.nowMs < call.deadlineMs) return { type: "new" };
  if (call.claim !== null && !lapsed) return refuse(409, "already_claimed");
  return refuse(409, "conflict");
}

/**
 * The calls an executor may claim now, oldest first as the server pages them (creation time, then
 * call ID): pending, or claimed with a lapsed accept window; before the deadline; no business cancel
 * asked; the run active (or a compensation call).
 */
export function candidatesOf(model: ProtocolModel): ModelCall[] {
  return model.calls
    .filter((call) => call.status === "pending" || lapsedClaim(model, call))
    .filter((call) => model.nowMs < call.deadlineMs && !call.cancelRequested && runActiveFor(model, call))
    .sort((one, two) => one.createdAtMs - two.createdAtMs || (one.callId < two.callId ? -1 : 1));
}

/** True when `call` is claimed and its claim's accept window has lapsed (the sweep has not released it yet). */
function lapsedClaim(model: ProtocolModel, call: ModelCall): boolean {
  return call.status === "claimed" && call.claim !== null && call.claim.acceptDeadlineMs < model.nowMs;
}

/** What `GET …/pending?claim=N` must answer. */
export type PendingClaimPrediction =
  | Refusal
  | {
      readonly type: "claims";
      /** The page's candidates, oldest first. */
      readonly page: readonly ModelCall[];
      /**
       * The page's first N candidates of tools the connection serves (all when it declared none), each
       * claimed anew as the claim route would (so in `claims`, not in `data`).
       */
      readonly claimed: readonly ModelCall[];
      /** Whether candidates remain after the page (`next_cursor` set). */
      readonly more: boolean;
    };

/**
 * Predicts `pending?claim=claimMax&limit=limit` by executor `exec` with `key` on connection
 * `connectionId` (docs/executors.md, Batched executors): a bad N is refused whole, then the pending
 * route's connection checks; otherwise the page's oldest `claimMax` candidates the connection serves
 * are claimed. Each is a
 * new claim by the claim route's own rules (a candidate is claimable by definition; checked).
 */
export function predictPendingClaims(
  model: ProtocolModel,
  exec: ExecName,
  key: KeyName,
  connectionId: string,
  limit: number,
  claimMax: number,
): PendingClaimPrediction {
  if (!Number.isInteger(claimMax) || claimMax < 1 || claimMax > PENDING_CLAIM_MAX) {
    return refuse(422, "validation_failed");
  }
  const executor = model.executors[exec];
  if (key !== executor.owner) return WRONG_KEY;
  if (connectionId !== executor.connectionId) return refuse(409, "connection_superseded");
  if (!isLive(model, exec)) return refuse(409, "connection_offline");
  const candidates = candidatesOf(model);
  const page = candidates.slice(0, limit);
  const serves = (call: ModelCall) => executor.toolNames === null || executor.toolNames.includes(toolOf(call));
  const claimed = page.filter(serves).slice(0, claimMax);
  for (const call of claimed) {
    const each = predictClaim(model, call, exec, key, connectionId);
    if (each.type !== "new") throw new Error(`model bug: candidate ${call.callId} is not claimable (${each.type})`);
  }
  return { type: "claims", page, claimed, more: candidates.length > limit };
}

/** Records a new claim of `call` won by `exec` with `key`. */
export function applyNewClaim(
  model: ProtocolModel,
  call: ModelCall,
  exec: ExecName,
  key: KeyName,
  claimId: string,
): void {
  // A lapsed claim the sweep has not released yet is released and claimed in one UPDATE.
  if (call.status === "claimed") releaseCall(model, call);
  moveCall(model, call, "claim");
  call.claim = { claimId, exec, key, acceptDeadlineMs: model.nowMs + ACCEPT_WINDOW_MS, accepted: false };
}

/** The kinds of receipt the test sends. */
export type ReceiptKind = "accepted" | "progress" | FinalKind;

/** The receipt kinds that report an outcome. */
export type FinalKind = "completed" | "failed" | "cancelled" | "reconciliation_required";

/** The call event each outcome is (docs/protocol.md, the receipt table and the state machine). */
export const OUTCOME_EVENTS: Readonly<Record<FinalKind, CallEvent>> = {
  completed: "complete",
  failed: "fail",
  cancelled: "confirm_cancel",
  reconciliation_required: "report_unknown",
};

/** What a receipt must answer. */
export type ReceiptPrediction =
  | Refusal
  /** Stored: this answer, then `apply` makes its change on the model. */
  | { readonly type: "store"; readonly answer: ReceiptAnswer; readonly apply: () => void }
  /** A redelivery of a stored receipt: the first answer, with the statuses of now and `confirmed` only while live. */
  | { readonly type: "replay"; readonly answer: ReceiptAnswer };

/** The server options of the progress limits the model predicts (docs/protocol.md#progress-limits). */
export const MODEL_PROGRESS_LIMITS = { maxProgressPerCall: 3, maxProgressBytes: 64 } as const;

/** The bytes of a receipt text's `progress` value as compact JSON (0 without one). */
export function progressBytesOf(text: string): number {
  const progress = (JSON.parse(text) as { progress?: unknown }).progress;
  return progress === undefined ? 0 : Buffer.byteLength(JSON.stringify(progress), "utf8");
}

/** The progress receipts stored on `callId` (every claim's). */
function storedProgress(model: ProtocolModel, callId: string): number {
  return model.stored.filter(
    (receipt) => receipt.callId === callId && (JSON.parse(receipt.text) as { kind: string }).kind === "progress",
  ).length;
}

/**
 * Predicts receipt `receiptId` of `kind` under `claim`, sent with `key` as `text`; `sameBody`: the body
 * is the one stored under that ID, if any (a redelivery, maybe spelled differently), not another one.
 */
export function predictReceipt(
  model: ProtocolModel,
  claim: KnownClaim,
  key: KeyName,
  kind: ReceiptKind,
  receiptId: string,
  sameBody: boolean,
  text: string,
): ReceiptPrediction {
  if (key !== model.executors[claim.exec].owner) return WRONG_KEY;
  const call = callOf(model, claim.callId);
  const holds = call.claim?.claimId === claim.claimId && call.claim.exec === claim.exec;
  // A grant signed for another key (the executor changed keys since) passes only while its claim holds the call.
  if (claim.signedFor !== key && !holds) return refuse(403, "invalid_grant");
  // Receipt IDs count per claim.
  const stored = model.stored.find(
    (receipt) => receipt.callId === call.callId && receipt.claimId === claim.claimId && receipt.receiptId === receiptId,
  );
  if (stored !== undefined) {
    if (!sameBody) return refuse(409, "receipt_conflict");
    // The first answer with what is true now: the current statuses and, for `accepted`, a live confirmation.
    const answer = { ...stored.answer, replayed: true };
    if (answer.confirmed !== undefined) answer.confirmed = confirmationLive(model, call.callId, claim.claimId);
    answer.call_status = call.status;
    answer.run_status = runOf(model, call.runId).status;
    return { type: "replay", answer };
  }
  const runActive = runActiveFor(model, call);
  const reportsOutcome =
    holds &&
    kind !== "accepted" &&
    kind !== "progress" &&
    (call.status === "accepted" || call.status === "reconciliation_required");
  if (model.nowMs >= call.deadlineMs && !reportsOutcome) return refuse(403, "invalid_grant");

  const answer = (fields: Partial<ReceiptAnswer>): ReceiptAnswer => ({
    receipt_id: receiptId,
    kind,
    replayed: false,
    ...fields,
    applied: fields.applied ?? false,
    call_status: fields.call_status ?? call.status,
    run_status: fields.run_status ?? runOf(model, call.runId).status,
  });
  const confirm = (): void => {
    model.confirmations.push({ callId: call.callId, claimId: claim.claimId, exec: claim.exec, key });
  };

  if (kind === "accepted") {
    if (!holds || !runActive) return keep(answer({ confirmed: false }));
    if (call.status === "accepted")
      return { type: "store", answer: answer({ confirmed: true, applied: true }), apply: confirm };
    if (call.status === "claimed" && call.claim !== null && model.nowMs <= call.claim.acceptDeadlineMs) {
      return {
        type: "store",
        answer: answer({ confirmed: true, applied: true, call_status: "accepted" }),
        apply: () => {
          moveCall(model, call, "accept");
          if (call.claim !== null) call.claim.accepted = true;
          confirm();
        },
      };
    }
    return keep(answer({ confirmed: false }));
  }

  if (holds && isFinal(call)) return refuse(409, "call_already_final");
  if (!holds || (call.status !== "accepted" && call.status !== "reconciliation_required")) {
    return refuse(409, "accept_required");
  }
  if (kind === "progress") {
    // Beyond the progress limits nothing is stored: the size first, then the count per call.
    if (progressBytesOf(text) > MODEL_PROGRESS_LIMITS.maxProgressBytes) return refuse(413, "progress_too_large");
    if (storedProgress(model, call.callId) >= MODEL_PROGRESS_LIMITS.maxProgressPerCall) {
      return refuse(409, "progress_limit_exceeded");
    }
    return keep(answer({ applied: runActive }));
  }
  const event = OUTCOME_EVENTS[kind];
  // A second unknown outcome is refused: the call waits for its reconciled one.
  if (call.status === "reconciliation_required" && event === "report_unknown") return refuse(409, "call_already_final");
  // The change is made on a copy first, to predict the call's and the run's status after it.
  const after = structuredClone(model);
  moveCall(after, callOf(after, call.callId), event);
  return {
    type: "store",
    answer: answer({
      applied: runActive,
      call_status: callOf(after, call.callId).status,
      run_status: runOf(after, call.runId).status,
    }),
    apply: () => moveCall(model, call, event),
  };
}

function keep(answer: ReceiptAnswer): ReceiptPrediction {
  return { type: "store", answer, apply: () => undefined };
}

function refuse(status: number, code: string): Refusal {
  return { type: "refuse", status, code };
}
