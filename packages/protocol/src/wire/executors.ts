/**
 * Wire schemas of the executor routes (docs/protocol.md): an executor connects under a stable ID chosen by
 * the product, keeps its lease alive with heartbeats, long-polls for candidate calls, reports the calls
 * it holds in its journal and detaches. Candidates never carry arguments or grants: those come only
 * with a claim (`tools:execute`), which this scope (`executors:connect`) never grants.
 */

import { type Static, Type } from "typebox";
import { CALL_STATUSES } from "../calls/call-status.js";
import { TOOL_NAME_PATTERN } from "../config/tool-definition.js";
import { RUN_STATUSES } from "../runs/run-status.js";
import { CALL_TRACEPARENT, ClaimAnswer, RECEIPT_ID_MAX_LENGTH } from "./calls.js";
import { Id, Nullable, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, StoredText, Timestamp, WireObject } from "./common.js";
import { ExecutorBatchLimits, PENDING_CLAIM_MAX } from "./executor-batch.js";

/** Longest long-poll a pending request may ask for (`wait_ms`). */
export const PENDING_WAIT_MS_MAX = 30_000;

/** Most bindings one connection may serve. */
export const EXECUTOR_BINDINGS_MAX = 100;

/** Most tool names one connection may declare. */
export const EXECUTOR_TOOL_NAMES_MAX = 1_000;

/** Most calls one report may carry. */
export const REPORT_CALLS_MAX = 200;

/** Most receipt IDs one reported call may list. */
export const REPORT_RECEIPT_IDS_MAX = 100;

/** What an executor's journal says about a call it holds. */
export const REPORTED_CALL_STATES = {
  /** The executor holds receipts (or an outcome) it has not been able to deliver yet. */
  pending_delivery: "pending_delivery",
  /** The handler's outcome is unknown to the executor; it must reconcile with its business system. */
  pending_reconciliation: "pending_reconciliation",
} as const;

/** What the server tells an executor to do about one reported call. */
export const REPORT_ACTIONS = {
  /** Send the call's receipts again (same `receipt_id`, same body): the server lacks some of them. */
  redeliver: "redeliver",
  /** Find out what happened in the business system and send the final receipt that reconciles the call. */
  reconcile: "reconcile",
  /** The server holds everything; drop the call from the journal (never run its handler again). */
  nothing: "nothing",
  /** The run ended before the call was confirmed to start: do not execute it. */
  run_terminated: "run_terminated",
} as const;

/** Why the server chose a report action (stable codes, for logs and tests). */
export const REPORT_REASONS = {
  /** No such call reaches this executor (unknown, or outside its bindings and scope). */
  unknown_call: "unknown_call",
  /** The run ended and this executor's claim was never confirmed to start. */
  run_ended: "run_ended",
  /** The call ended (cancelled, expired, or settled by another executor) without this executor starting it. */
  call_closed: "call_closed",
  /** This executor does not hold the call (claim lapsed, released or taken by another executor). */
  not_held: "not_held",
  /** The server lacks receipts the executor listed (or the executor listed none and no final receipt is stored). */
  missing_receipts: "missing_receipts",
  /** The call's outcome is unknown and no final receipt reconciled it yet. */
  reconciliation_open: "reconciliation_open",
  /** The server holds every receipt listed; the call is still open. */
  up_to_date: "up_to_date",
  /** The call is settled and the server holds every receipt listed. */
  settled: "settled",
} as const;

const EXECUTOR_ID = Id(
  "The executor's stable ID, chosen by the product: 1–128 characters of letters, digits and `_ . : -`, starting with a letter or digit. Keep it across restarts: receipts and accepted calls stay with it.",
);
const CONNECTION_ID = Id("The connection's ID, as connect answered it.");
const BINDING_IDS = Type.Array(Id("An executor binding's ID."), {
  description: "The bindings this connection serves; each must exist and lie in the key's binding scope.",
  minItems: 1,
  maxItems: EXECUTOR_BINDINGS_MAX,
  uniqueItems: true,
});
const INTERVAL = (description: string) => Type.Integer({ description, minimum: 1 });
const TOOL_NAMES = Type.Array(
  Type.String({ description: "A tool name (1–128 of `A–Z a–z 0–9 _ . -`).", pattern: TOOL_NAME_PATTERN.source }),
  {
    description: `The tools this connection runs (the names its executor registered handlers for), at most ${EXECUTOR_TOOL_NAMES_MAX}. Binding diagnostics show them and name tools no online executor serves; omitted: not declared (an older executor), assumed to serve every tool.`,
    maxItems: EXECUTOR_TOOL_NAMES_MAX,
    uniqueItems: true,
  },
);

/** Path parameters of `/v1/executors/{executor_id}/…`. */
export const ExecutorIdParams = WireObject("Names one executor.", { executor_id: EXECUTOR_ID });

/** Path parameters of `/v1/executors/{executor_id}/…`. */
export type ExecutorIdParams = Static<typeof ExecutorIdParams>;

/** `POST /v1/executors/connect` body. */
export const ConnectRequest = WireObject("Connects an executor for some bindings.", {
  executor_id: EXECUTOR_ID,
  binding_ids: BINDING_IDS,
  tool_names: Type.Optional(TOOL_NAMES),
});

/** `POST /v1/executors/connect` body. */
export type ConnectRequest = Static<typeof ConnectRequest>;

/** `POST /v1/executors/connect` answer. */
export const ExecutorConnection = WireObject("A new connection; any older connection of the executor is fenced.", {
  executor_id: EXECUTOR_ID,
  connection_id: Id("The new connection: send it with every heartbeat, pending, report, disconnect and claim."),
  epoch: Type.Integer({ description: "1 on the first connect, one more on every reconnect.", minimum: 1 }),
  heartbeat_interval_ms: INTERVAL("Send a heartbeat this often."),
  lease_ttl_ms: INTERVAL("The connection goes offline this long after its last heartbeat."),
  binding_ids: BINDING_IDS,
  batch: Type.Optional(ExecutorBatchLimits),
});

/** `POST /v1/executors/connect` answer. */
export type ExecutorConnection = Static<typeof ExecutorConnection>;

/** A body naming the caller's connection (heartbeat, disconnect). */
export const ConnectionRequest = WireObject("Names the executor's current connection.", {
  connection_id: CONNECTION_ID,
});

/** A body naming the caller's connection. */
export type ConnectionRequest = Static<typeof ConnectionRequest>;

/** A business-task cancellation requested for a call this executor holds. */
export const CancellationRequest = WireObject("A business cancellation to carry out and confirm.", {
  run_id: Id("The call's run."),
  call_id: Id("The call; confirm with a `cancelled` receipt once the business task stopped."),
  requested_at: Timestamp("When the cancellation was requested."),
});

/** A business-task cancellation request. */
export type CancellationRequest = Static<typeof CancellationRequest>;

const CANCELLATIONS = Type.Array(CancellationRequest, {
  description: "Calls this executor holds (claimed or accepted) whose business task was asked to stop, oldest first.",
});

/** `POST /v1/executors/{executor_id}/heartbeat` answer. */
export const HeartbeatAnswer = WireObject("The renewed lease and pending business cancellations.", {
  executor_id: EXECUTOR_ID,
  connection_id: CONNECTION_ID,
  lease_expires_at: Timestamp("The connection stays online until then without another heartbeat."),
  heartbeat_interval_ms: INTERVAL("Send the next heartbeat within this interval."),
  cancellations: CANCELLATIONS,
});

/** `POST /v1/executors/{executor_id}/heartbeat` answer. */
export type HeartbeatAnswer = Static<typeof HeartbeatAnswer>;

/** `GET /v1/executors/{executor_id}/pending` query. */
export const PendingQuery = WireObject("Which candidates to list and how long to wait for one.", {
  connection_id: CONNECTION_ID,
  limit: Type.Optional(
    Type.Integer({
      description: `How many candidates to answer at most (default ${PAGE_LIMIT_DEFAULT}).`,
      minimum: 1,
      maximum: PAGE_LIMIT_MAX,
      default: PAGE_LIMIT_DEFAULT,
    }),
  ),
  cursor: Type.Optional(
    StoredText({ description: "The `next_cursor` of the previous page.", minLength: 1, maxLength: 1024 }),
  ),
  wait_ms: Type.Optional(
    Type.Integer({
      description: `When no candidate exists, wait up to this long for one (long-poll; default 0, at most ${PENDING_WAIT_MS_MAX}).`,
      minimum: 0,
      maximum: PENDING_WAIT_MS_MAX,
      default: 0,
    }),
  ),
  claim: Type.Optional(
    Type.Integer({
      description: `Claim up to this many of the candidates directly (1 to ${PENDING_CLAIM_MAX}; needs \`tools:execute\` too): the answer's \`claims\` are what the claim route answers.`,
      minimum: 1,
      maximum: PENDING_CLAIM_MAX,
    }),
  ),
});

/** `GET /v1/executors/{executor_id}/pending` query. */
export type PendingQuery = Static<typeof PendingQuery>;

/** A candidate call: IDs, tool, binding and time — never arguments, never a grant. */
export const PendingCall = WireObject("A call the executor may try to claim.", {
  run_id: Id("The call's run."),
  call_id: Id("The call."),
  tool_name: Type.String({ description: "The tool's name." }),
  binding_id: Id("The binding the tool runs on (one of the connection's)."),
  created_at: Timestamp("When the call was created."),
  traceparent: CALL_TRACEPARENT,
});

/** A candidate call. */
export type PendingCall = Static<typeof PendingCall>;

/** `GET /v1/executors/{executor_id}/pending` answer. */
export const PendingAnswer = WireObject("Candidate calls, oldest first, and pending business cancellations.", {
  data: Type.Array(PendingCall, { description: "Claimable calls on the connection's bindings, oldest first." }),
  cancellations: CANCELLATIONS,
  next_cursor: Nullable(
    Type.String({ description: "Opaque cursor of the next page." }),
    "Pass as `cursor` to read the next page; null on the last page.",
  ),
  claims: Type.Optional(
    Type.Array(ClaimAnswer, {
      description:
        "Only with `claim`: the claims made for this request, each exactly what the claim route answers (arguments and grant included); these calls are not in `data`.",
    }),
  ),
});

/** `GET /v1/executors/{executor_id}/pending` answer. */
export type PendingAnswer = Static<typeof PendingAnswer>;

/** One call of the executor's journal, as reported. */
export const ReportedCall = WireObject("A call the executor holds in its journal.", {
  call_id: Id("The call."),
  claim_id: Type.Optional(Id("The claim the executor holds it under.")),
  state: Type.Enum(Object.values(REPORTED_CALL_STATES), {
    description: "`pending_delivery` (receipts not yet delivered) or `pending_reconciliation` (outcome unknown).",
  }),
  receipt_ids: Type.Optional(
    Type.Array(
      StoredText({ description: "A receipt ID the executor saved.", minLength: 1, maxLength: RECEIPT_ID_MAX_LENGTH }),
      {
        description: "The receipts the executor saved for this call.",
        maxItems: REPORT_RECEIPT_IDS_MAX,
        uniqueItems: true,
      },
    ),
  ),
});

/** One reported call. */
export type ReportedCall = Static<typeof ReportedCall>;

/** `POST /v1/executors/{executor_id}/calls/report` body. */
export const ReportRequest = WireObject("The calls the executor holds as pending delivery or reconciliation.", {
  connection_id: CONNECTION_ID,
  calls: Type.Array(ReportedCall, {
    description: "The calls, in any order.",
    minItems: 1,
    maxItems: REPORT_CALLS_MAX,
  }),
});

/** `POST /v1/executors/{executor_id}/calls/report` body. */
export type ReportRequest = Static<typeof ReportRequest>;

/** What the server has about one reported call and what the executor should do. */
export const CallReport = WireObject("The server's side of one reported call.", {
  call_id: Id("The reported call."),
  run_id: Nullable(Id("The call's run."), "The call's run; null for an unknown call."),
  status: Nullable(
    Type.Enum(Object.values(CALL_STATUSES), { description: "The call's status." }),
    "The call's status; null for an unknown call.",
  ),
  run_status: Nullable(
    Type.Enum(Object.values(RUN_STATUSES), { description: "The run's status." }),
    "The run's status; null for an unknown call.",
  ),
  receipt_ids: Type.Array(Type.String({ description: "A receipt ID." }), {
    description: "The receipts of this executor the server holds for the call, in arrival order.",
  }),
  action: Type.Enum(Object.values(REPORT_ACTIONS), {
    description: "`redeliver`, `reconcile`, `nothing` or `run_terminated` (do not execute).",
  }),
  reason: Type.Enum(Object.values(REPORT_REASONS), { description: "Why (a stable code)." }),
});

/** One call's report answer. */
export type CallReport = Static<typeof CallReport>;

/** `POST /v1/executors/{executor_id}/calls/report` answer. */
export const ReportAnswer = WireObject("The server's answer per reported call, in request order.", {
  executor_id: EXECUTOR_ID,
  calls: Type.Array(CallReport, { description: "One answer per reported call, in request order." }),
});

/** `POST /v1/executors/{executor_id}/calls/report` answer. */
export type ReportAnswer = Static<typeof ReportAnswer>;

/** `POST /v1/executors/{executor_id}/disconnect` answer. */
export const DisconnectAnswer = WireObject("The executor detached.", {
  executor_id: EXECUTOR_ID,
  online: Type.Literal(false, { description: "Always false." }),
  released: Type.Array(Id("A call returned to pending."), {
    description:
      "Claimed-but-not-accepted calls this detach released: back to pending (cancelled instead when their business cancel had been requested). Accepted calls stay with the executor ID.",
  }),
});

/** `POST /v1/executors/{executor_id}/disconnect` answer. */
export type DisconnectAnswer = Static<typeof DisconnectAnswer>;
