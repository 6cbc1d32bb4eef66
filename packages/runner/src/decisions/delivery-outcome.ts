/**
 * What one delivery attempt of a journaled receipt means (pure). A receipt stays pending until the
 * server answers 200 (a first answer or `replayed: true`, both acknowledge it) with a body the runner
 * can read. No answer, a server error, overload or an unreadable answer is retried with the same ID
 * and body. A refusal that no repetition can change (the call is final, the grant expired, the body
 * is invalid) ends delivery: the receipt is marked rejected and never sent again. A missing or revoked
 * credential (401, 403 `forbidden`) is retried too — the receipt is the product's truth and must
 * survive until the key is fixed; if the refusal lasts, the runner fails and the receipt stays
 * journaled for the next start.
 */

import type { ReceiptAnswer } from "@toolhost/protocol/wire";
import { ANSWER_READERS } from "../http/answer-reader.js";
import type { HttpOutcome } from "../http/http-outcome.js";
import { callTrouble, type Trouble } from "./trouble-policy.js";

/** The server's answer to a receipt (the members the runner uses). */
export interface ReceiptAnswerFacts {
  readonly replayed: boolean;
  /** Only on `accepted`. */
  readonly confirmed: boolean | undefined;
  readonly applied: boolean;
  readonly callStatus: string;
  readonly runStatus: string;
}

/** What to do after one delivery attempt. */
export type DeliveryVerdict =
  /** Acknowledged: journal it delivered. */
  | { readonly type: "acked"; readonly answer: ReceiptAnswerFacts; readonly answerText: string }
  /** Not delivered: try again later, same ID and body (`trouble` says why, for the trouble watch). */
  | { readonly type: "retry"; readonly trouble: Trouble }
  /** Refused for good: journal it rejected. */
  | { readonly type: "rejected"; readonly code: string; readonly message: string };

/** The verdict on one attempt's outcome. */
export function decideDelivery(outcome: HttpOutcome<ReceiptAnswer>): DeliveryVerdict {
  if (outcome.type === "answer") return { type: "acked", answer: factsOf(outcome.body), answerText: outcome.text };
  const trouble = callTrouble(outcome);
  // Only a refusal about this receipt has no trouble of its own.
  if (trouble === undefined && outcome.type === "refused") {
    return { type: "rejected", code: outcome.code, message: outcome.message };
  }
  return {
    type: "retry",
    trouble: trouble ?? { kind: "transient", code: outcome.type, status: 0, detail: outcome.type },
  };
}

/** Reads a receipt answer's text (as journaled); undefined when it is not a receipt answer. */
export function readReceiptAnswer(text: string): ReceiptAnswerFacts | undefined {
  const read = ANSWER_READERS.receipt.read(text);
  return read.ok ? factsOf(read.value) : undefined;
}

function factsOf(answer: ReceiptAnswer): ReceiptAnswerFacts {
  return {
    replayed: answer.replayed,
    confirmed: answer.confirmed,
    applied: answer.applied,
    callStatus: answer.call_status,
    runStatus: answer.run_status,
  };
}
