/**
 * Receipt bodies. A receipt is journaled as the exact text that will be sent, and every delivery
 * (the first and each redelivery) sends those same bytes under the same `receipt_id`: the server
 * answers a repeat with `replayed: true` and a different body under the same ID with 409. The text is
 * written by the protocol's compact writer, so lossless values keep their digits and key order.
 */

import { randomUUID } from "node:crypto";
import { compact, type JsonValue, type ReceiptKind, type ResultType } from "@toolhost/protocol";

/** What a receipt says, before its envelope. */
export interface ReceiptDraft {
  readonly kind: ReceiptKind;
  /** Only on `completed`. */
  readonly result?: JsonValue;
  /** Only on `completed`; omitted means `json`. */
  readonly resultType?: ResultType;
  /** The product's error object: required on `failed`, allowed on `cancelled` and `reconciliation_required`. */
  readonly error?: JsonValue;
  /** Only on `progress`. */
  readonly progress?: JsonValue;
}

/** Who sends a receipt: the claim it belongs to. */
export interface ReceiptEnvelope {
  readonly receiptId: string;
  readonly executorId: string;
  readonly claimId: string;
  readonly grant: string;
}

/** A new receipt ID (random, so two processes never mint the same one; the kind helps reading logs). */
export function newReceiptId(kind: ReceiptKind): string {
  return `r-${kind}-${randomUUID()}`;
}

/** The exact body text of a receipt. */
export function receiptBodyText(envelope: ReceiptEnvelope, draft: ReceiptDraft): string {
  const body = new Map<string, JsonValue>([
    ["receipt_id", envelope.receiptId],
    ["executor_id", envelope.executorId],
    ["claim_id", envelope.claimId],
    ["grant", envelope.grant],
    ["kind", draft.kind],
  ]);
  if (draft.result !== undefined) body.set("result", draft.result);
  if (draft.resultType !== undefined) body.set("result_type", draft.resultType);
  if (draft.error !== undefined) body.set("error", draft.error);
  if (draft.progress !== undefined) body.set("progress", draft.progress);
  return compact(body);
}

/** An error object for a receipt: `{code, message, details?}`. */
export function errorObject(code: string, message: string, details?: JsonValue): JsonValue {
  const error = new Map<string, JsonValue>([
    ["code", code],
    ["message", message],
  ]);
  if (details !== undefined) error.set("details", details);
  return error;
}
