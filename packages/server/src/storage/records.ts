/**
 * Glossary of stored records (what storage reads and writes; the HTTP layer maps them to wire shapes).
 *
 * - **key**: an API credential; only the SHA-256 of its secret is stored.
 * - **binding**: an executor binding, a named place where tools execute; its ID grants nothing.
 * - **toolset / toolset version**: a named toolset and its immutable numbered versions of tools.
 * - **agent / agent version**: an agent and its immutable versions, each pinning one toolset version,
 *   the model settings, instructions and `max_context_tokens`. An agent version has an opaque ID.
 * - **session**: pins one agent version and a subject (the end user or account the runs act for).
 *
 * Times are integer milliseconds since the Unix epoch (`*_ms`); the HTTP layer writes them as ISO text.
 * JSON-valued fields (tools, model settings) are stored as text exactly as validated.
 */

import type { ReceiptKind, RunStatus } from "@toolhost/protocol";
import type { Selectable } from "kysely";
import type {
  AgentsTable,
  AgentVersionsTable,
  BindingsTable,
  ExecutionHistoryTable,
  SessionsTable,
  ToolCallsTable,
  ToolsetsTable,
  ToolsetVersionsTable,
} from "./database-schema.js";

/** Credential scopes (docs/security.md). */
export const SCOPES = {
  /** Read bindings, toolsets, agents, sessions and diagnostics. */
  "configuration:read": "configuration:read",
  /** Create bindings, toolsets, agents and their versions. */
  "configuration:write": "configuration:write",
  /** Read runs, tool calls and history; use dry-run. */
  "runtime:read": "runtime:read",
  /** Create sessions and runs, cancel runs and tool calls. */
  "runtime:write": "runtime:write",
  /** Connect an executor, heartbeat, list pending calls, report and disconnect. */
  "executors:connect": "executors:connect",
  /** Claim tool calls and post receipts. */
  "tools:execute": "tools:execute",
  /** Scrape `GET /metrics`. */
  "metrics:read": "metrics:read",
  /** Manage API keys; satisfies every other scope. */
  admin: "admin",
} as const;

/** One credential scope. */
export type Scope = keyof typeof SCOPES;

/** An agent, binding or model connection scope: every ID (`"*"`) or a list of IDs. */
export type IdScope = "*" | string[];

/**
 * A key's agent, binding and model connection scopes together: which objects it reaches, which of
 * the operator's model connections its agent versions may name, and which other keys it reaches.
 */
export interface IdScopes {
  readonly agents: IdScope;
  readonly bindings: IdScope;
  readonly connections: IdScope;
}

/** A stored API key (the secret itself is never stored). */
export interface KeyRecord {
  key_id: string;
  name: string;
  /** Lowercase hex SHA-256 of the secret. */
  key_hash: string;
  scopes: Scope[];
  agents: IdScope;
  bindings: IdScope;
  /** The model connections its agent versions may name (docs/configuration.md#model-connections). */
  connections: IdScope;
  created_at_ms: number;
  revoked_at_ms: number | null;
}

/** A stored executor binding. */
export type BindingRecord = Selectable<BindingsTable>;

/** A stored toolset (its versions are separate records). */
export type ToolsetRecord = Selectable<ToolsetsTable>;

/** A stored, immutable toolset version; `tools_json` is the validated tool list as JSON text. */
export type ToolsetVersionRecord = Selectable<ToolsetVersionsTable>;

/** A stored agent (its versions are separate records; the row's version counter is not part of it). */
export type AgentRecord = Omit<Selectable<AgentsTable>, "latest_version_number">;

/** A stored, immutable agent version; `model_json` is the validated model settings as JSON text. */
export type AgentVersionRecord = Selectable<AgentVersionsTable>;

/** A stored session. */
export type SessionRecord = Selectable<SessionsTable>;

/** A page of a list: the items and the opaque cursor of the next page (null at the end). */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** What a list call asks for: at most `limit` items after `cursor`. */
export interface PageRequest {
  limit: number;
  cursor?: string | null | undefined;
}

/*
 * Runtime records (0003_runtime).
 *
 * - **run**: one execution of an agent version in a session; `turn` counts model turns, the
 *   scripted model's next step is `script[turn]`.
 * - **call**: one tool call of a run (`turn`, `position` within the turn), or a compensation call
 *   (`compensates` = the call it compensates). The claim lives in the call row: `executor_id`,
 *   `claim_id`, `grant_hash`, `accept_deadline_ms`.
 * - **receipt**: one receipt of a call, its body exactly as received and the first answer given.
 * - **executor**: one stable executor ID, its current connection and lease.
 * - **history item**: one committed item of a run's execution history; never rewritten.
 */

/** A stored run. */
export interface RunRecord {
  run_id: string;
  session_id: string;
  agent_id: string;
  agent_version: string;
  subject: string;
  status: RunStatus;
  /** The run's input as JSON text. */
  input_json: string;
  /** Model turns started so far. */
  turn: number;
  output: string | null;
  /** `{code, message}` as JSON text when the run failed. */
  error_json: string | null;
  /** Items in the run's history (the next item's `seq`). */
  history_length: number;
  created_at_ms: number;
  updated_at_ms: number;
  ended_at_ms: number | null;
  /** Most model turns the run makes (fixed at its creation: the agent version's, else the server's). */
  max_turns: number;
  /** Most tool calls its model may ask for (fixed at its creation). */
  max_tool_calls: number;
  /** Tool calls the run's model asked for so far, refused ones included (docs/runs.md#limits). */
  tool_call_count: number;
  /** When the run expires (null only for runs that ended before deadlines were kept). */
  deadline_ms: number | null;
}

/** A stored tool call with its claim (see the columns of ToolCallsTable). */
export type CallRecord = Selectable<ToolCallsTable>;

/** A stored receipt. */
export interface ReceiptRecord {
  call_id: string;
  receipt_id: string;
  /** 1, 2, … per call, in arrival order. */
  seq: number;
  run_id: string;
  kind: ReceiptKind;
  executor_id: string;
  claim_id: string;
  /** The request body exactly as received. */
  body_text: string;
  /** `sha256:` of the body's sorted canonical form: equal digests are the same receipt. */
  body_digest: string;
  /**
   * The first answer, as JSON text; a replay answers it again with `replayed: true`. NULL when it
   * had the usual members (`calls/decide-receipt.ts` answerRebuildable): a replay rebuilds it from the
   * receipt's ID, kind and `applied` (0019).
   */
  answer_json: string | null;
  /** Whether the receipt changed the run (false for receipts that arrive after the run ended). */
  applied: boolean;
  created_at_ms: number;
}

/** A stored receipt without its body (what deciding on a redelivery needs). */
export type ReceiptFacts = Omit<ReceiptRecord, "body_text">;

/**
 * Where the result text of a `completed` receipt's body is stored already: in the run's history item
 * `seq` (the call's tool_result), UTF-16 offsets [from, from + length), the same text as the body's
 * from offset `at`. The receipt is then stored without it, and put back together when read.
 */
export interface ReceiptResultReference {
  seq: number;
  at: number;
  from: number;
  length: number;
}

/** A stored executor: its current connection and lease. */
export interface ExecutorRecord {
  executor_id: string;
  connection_id: string;
  /** Increases with every connect; older connections are fenced. */
  epoch: number;
  binding_ids: string[];
  /** The key that connected it. */
  key_id: string;
  online: boolean;
  connected_at_ms: number;
  last_heartbeat_ms: number;
  lease_expires_ms: number;
  disconnected_at_ms: number | null;
  /** The tools the current connection declared it runs; null when it declared none (assumed: every tool). */
  tool_names: string[] | null;
}

/** A committed item of a run's history. */
export type HistoryItemRecord = Selectable<ExecutionHistoryTable>;

/*
 * Model records (0008_models).
 *
 * - **model turn**: a run waiting for a model request; one server instance at a time holds its lease.
 * - **model request**: one request made to a model (a turn, or a summary for compaction).
 * - **calibration**: the least-squares sums relating request features to real input tokens.
 * - **run event**: one event of a run's event stream.
 */

/** A run waiting for its model turn `turn`, and who holds the lease on it. */
export interface ModelTurnRecord {
  run_id: string;
  /** The index of the turn to ask for (the run's `turn` is one more, counted when it started). */
  turn: number;
  /** The server instance driving it, or null when it waits for one. */
  owner: string | null;
  /** Until when `owner` holds it; any instance may take it after. */
  lease_expires_ms: number;
  /** How many times it was leased (more than one: an instance stopped or lost it mid-request). */
  attempts: number;
  created_at_ms: number;
  updated_at_ms: number;
}

/** What a model request was for. */
export type ModelRequestPurpose = "turn" | "summary";

/** One model request, as recorded. */
export interface ModelRequestRecord {
  request_id: string;
  run_id: string;
  turn: number;
  purpose: ModelRequestPurpose;
  provider: string;
  model: string;
  /** UTF-8 bytes of the request body (the provider's JSON). */
  request_bytes: number;
  estimated_input_tokens: number;
  /** The provider's `usage` input tokens; null when it answered none (or failed). */
  actual_input_tokens: number | null;
  output_tokens: number | null;
  /** True when the conversation was compacted before this request. */
  compacted: boolean;
  latency_ms: number;
  /** `{code, message}` as JSON text when the request failed. */
  error_json: string | null;
  created_at_ms: number;
}

/** Least-squares sums of one (provider, model): `sums` in CALIBRATION_SUM_COLUMNS order. */
export interface CalibrationSums {
  observations: number;
  sums: readonly number[];
}

/** The kinds of run events. */
export type RunEventKind = "run.status" | "history.item" | "tool_call.status" | "model.request";

/**
 * An event to append: its data; or (for `history.item`) the history item it names; or the row its
 * data is rebuilt from when read (`ref_id`: the run, the call, the model request) with what of that
 * row the event must show as it was then (`snapshot_json`; none for a model request, never changed).
 */
export type NewRunEvent =
  | { kind: Exclude<RunEventKind, "history.item">; data_json: string }
  | { kind: "history.item"; history_seq: number }
  | { kind: Exclude<RunEventKind, "history.item">; ref_id: string; snapshot_json: string | null };

/** The columns of a run a `run.status` event is rebuilt from: those that never change. */
export type RunEventRunFacts = Pick<
  RunRecord,
  "run_id" | "session_id" | "agent_id" | "agent_version" | "created_at_ms"
>;

/** The columns of a call a `tool_call.status` event is rebuilt from: those that never change. */
export type RunEventCallFacts = Pick<
  CallRecord,
  | "call_id"
  | "run_id"
  | "turn"
  | "position"
  | "tool_name"
  | "binding_id"
  | "effect"
  | "arguments_digest"
  | "compensates"
  | "deadline_ms"
  | "created_at_ms"
>;

/** The row a stored event's data is rebuilt from, read with it, and the event's snapshot. */
export type RunEventSource =
  | { kind: "run.status"; run: RunEventRunFacts; snapshot_json: string }
  | { kind: "tool_call.status"; call: RunEventCallFacts; snapshot_json: string }
  | { kind: "model.request"; request: ModelRequestRecord };

/** A stored run event with its data (a `history.item`'s data is `{"seq":n,"item":<the item>}`). */
export interface RunEventRecord {
  run_id: string;
  seq: number;
  kind: RunEventKind;
  /** The data, or null when its stored text is longer than the reader asked for (`data_bytes` says how long). */
  data_json: string | null;
  /** UTF-8 bytes of the stored text: the data, or for a `history.item` its item. */
  data_bytes: number;
  /** The history item a `history.item` names; null for the other kinds. */
  history_seq: number | null;
  created_at_ms: number;
}

/**
 * A run event as the store reads it: with `source` (an event stored as a reference), `data_json` is
 * null and `data_bytes` 0 until the runs area rebuilds the data (`runs/run-event-data.ts`).
 */
export interface StoredRunEvent extends RunEventRecord {
  source: RunEventSource | null;
}

/**
 * A call became claimable (created, or returned to pending): the wake-up of long-polling executors a
 * transaction registers as an after-commit effect (`AfterCommit.wakeExecutors`).
 */
export interface CallWakeup {
  readonly kind: "call";
  readonly call_id: string;
  readonly binding_id: string;
  readonly tool_name: string;
  /** How often a waiter that could not take the call handed it on (bounded by WAKEUP_HANDOFFS_MAX). */
  readonly handoffs: number;
}

/** A business cancel was asked for a call that `executor_id` holds. */
export interface CancelWakeup {
  readonly kind: "cancel";
  readonly executor_id: string;
}

/** One reason to wake long-polls. */
export type Wakeup = CallWakeup | CancelWakeup;
