/**
 * The SQL tables as Kysely sees them (the current schema, after every migration). Migrations do not
 * import these types: each migration describes the tables as they were when it was written.
 *
 * Times are integer milliseconds (`bigint` columns, read as JS numbers); JSON-valued columns end in
 * `_json` and hold text exactly as it was validated. Where a stored record is the row as it is, its
 * type is derived from the table here (`Selectable<…>` in records.ts), so the columns are written once.
 */

import type { CallStatus, ToolEffect } from "@toolhost/protocol";

/** `keys`: API keys; `key_hash` is unique. */
export interface KeysTable {
  key_id: string;
  name: string;
  key_hash: string;
  /** JSON array of scopes. */
  scopes_json: string;
  /** JSON `"*"` or array of agent IDs. */
  agents_json: string;
  /** JSON `"*"` or array of binding IDs. */
  bindings_json: string;
  /** JSON `"*"` or array of model connection IDs (0012). */
  connections_json: string;
  created_at_ms: number;
  revoked_at_ms: number | null;
}

/** `bindings`: executor bindings. */
export interface BindingsTable {
  binding_id: string;
  name: string;
  created_at_ms: number;
}

/** `toolsets`: one row per toolset; `latest_version` is the highest version number. */
export interface ToolsetsTable {
  toolset_id: string;
  name: string;
  latest_version: number;
  created_at_ms: number;
}

/** `toolset_versions`: immutable versions, primary key (toolset_id, version). */
export interface ToolsetVersionsTable {
  toolset_id: string;
  version: number;
  tools_json: string;
  created_at_ms: number;
}

/**
 * `toolset_bindings`: every executor binding any version of a toolset references, primary key
 * (toolset_id, binding_id) (0007). Rows are only added, with the version that references them.
 */
export interface ToolsetBindingsTable {
  toolset_id: string;
  binding_id: string;
}

/** `agents`: one row per agent; `latest_version_number` (not part of the record) numbers its versions. */
export interface AgentsTable {
  agent_id: string;
  name: string;
  latest_version_number: number;
  created_at_ms: number;
}

/** `agent_versions`: immutable versions, unique (agent_id, number). */
export interface AgentVersionsTable {
  agent_version: string;
  agent_id: string;
  /** 1, 2, … per agent, for listing in order. */
  number: number;
  toolset_id: string;
  toolset_version: number;
  model_json: string;
  instructions: string;
  max_context_tokens: number;
  /** The version's own run limits; NULL: the server's (0013). */
  max_turns: number | null;
  max_tool_calls: number | null;
  run_timeout_ms: number | null;
  created_at_ms: number;
}

/** `sessions`: each pins one agent version. */
export interface SessionsTable {
  session_id: string;
  agent_version: string;
  agent_id: string;
  subject: string;
  created_at_ms: number;
}

/** `execution_history`: committed run history items, primary key (run_id, seq); never rewritten. */
export interface ExecutionHistoryTable {
  run_id: string;
  seq: number;
  /** The item as compact JSON text (written once, reused byte for byte). */
  item_json: string;
  created_at_ms: number;
}

/** `runs`: one row per run (0003). */
export interface RunsTable {
  run_id: string;
  session_id: string;
  agent_id: string;
  agent_version: string;
  subject: string;
  status: string;
  input_json: string;
  turn: number;
  /** The model's final message as a JSON string literal (0006; raw text could not keep U+0000). */
  output_json: string | null;
  error_json: string | null;
  history_length: number;
  created_at_ms: number;
  updated_at_ms: number;
  ended_at_ms: number | null;
  /** The run's limits, fixed at its creation (0013). */
  max_turns: number;
  max_tool_calls: number;
  /** Tool calls the run's model asked for, refused ones included (0013). */
  tool_call_count: number;
  /** When the run expires; NULL for runs that ended before 0013 (0013). */
  deadline_ms: number | null;
  /** When the turn it waited for settled, until the turn engine advanced it; else NULL (0019). */
  ready_at_ms: number | null;
}

/** `tool_calls`: one row per call, holding its claim (0003). */
export interface ToolCallsTable {
  call_id: string;
  run_id: string;
  turn: number;
  position: number;
  tool_name: string;
  binding_id: string;
  effect: ToolEffect;
  max_result_context_bytes: number;
  /** The arguments as compact JSON text in the model's key order. */
  arguments_json: string;
  arguments_digest: string;
  /** Checked when read (`callFromRow`): a value the protocol does not know is a corrupt row. */
  status: CallStatus;
  executor_id: string | null;
  claim_id: string | null;
  /** Hex SHA-256 of the claim's grant. */
  grant_hash: string | null;
  claimed_at_ms: number | null;
  /** A claim not accepted by then lapses and the call returns to pending. */
  accept_deadline_ms: number | null;
  accepted_at_ms: number | null;
  /** When the call reached a settled status (final or reconciliation_required). */
  settled_at_ms: number | null;
  /** The call's deadline: created + the tool's `timeout_ms`. */
  deadline_ms: number;
  /** When a business-task cancellation was requested (delivered through heartbeat and pending). */
  cancel_requested_at_ms: number | null;
  /** For a compensation call: the completed call it compensates. */
  compensates: string | null;
  created_at_ms: number;
  updated_at_ms: number;
  /**
   * The `traceparent` of the call's `toolhost.tool_call` span (in the run's trace), which the spans of
   * its claim and receipts link to; NULL without a valid trace context (0009). Never digested or compared.
   */
  trace_context: string | null;
}

/** `receipts`: every receipt as received (0003), primary key (call_id, claim_id, receipt_id) (0004). */
export interface ReceiptsTable {
  call_id: string;
  receipt_id: string;
  seq: number;
  run_id: string;
  kind: string;
  executor_id: string;
  claim_id: string;
  /**
   * The body as received, or (`body_grant` not NULL) the body after its envelope, which is rebuilt
   * from the row's columns and `body_grant` (0022, calls/receipt-envelope.ts).
   */
  body_text: string;
  /**
   * The envelope's grant when `body_text` is stored without the envelope (0022): its 32 bytes, or 33
   * with a first byte 1 for the runners' member order; NULL: stored whole.
   */
  body_grant: Uint8Array | null;
  /** The 32 bytes of the body's SHA-256 (0019; `sha256:<hex>` text before). */
  body_digest: Uint8Array;
  /** NULL: the answer a replay rebuilds from the columns (0019). */
  answer_json: string | null;
  /** 1 or 0. */
  applied: number;
  created_at_ms: number;
  /**
   * With the next three: `body_text` is the body without its result text, which is the run's history
   * item `result_seq` from UTF-16 offset `result_from`, `result_length` long, put back at `result_at` (0017):
   * an offset into the stored `body_text` (after the envelope, 0022), put back before the envelope is.
   */
  result_seq: number | null;
  result_at: number | null;
  result_from: number | null;
  result_length: number | null;
}

/** `executors`: one row per stable executor ID (0003). */
export interface ExecutorsTable {
  executor_id: string;
  connection_id: string;
  epoch: number;
  binding_ids_json: string;
  key_id: string;
  /** 1 or 0. */
  online: number;
  connected_at_ms: number;
  last_heartbeat_ms: number;
  lease_expires_ms: number;
  disconnected_at_ms: number | null;
  /** The tools the connection declared, as a JSON array; NULL when it declared none (0005). */
  tool_names_json: string | null;
}

/** `server_secrets`: secrets shared by every instance on the database, e.g. the grant key (0003). */
export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at_ms: number;
}

/** `model_turns`: a run waiting for a model request, leased by one server instance at a time (0008). */
export interface ModelTurnsTable {
  run_id: string;
  turn: number;
  owner: string | null;
  lease_expires_ms: number;
  attempts: number;
  created_at_ms: number;
  updated_at_ms: number;
}

/** `model_requests`: every model request made (0008). */
export interface ModelRequestsTable {
  request_id: string;
  run_id: string;
  turn: number;
  purpose: string;
  provider: string;
  model: string;
  request_bytes: number;
  estimated_input_tokens: number;
  actual_input_tokens: number | null;
  output_tokens: number | null;
  /** 1 or 0. */
  compacted: number;
  latency_ms: number;
  error_json: string | null;
  created_at_ms: number;
}

/** `token_calibrations`: least-squares sums per (provider, model) (0008). */
export interface TokenCalibrationsTable {
  provider: string;
  model: string;
  observations: number;
  xx00: number;
  xx01: number;
  xx02: number;
  xx03: number;
  xx04: number;
  xx11: number;
  xx12: number;
  xx13: number;
  xx14: number;
  xx22: number;
  xx23: number;
  xx24: number;
  xx33: number;
  xx34: number;
  xx44: number;
  xy0: number;
  xy1: number;
  xy2: number;
  xy3: number;
  xy4: number;
  updated_at_ms: number;
}

/** `run_events`: a run's event stream, primary key (run_id, seq) (0008). */
export interface RunEventsTable {
  run_id: string;
  seq: number;
  kind: string;
  /** The wire form; with `ref_id`, the snapshot the wire form is rebuilt from (or NULL). */
  data_json: string | null;
  history_seq: number | null;
  created_at_ms: number;
  /** The run, call or model request the event's data is rebuilt from; NULL: `data_json` is the wire form (0016). */
  ref_id: string | null;
}

/** Every table, by name. */
export interface Database {
  keys: KeysTable;
  bindings: BindingsTable;
  toolsets: ToolsetsTable;
  toolset_versions: ToolsetVersionsTable;
  toolset_bindings: ToolsetBindingsTable;
  agents: AgentsTable;
  agent_versions: AgentVersionsTable;
  sessions: SessionsTable;
  execution_history: ExecutionHistoryTable;
  runs: RunsTable;
  tool_calls: ToolCallsTable;
  receipts: ReceiptsTable;
  executors: ExecutorsTable;
  server_secrets: ServerSecretsTable;
  model_turns: ModelTurnsTable;
  model_requests: ModelRequestsTable;
  token_calibrations: TokenCalibrationsTable;
  run_events: RunEventsTable;
}
