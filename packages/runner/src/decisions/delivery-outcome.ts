/**
 * What one delivery attempt of a journaled receipt means (pure). A receipt stays pending until the
 * server answers 200 (a first answer or `replayed: true`, both acknowledge it). No answer, a server
 * error or overload is retried with the same ID and body. A refusal that no repetition can change
 * (the call is final, the grant expired, the body is invalid) ends delivery: the receipt is marked
 * rejected and never sent again. A missing or revoked credential is retried too — the receipt is the
 * product's truth and must survive until an operator fixes the key.
 */

import type { HttpOutcome } from "../http/http-outcome.js";
import { isTransientRefusal } from "../http/http-outcome.js";

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
  /** Not delivered: try again later, same ID and body. */
  | { readonly type: "retry"; readonly reason: string }
  /** Refused for good: journal it rejected. */
  | { readonly type: "rejected"; readonly code: string; readonly message: string };

/** The verdict on one attempt's outcome. */
export function decideDelivery(outcome: HttpOutcome): DeliveryVerdict {
  switch (outcome.type) {
    case "unreachable":
      return { type: "retry", reason: outcome.message };
    case "refused":
      if (isTransientRefusal(outcome.status) || outcome.status === 401 || outcome.code === "forbidden") {
        return { type: "retry", reason: `${outcome.status} ${outcome.code}` };
      }
      return { type: "rejected", code: outcome.code, message: outcome.message };
    case "answer": {
      const answer = readReceiptAnswer(outcome.text);
      if (answer === undefined) return { type: "retry", reason: "the receipt answer is not readable" };
      return { type: "acked", answer, answerText: outcome.text };
    }
  }
}

/** Reads a receipt answer's text; undefined when it lacks the documented members. */
export function readReceiptAnswer(text: string): ReceiptAnswerFacts | undefined {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    if (typeof body.replayed !== "boolean" || typeof body.applied !== "boolean") return undefined;
    return {
      replayed: body.replayed,
      confirmed: typeof body.confirmed === "boolean" ? body.confirmed : undefined,
      applied: body.applied,
      callStatus: String(body.call_status),
      runStatus: String(body.run_status),
    };
  } catch {
    return undefined;
  }
}
