/**
 * `POST /v1/executors/{executor_id}/receipts`: the receipts of many calls in one request, each recorded
 * through the per-call receipt flow (`recordReceipt`), so each answer — status and
 * body, errors included — is what `POST …/tool-calls/{call_id}/receipts` answers for the same receipt,
 * with the same idempotency per `receipt_id`. Each receipt is its own transaction: a refused receipt
 * refuses only itself. One call's receipts are recorded in request order; receipts of different calls
 * side by side, as concurrent per-call requests would be. The executor of the path must belong to the key (404 / 403
 * `executor_key_mismatch` for the whole request), and every receipt must name it (422 for that one).
 *
 * A batched receipt is stored as the compact text of its item, read losslessly (key order, number
 * spellings and big integers kept; only whitespace between tokens differs from the sender's text), so
 * its digest — and thus its redelivery through either route — is the same as for the per-call route.
 */

import { compact, isJsonObject, type JsonValue, objectGet, ProtocolError, parseJson } from "@toolhost/protocol";
import type { ReceiptBatchRequest } from "@toolhost/protocol/wire";
import type { FastifyBaseLogger } from "fastify";
import { ownershipProblem } from "../auth/executor-access.js";
import type { Identity } from "../auth/identity.js";
import { type ErrorAnswerContext, errorAnswer } from "../http/error-answer.js";
import { type ReceiptDeps, recordReceipt } from "./record-receipt.js";

/** What the batch route learned of one receipt's answer. */
export interface BatchedReceiptAnswer {
  /** The receipt's `kind` as sent. */
  readonly kind: string;
  readonly status: number;
  /** A 200 answering an earlier delivery of the same `receipt_id`. */
  readonly replayed: boolean;
  /** The error code of a refused receipt. */
  readonly code: string | undefined;
}

/** Records the batch `body` (whose exact text is `bodyText`) for `executorId`; answers the 200 body text. */
export async function recordReceiptBatch(
  deps: ReceiptDeps & {
    readonly errors: ErrorAnswerContext;
    readonly log: FastifyBaseLogger;
    /** The batch request's ID, carried by each refused receipt's error body as by a per-call one. */
    readonly requestId: string;
    /** Told each receipt's answer (the metrics count it as a per-call receipt). */
    readonly onAnswered?: (answer: BatchedReceiptAnswer) => void;
  },
  identity: Identity,
  executorId: string,
  body: ReceiptBatchRequest,
  bodyText: string,
): Promise<string> {
  const ownership = ownershipProblem(identity, executorId, await deps.storage.executors.get(executorId));
  if (ownership !== undefined) throw ownership;
  const texts = receiptTexts(bodyText, body.receipts.length);
  const answers: string[] = new Array(body.receipts.length);
  const record = async (index: number): Promise<void> => {
    const item = body.receipts[index] as ReceiptBatchRequest["receipts"][number];
    let status = 200;
    let answer: string;
    let code: string | undefined;
    try {
      if (item.receipt.executor_id !== executorId) throw otherExecutor(index, executorId);
      answer = await recordReceipt(deps, identity, item.run_id, item.call_id, texts[index] as string);
    } catch (error) {
      const refused = errorAnswer(error, deps.errors);
      if (refused.internal) deps.log.error({ err: error }, "internal error while recording a batched receipt");
      status = refused.status;
      code = refused.body.error.code;
      answer = JSON.stringify({ error: { ...refused.body.error, request_id: deps.requestId } });
    }
    // The answer is the recorder's own text: a replay says so in it, as on the per-call route.
    const replayed = status === 200 && answer.includes('"replayed":true');
    deps.onAnswered?.({ kind: item.receipt.kind, status, replayed, code });
    answers[index] =
      `{"run_id":${JSON.stringify(item.run_id)},"call_id":${JSON.stringify(item.call_id)},"status":${status},"body":${answer}}`;
  };
  // One call's receipts in request order; different calls side by side, so their commits can share
  // an fsync (SQLite's group commit) as concurrent per-call requests would.
  const byCall = new Map<string, number[]>();
  for (const [index, item] of body.receipts.entries()) {
    const key = `${item.run_id}\u0000${item.call_id}`;
    byCall.set(key, [...(byCall.get(key) ?? []), index]);
  }
  await Promise.all(
    [...byCall.values()].map(async (indexes) => {
      for (const index of indexes) await record(index);
    }),
  );
  return `{"data":[${answers.join(",")}]}`;
}

/** The compact lossless text of each `receipts[i].receipt` of the batch text (the schema accepted it). */
function receiptTexts(bodyText: string, count: number): string[] {
  const body = parseJson(bodyText);
  const receipts = isJsonObject(body) ? objectGet(body, "receipts") : undefined;
  if (!Array.isArray(receipts) || receipts.length !== count) throw new Error("the validated batch has no receipts");
  return receipts.map((item: JsonValue) => {
    const receipt = isJsonObject(item) ? objectGet(item, "receipt") : undefined;
    if (receipt === undefined) throw new Error("a validated batch item has no receipt");
    return compact(receipt);
  });
}

/** The 422 of a batched receipt naming another executor than the route's. */
function otherExecutor(index: number, executorId: string): ProtocolError {
  return new ProtocolError(
    "validation_failed",
    `a receipt sent to executor ${JSON.stringify(executorId)}'s batch route must name that executor`,
    `/receipts/${index}/receipt/executor_id`,
  );
}
