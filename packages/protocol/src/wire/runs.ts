/**
 * Wire schemas of the run routes (docs/runs.md): runs of a session, their tool calls and execution
 * history, run cancel, business-task cancel and compensation. Optional members (`output?`,
 * `executor_id?`, …) are absent, not null, when the fact does not exist.
 */

import { type Static, Type } from "typebox";
import { CALL_STATUSES } from "../calls/call-status.js";
import { TOOL_NAME_PATTERN } from "../config/tool-definition.js";
import { TOOL_EFFECTS } from "../config/tool-effect.js";
import { CALL_REJECTIONS } from "../runs/call-rejection.js";
import { RUN_STATUSES } from "../runs/run-status.js";
import { AnyObject, Id, Nullable, Page, PageQuery, Timestamp, WireObject } from "./common.js";
import { ContextPreview } from "./context-preview.js";

const RUN_ID = Id("The run's ID.");
const CALL_ID = Id("The tool call's ID.");
const TOOL_NAME = Type.String({ description: "The tool's name in the run's toolset version." });

/** A run status. */
export const RunStatus = Type.Enum(Object.values(RUN_STATUSES), {
  description:
    "`queued`, `running`, `waiting_for_tools`, or the terminal `completed`, `failed`, `cancelled`, `expired`.",
});

/** A call status. */
export const CallStatus = Type.Enum(Object.values(CALL_STATUSES), {
  description:
    "`pending`, `claimed`, `accepted`, `reconciliation_required`, or the final `completed`, `failed`, `cancelled`, `expired`.",
});

/** Path parameters of `/v1/runs/{run_id}…`. */
export const RunIdParams = WireObject("Names one run.", { run_id: RUN_ID });

/** Path parameters of `/v1/runs/{run_id}…`. */
export type RunIdParams = Static<typeof RunIdParams>;

/** Path parameters of `/v1/runs/{run_id}/tool-calls/{call_id}…`. */
export const RunCallParams = WireObject("Names one tool call of one run.", { run_id: RUN_ID, call_id: CALL_ID });

/** Path parameters of `/v1/runs/{run_id}/tool-calls/{call_id}…`. */
export type RunCallParams = Static<typeof RunCallParams>;

/** `POST /v1/sessions/{session_id}/runs` body. */
export const CreateRunRequest = WireObject("A new run of the session's agent version.", {
  input: Type.Unknown({
    description: "What the run starts from (usually the end user's message): any JSON value, kept byte for byte.",
  }),
});

/** `POST /v1/sessions/{session_id}/runs` body. */
export type CreateRunRequest = Static<typeof CreateRunRequest>;

/** Why a run failed. */
export const RunError = WireObject("Why the run failed.", {
  code: Type.String({ description: "Stable: `script_exhausted`, `context_window_exceeded`, `model_error`, …" }),
  message: Type.String({ description: "For people; may change." }),
});

/** A run. */
export const Run = WireObject("A run: one execution of the session's agent version.", {
  run_id: RUN_ID,
  session_id: Id("The session the run belongs to."),
  agent_id: Id("The session's agent."),
  agent_version: Id("The session's pinned agent version."),
  status: RunStatus,
  output: Type.Optional(Type.String({ description: "The model's final message; only on a completed run." })),
  error: Type.Optional(RunError),
  created_at: Timestamp("When the run was created."),
  updated_at: Timestamp("When the run last changed."),
  ended_at: Type.Optional(Timestamp("When the run reached a terminal status.")),
});

/** A run. */
export type Run = Static<typeof Run>;

/** `GET /v1/sessions/{session_id}/runs` answer. */
export const RunList = Page("Runs of one session, in creation order.", Run);

/** `GET /v1/sessions/{session_id}/runs` answer. */
export type RunList = Static<typeof RunList>;

/** `GET /v1/runs` query: paging and the optional filters (both together: runs matching both). */
export const RecentRunsQuery = WireObject("Paging and filters of the runs list.", {
  ...PageQuery.properties,
  status: Type.Optional(
    Type.Enum(Object.values(RUN_STATUSES), { description: "Only runs in this status (`queued`, `failed`, …)." }),
  ),
  agent_id: Type.Optional(Id("Only runs of this agent (an agent outside the key's agent scope lists nothing).")),
});

/** `GET /v1/runs` query. */
export type RecentRunsQuery = Static<typeof RecentRunsQuery>;

/** `GET /v1/runs` answer. */
export const RecentRunList = Page("Runs in the credential's agent scope, newest first.", Run);

/** `GET /v1/runs` answer. */
export type RecentRunList = Static<typeof RecentRunList>;

/** `POST /v1/runs/{run_id}/cancel` body: nothing to say (`{}` or no body). */
export const CancelRunRequest = WireObject("Cancels the run.", {});

/** `POST /v1/runs/{run_id}/cancel` answer. */
export const CancelledRun = WireObject("The run is cancelled.", {
  run_id: RUN_ID,
  status: Type.Literal("cancelled", { description: "Always `cancelled`." }),
});

/** `POST /v1/runs/{run_id}/cancel` answer. */
export type CancelledRun = Static<typeof CancelledRun>;

/** One tool call of a run (a compensation call too). */
export const ToolCall = WireObject("A tool call of a run, or a compensation call linked to one.", {
  call_id: CALL_ID,
  run_id: RUN_ID,
  turn: Type.Optional(
    Type.Integer({
      description: "The model turn (0, 1, …) that emitted it; absent on compensation calls.",
      minimum: 0,
    }),
  ),
  tool_name: TOOL_NAME,
  binding_id: Type.Optional(
    Id("The executor binding that runs the tool; absent when the model named a tool the toolset lacks."),
  ),
  effect: Type.Enum(Object.values(TOOL_EFFECTS), { description: "`read` or `write`, from the tool definition." }),
  status: CallStatus,
  rejected: Type.Optional(
    Type.Enum(Object.values(CALL_REJECTIONS), {
      description:
        "Set when the server refused the call before any executor saw it (status `failed`); the model got the error as the tool result.",
    }),
  ),
  executor_id: Type.Optional(Id("The executor holding (or that held) the claim.")),
  claim_id: Type.Optional(Id("The claim.")),
  claimed_at: Type.Optional(Timestamp("When the current claim was made.")),
  accepted_at: Type.Optional(Timestamp("When the server confirmed the executor's `accepted` receipt.")),
  compensates: Type.Optional(Id("On a compensation call: the completed call it compensates.")),
  arguments_digest: Type.String({ description: "`sha256:` of the arguments' canonical form." }),
  cancel_requested_at: Type.Optional(Timestamp("When a business-task cancellation was requested.")),
  deadline: Timestamp("The call's deadline: its creation plus the tool's `timeout_ms`."),
  created_at: Timestamp("When the call was created."),
  updated_at: Timestamp("When the call last changed."),
  settled_at: Type.Optional(Timestamp("When the call reached a final status or `reconciliation_required`.")),
});

/** One tool call. */
export type ToolCall = Static<typeof ToolCall>;

/** `GET /v1/runs/{run_id}/tool-calls` answer. */
export const ToolCallList = Page("Tool calls of one run, in creation order (compensation calls included).", ToolCall);

/** `GET /v1/runs/{run_id}/tool-calls` answer. */
export type ToolCallList = Static<typeof ToolCallList>;

/** `POST /v1/runs/{run_id}/tool-calls/{call_id}/cancel` body: nothing to say (`{}` or no body). */
export const CancelCallRequest = WireObject("Asks for the business task behind the call to be cancelled.", {});

/** `POST /v1/runs/{run_id}/tool-calls/{call_id}/cancel` answer. */
export const CallCancelRequested = WireObject("The cancellation is recorded.", {
  call_id: CALL_ID,
  status: CallStatus,
  cancel_requested: Type.Literal(true, {
    description:
      "Always true: a pending call is `cancelled` at once; a claimed or accepted one keeps its status until the executor confirms with a `cancelled` receipt.",
  }),
});

/** `POST /v1/runs/{run_id}/tool-calls/{call_id}/cancel` answer. */
export type CallCancelRequested = Static<typeof CallCancelRequested>;

/** `POST /v1/runs/{run_id}/tool-calls/{call_id}/compensate` body. */
export const CompensateRequest = WireObject("A compensating call for a completed write call.", {
  tool_name: Type.String({
    description: "The compensating tool, from the run's toolset version.",
    pattern: TOOL_NAME_PATTERN.source,
  }),
  arguments: AnyObject("Its arguments; they must match the tool's input schema (422 with the pointer otherwise)."),
});

/** `POST /v1/runs/{run_id}/tool-calls/{call_id}/compensate` body. */
export type CompensateRequest = Static<typeof CompensateRequest>;

const ITEM_TYPES = "`input`, `message`, `tool_calls`, `tool_result`, `compaction`";

/** One committed item of a run's execution history (compact JSON, served byte for byte as stored). */
export const HistoryItem = Type.Union(
  [
    WireObject("The run's input.", {
      type: Type.Literal("input"),
      input: Type.Unknown({ description: "The input as sent." }),
    }),
    WireObject("The model's final message.", {
      type: Type.Literal("message"),
      text: Type.String({ description: "The message (the run's output)." }),
    }),
    WireObject("The tool calls one model turn emitted.", {
      type: Type.Literal("tool_calls"),
      calls: Type.Array(
        WireObject("One call as the model emitted it.", {
          call_id: CALL_ID,
          name: Type.String({ description: "The tool name the model used." }),
          arguments: Type.Unknown({ description: "The arguments as the model emitted them." }),
        }),
        { description: "The calls, in the model's order." },
      ),
    }),
    WireObject("What the model sees of one call's outcome.", {
      type: Type.Literal("tool_result"),
      call_id: CALL_ID,
      receipt_id: Nullable(
        Type.String({ description: "The receipt that carried the outcome." }),
        "Null when no receipt did (arguments refused, call cancelled before it ran, expired, silent past its deadline).",
      ),
      context_preview: ContextPreview,
    }),
    WireObject("A compaction: later model requests show `summary` instead of the items it replaces.", {
      type: Type.Literal("compaction"),
      summary: Type.String({ description: "The summary the model (or the scripted model) made of those items." }),
      through_seq: Type.Integer({
        description: "The last item it replaces (every item after the input, up to this position).",
        minimum: 0,
      }),
    }),
  ],
  { description: `One history item: ${ITEM_TYPES}. Items are never rewritten; later facts are new items.` },
);

/** One committed history item. */
export type HistoryItem = Static<typeof HistoryItem>;

/** `GET /v1/runs/{run_id}/history` answer. */
export const HistoryPage = Page("The run's history, oldest first.", HistoryItem);

/** `GET /v1/runs/{run_id}/history` answer. */
export type HistoryPage = Static<typeof HistoryPage>;

/** One model request a run made. */
export const ModelRequest = WireObject("One request a run made to its model: a turn, or a summary for compaction.", {
  request_id: Id("The request's ID."),
  turn: Type.Integer({ description: "The model turn (0, 1, …) it was made for.", minimum: 0 }),
  purpose: Type.Enum(["turn", "summary"], {
    description: "`turn`: asks for the next step; `summary`: summarises the oldest turns for compaction.",
  }),
  provider: Type.String({ description: "`scripted`, `openai` or `anthropic`." }),
  model: Type.String({ description: "The model name (`scripted` for the scripted model)." }),
  request_bytes: Type.Integer({ description: "UTF-8 bytes of the request body.", minimum: 0 }),
  estimated_input_tokens: Type.Integer({
    description: "The calibrated estimate of its input tokens, made before it was sent.",
    minimum: 0,
  }),
  actual_input_tokens: Nullable(
    Type.Integer({ description: "The provider's `usage` input tokens.", minimum: 0 }),
    "Null when the provider reported none (the scripted model, a failed request).",
  ),
  output_tokens: Nullable(
    Type.Integer({ description: "The provider's `usage` output tokens.", minimum: 0 }),
    "Null when the provider reported none.",
  ),
  compacted: Type.Boolean({ description: "True when the history was compacted just before this request." }),
  latency_ms: Type.Integer({ description: "From sending to the answer, retries included.", minimum: 0 }),
  error: Type.Optional(RunError),
  created_at: Timestamp("When the request was made."),
});

/** One model request. */
export type ModelRequest = Static<typeof ModelRequest>;

/** `GET /v1/runs/{run_id}/model-requests` answer. */
export const ModelRequestList = Page("The run's model requests, in creation order.", ModelRequest);

/** `GET /v1/runs/{run_id}/model-requests` answer. */
export type ModelRequestList = Static<typeof ModelRequestList>;

/** `GET /v1/runs/{run_id}/events` headers: where a resumed stream starts. */
export const RunEventsHeaders = Type.Object(
  {
    "last-event-id": Type.Optional(
      Type.String({
        description: "Resume: only events after this `id:` are sent (what EventSource sends when it reconnects).",
        pattern: "^[0-9]{1,15}$",
      }),
    ),
  },
  { description: "Resumption." },
);
