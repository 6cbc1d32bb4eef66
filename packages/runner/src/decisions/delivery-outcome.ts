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
  | { readonly type: "rejected"; readonly status: number; readonly code: string; readonly message: string };

/** The verdict on one attempt's outcome. */
export function decideDelivery(outcome: HttpOutcome<ReceiptAnswer>): DeliveryVerdict {
  if (outcome.type === "answer") return { type: "acked", answer: factsOf(outcome.body), answerText: outcome.text };
  const trouble = callTrouble(outcome);
  // Only a refusal about this receipt has no trouble of its own.
  if (trouble === undefined && outcome.type === "refused") {
    return { type: "rejected", status: outcome.status, code: outcome.code, message: outcome.message };
  }
  return {
    type: "retry",
    trouble: trouble ?? { kind: "transient", code: outcome.type, status: 0, detail: outcome.type },
  };
}

/**
 * Reads a journaled receipt answer; undefined when it lacks the members the runner uses. The answer was
 * checked against the wire schema when it arrived (or came from an older runner that did not check),
 * so reading it back asks only for those members: a schema that grew since must not strand a journal.
 */
export function readReceiptAnswer(text: string): ReceiptAnswerFacts | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== "object" || body === null) return undefined;
  const answer = body as Record<string, unknown>;
  if (typeof answer.replayed !== "boolean" || typeof answer.applied !== "boolean") return undefined;
  return {
    replayed: answer.replayed,
    confirmed: typeof answer.confirmed === "boolean" ? answer.confirmed : undefined,
    applied: answer.applied,
    callStatus: String(answer.call_status),
    runStatus: String(answer.run_status),
  };
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
