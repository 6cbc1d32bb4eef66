/**
 * Wire schema of `GET /v1/runs/{run_id}/tool-calls/{call_id}/receipts`: the receipts the server stored
 * for one call, in arrival order, as an operator (or the console's timeline) reads them. Bodies are
 * not repeated: the outcome the model saw is in the run's history.
 */

import { type Static, Type } from "typebox";
import { RECEIPT_KINDS } from "../calls/receipt-kind.js";
import { RECEIPT_ID_MAX_LENGTH } from "./calls.js";
import { Id, Timestamp, WireObject } from "./common.js";

/** One stored receipt, without its body. */
export const StoredReceipt = WireObject("A receipt as the server stored it (its first delivery).", {
  receipt_id: Type.String({
    description: "The executor's receipt ID.",
    minLength: 1,
    maxLength: RECEIPT_ID_MAX_LENGTH,
  }),
  seq: Type.Integer({ description: "1, 2, … per call, in arrival order.", minimum: 1 }),
  kind: Type.Enum(Object.values(RECEIPT_KINDS), {
    description: "`accepted`, `progress`, `completed`, `failed`, `cancelled` or `reconciliation_required`.",
  }),
  executor_id: Id("The executor that sent it."),
  claim_id: Id("The claim it was sent under."),
  applied: Type.Boolean({
    description: "False when it arrived after the run had ended (stored, but it changed no history: a late receipt).",
  }),
  body_bytes: Type.Integer({ description: "Size of the body as received, in bytes.", minimum: 0 }),
  created_at: Timestamp("When the server stored it."),
});

/** One stored receipt. */
export type StoredReceipt = Static<typeof StoredReceipt>;

/** `GET /v1/runs/{run_id}/tool-calls/{call_id}/receipts` answer. */
export const CallReceipts = WireObject("Every receipt stored for one call, in arrival order.", {
  call_id: Id("The call."),
  receipts: Type.Array(StoredReceipt, {
    description:
      "In arrival order. A replay (same ID, same body) is not stored again; a conflicting one (same ID, another body) was refused.",
  }),
});

/** `GET /v1/runs/{run_id}/tool-calls/{call_id}/receipts` answer. */
export type CallReceipts = Static<typeof CallReceipts>;
