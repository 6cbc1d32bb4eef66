/**
 * Receipt bodies as the model-based test sends them: exact texts built from members whose values
 * are JSON texts kept as written (big integers, trailing zeros, escapes, non-ASCII), each in two
 * spellings — compact in one member order, and spaced in the reverse order — that have the same
 * canonical digest, so a redelivery may come back spelled differently and still be the same receipt.
 */

import type { ReceiptKind } from "./protocol-model-predictions.js";
import type { KnownClaim } from "./protocol-model-state.js";

/** Values whose spelling must survive storage byte for byte. */
const RESULTS = [
  `{"task_id":"T-1042","version":12345678901234567890}`,
  `{"amount":1.50,"ratio":-0.0,"tiny":1e-7}`,
  `{"note":"caf\\u00e9 \u2615 \\"quoted\\" \\\\ back","list":[true,false,null,{}]}`,
] as const;

const ERRORS = [
  `{"code":"card_declined","detail":{"attempts":3}}`,
  `{"message":"the handler threw","retry":false}`,
] as const;

/** The two spellings of one receipt body. */
export interface ReceiptText {
  /** Compact, members in the envelope's order. */
  readonly text: string;
  /** The same members spaced out in reverse order: a different text with the same canonical digest. */
  readonly respelled: string;
}

/** The receipt `receiptId` of `kind` under `claim`; `flavor` picks its result or error value. */
export function receiptText(
  claim: KnownClaim,
  executorId: string,
  receiptId: string,
  kind: ReceiptKind,
  flavor: number,
): ReceiptText {
  const members: Array<[string, string]> = [
    ["receipt_id", JSON.stringify(receiptId)],
    ["executor_id", JSON.stringify(executorId)],
    ["claim_id", JSON.stringify(claim.claimId)],
    ["grant", JSON.stringify(claim.grant)],
    ["kind", JSON.stringify(kind)],
  ];
  const result = RESULTS[flavor % RESULTS.length] as string;
  const error = ERRORS[flavor % ERRORS.length] as string;
  // Every third flavor reports a progress value over the model's maxProgressBytes (64): refused 413.
  const log = flavor % 3 === 2 ? `,"log":"${"step done; ".repeat(6)}caf\u00e9"` : "";
  if (kind === "progress") members.push(["progress", `{"percent":${(flavor * 37) % 100}${log}}`]);
  if (kind === "completed") members.push(["result", result]);
  if (kind === "failed") members.push(["error", error]);
  if ((kind === "cancelled" || kind === "reconciliation_required") && flavor % 2 === 1) members.push(["error", error]);
  return {
    text: `{${members.map(([name, value]) => `"${name}":${value}`).join(",")}}`,
    respelled: `{\n  ${[...members]
      .reverse()
      .map(([name, value]) => `"${name}" : ${value}`)
      .join(",\n  ")}\n}`,
  };
}

/** Another body under the same receipt ID (a conflict): a progress report nobody sent under it. */
export function conflictingText(claim: KnownClaim, executorId: string, receiptId: string): string {
  return JSON.stringify({
    receipt_id: receiptId,
    executor_id: executorId,
    claim_id: claim.claimId,
    grant: claim.grant,
    kind: "progress",
    progress: { conflicting: true },
  });
}
