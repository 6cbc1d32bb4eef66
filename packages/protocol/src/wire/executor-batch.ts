/**
 * Wire schemas of the batched executor routes (see docs/protocol.md, "Batched executors"): a pending
 * request may ask for up to `claim` claims made directly (`?claim=N`), and
 * `POST /v1/executors/{executor_id}/receipts` carries the receipts of many calls. Each claim and each
 * receipt answer is exactly what the per-call route answers for the same input; a server offers the
 * batch routes by answering `batch` on connect.
 */

import { type Static, Type } from "typebox";
import { ReceiptRequest } from "./calls.js";
import { Id, WireObject } from "./common.js";

/** Most claims one pending request may ask for (`claim`). */
export const PENDING_CLAIM_MAX = 32;

/** Most receipts one batch may carry. */
export const RECEIPTS_BATCH_MAX = 100;

/** What a server offers batched executors, answered on connect. */
export const ExecutorBatchLimits = WireObject(
  "The batched routes this server offers: `?claim=N` on pending and `POST …/receipts` on the executor.",
  {
    claim_max: Type.Integer({ description: "Most claims one pending request may ask for.", minimum: 1 }),
    receipts_max: Type.Integer({ description: "Most receipts one batch may carry.", minimum: 1 }),
  },
);

/** What a server offers batched executors. */
export type ExecutorBatchLimits = Static<typeof ExecutorBatchLimits>;

/** One receipt of a batch: the call it reports on and the receipt body the per-call route takes. */
export const BatchedReceipt = WireObject("One receipt of a batch: its call and its body.", {
  run_id: Id("The call's run."),
  call_id: Id("The call."),
  receipt: ReceiptRequest,
});

/** One receipt of a batch. */
export type BatchedReceipt = Static<typeof BatchedReceipt>;

/** `POST /v1/executors/{executor_id}/receipts` body. */
export const ReceiptBatchRequest = WireObject("Receipts of many calls of one executor, recorded in order.", {
  receipts: Type.Array(BatchedReceipt, {
    description: `The receipts (1 to ${RECEIPTS_BATCH_MAX}), each naming this executor; one call's receipts are recorded in this order.`,
    minItems: 1,
    maxItems: RECEIPTS_BATCH_MAX,
  }),
});

/** `POST /v1/executors/{executor_id}/receipts` body. */
export type ReceiptBatchRequest = Static<typeof ReceiptBatchRequest>;

/** The answer to one receipt of a batch: what the per-call route would have answered. */
export const ReceiptBatchItemAnswer = WireObject("The per-call route's answer to one receipt: status and body.", {
  run_id: Id("The call's run."),
  call_id: Id("The call."),
  status: Type.Integer({
    description: "The HTTP status the per-call route answers for this receipt (200, or its error's status).",
    minimum: 200,
    maximum: 599,
  }),
  body: Type.Unknown({
    description:
      "The per-call route's body: the receipt answer (`receipt_id`, `kind`, `replayed`, …) on 200, the error body (`{error: {code, message, …}}`) otherwise.",
  }),
});

/** The answer to one receipt of a batch. */
export type ReceiptBatchItemAnswer = Static<typeof ReceiptBatchItemAnswer>;

/** `POST /v1/executors/{executor_id}/receipts` answer. */
export const ReceiptBatchAnswer = WireObject("One answer per receipt, in the order of the request.", {
  data: Type.Array(ReceiptBatchItemAnswer, { description: "The answers, in the order of the receipts." }),
});

/** `POST /v1/executors/{executor_id}/receipts` answer. */
export type ReceiptBatchAnswer = Static<typeof ReceiptBatchAnswer>;
