/**
 * Wire schemas of the claim and receipt routes (docs/protocol.md): an executor claims a pending call
 * (`POST /v1/runs/{run_id}/tool-calls/{call_id}/claim`) and reports on it with receipts
 * (`…/receipts`). A receipt's body is stored exactly as received; its `result` is read losslessly
 * (big integers, float spellings and key order kept), so the schema below only fixes the envelope.
 */

import { type Static, Type } from "typebox";
import { CALL_STATUSES } from "../calls/call-status.js";
import { RECEIPT_KINDS } from "../calls/receipt-kind.js";
import { TOOL_EFFECTS } from "../config/tool-effect.js";
import { RESULT_TYPES } from "../projection/result-type.js";
import { RUN_STATUSES } from "../runs/run-status.js";
import { AnyObject, ID_MAX_LENGTH, Id, StoredText, Timestamp, WireObject } from "./common.js";

/** Longest `receipt_id` accepted (any non-empty string up to this many characters). */
export const RECEIPT_ID_MAX_LENGTH = ID_MAX_LENGTH;

/** Longest `grant` accepted (a grant is 43 base64url characters; anything longer is not one). */
export const GRANT_MAX_LENGTH = 128;

const EXECUTOR_ID = Id("The executor's stable ID, chosen by the product.");
const CLAIM_ID = Id("The claim's ID, as the claim answered it.");
const GRANT = Type.String({
  description: "The per-call grant the claim answered; it expires with the call's deadline.",
  minLength: 1,
  maxLength: GRANT_MAX_LENGTH,
});

/** Path parameters of `/v1/runs/{run_id}/tool-calls/{call_id}/…`. */
export const CallPathParams = WireObject("Names one tool call of one run.", {
  run_id: Id("The run's ID."),
  call_id: Id("The call's ID."),
});

/** Path parameters of `/v1/runs/{run_id}/tool-calls/{call_id}/…`. */
export type CallPathParams = Static<typeof CallPathParams>;

/** `POST …/claim` body. */
export const ClaimRequest = WireObject("Claims a pending call for one connected executor.", {
  executor_id: EXECUTOR_ID,
  connection_id: Id("The executor's current connection, as connect answered it."),
});

/** `POST …/claim` body. */
export type ClaimRequest = Static<typeof ClaimRequest>;

/** A call's trace context in the run's trace (docs/operations.md#traces): what an executor's handler span joins. */
export const CALL_TRACEPARENT = Type.Optional(
  Type.String({
    description:
      "The W3C `traceparent` of the call's `toolhost.tool_call` span, in the trace of the run that planned it; absent when the server had no trace context. Start the handler's span as its child or link to it. Not part of any digest.",
    pattern: "^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$",
  }),
);

/** The call a claim hands to its executor: everything the product needs to check and run it. */
export const ClaimedCall = WireObject("The claimed call, with its arguments.", {
  run_id: Id("The run's ID."),
  call_id: Id("The call's ID."),
  tool_name: Type.String({ description: "The tool's name in the pinned toolset version." }),
  binding_id: Id("The executor binding the tool runs on."),
  effect: Type.Enum(Object.values(TOOL_EFFECTS), {
    description: "`write` (persist the operation key before `accepted`) or `read`.",
  }),
  arguments: Type.Unknown({
    description: "The validated arguments, exactly as the model produced them (compact JSON, the model's key order).",
  }),
  arguments_digest: Type.String({
    description: "`sha256:` + hex SHA-256 of the arguments' sorted canonical compact JSON; recompute it to check them.",
  }),
  subject: Type.String({ description: "The end user or account the run acts for." }),
  agent_id: Id("The run's agent."),
  agent_version: Id("The run's pinned agent version."),
  toolset_id: Id("The toolset the agent version pins."),
  toolset_version: Type.Integer({ description: "The pinned toolset version.", minimum: 1 }),
  deadline: Timestamp("The call's deadline: the grant expires then, and an unanswered call settles."),
  accept_deadline: Timestamp("Send `accepted` before this, or the claim lapses and the call returns to pending."),
  traceparent: CALL_TRACEPARENT,
});

/** The call a claim hands to its executor. */
export type ClaimedCall = Static<typeof ClaimedCall>;

/** `POST …/claim` answer (200, also for a replayed claim). */
export const ClaimAnswer = WireObject("The claim, its grant and the call.", {
  claim_id: CLAIM_ID,
  grant: Type.String({ description: "The per-call grant: send it with every receipt of this claim." }),
  replayed: Type.Boolean({ description: "True when this executor already held the claim (same claim and grant)." }),
  call: ClaimedCall,
});

/** `POST …/claim` answer. */
export type ClaimAnswer = Static<typeof ClaimAnswer>;

/** `POST …/receipts` body: one receipt of a claimed call; stored exactly as received. */
export const ReceiptRequest = WireObject("A receipt of a claimed call.", {
  receipt_id: StoredText({
    description: "The executor's ID of this receipt; a redelivery reuses it with the same body.",
    minLength: 1,
    maxLength: RECEIPT_ID_MAX_LENGTH,
  }),
  executor_id: EXECUTOR_ID,
  claim_id: CLAIM_ID,
  grant: GRANT,
  kind: Type.Enum(Object.values(RECEIPT_KINDS), {
    description: "`accepted`, `progress`, `completed`, `failed`, `cancelled` or `reconciliation_required`.",
  }),
  result: Type.Optional(
    Type.Unknown({ description: "The business result (required on `completed`, only there); stored verbatim." }),
  ),
  result_type: Type.Optional(
    Type.Enum(Object.values(RESULT_TYPES), {
      description: "How the model sees the result: `json` (default), `multimodal`, `submission` or `opaque`.",
    }),
  ),
  error: Type.Optional(
    AnyObject(
      "The product's error object (required on `failed`; allowed on `cancelled` and `reconciliation_required`).",
    ),
  ),
  progress: Type.Optional(AnyObject("Interim progress (only on `progress`).")),
});

/** `POST …/receipts` body. */
export type ReceiptRequest = Static<typeof ReceiptRequest>;

/** `POST …/receipts` answer (200 for a first delivery, a replay, `confirmed: false` and `applied: false`). */
export const ReceiptAnswer = WireObject("What the server did with a receipt.", {
  receipt_id: Type.String({ description: "The receipt's ID." }),
  kind: Type.Enum(Object.values(RECEIPT_KINDS), { description: "The receipt's kind." }),
  replayed: Type.Boolean({
    description:
      "True when this receipt was received before: the first answer again, with `confirmed`, `call_status` and `run_status` as they are now.",
  }),
  confirmed: Type.Optional(
    Type.Boolean({
      description:
        "Only for `accepted`: true means start now; false means do not (run ended, claim voided or lapsed, deadline passed). Live on a replay too.",
    }),
  ),
  applied: Type.Boolean({ description: "False when the receipt was stored but changed nothing of the run." }),
  call_status: Type.Enum(Object.values(CALL_STATUSES), { description: "The call's status after the receipt." }),
  run_status: Type.Enum(Object.values(RUN_STATUSES), { description: "The run's status after the receipt." }),
});

/** `POST …/receipts` answer. */
export type ReceiptAnswer = Static<typeof ReceiptAnswer>;
