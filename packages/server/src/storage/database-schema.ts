/**
 * The SQL tables as Kysely sees them (the current schema, after every migration). Migrations do not
 * import these types: each migration describes the tables as they were when it was written.
 *
 * Times are integer milliseconds (`bigint` columns, read as JS numbers); JSON-valued columns end in
 * `_json` and hold text exactly as it was validated.
 */

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
  number: number;
  toolset_id: string;
  toolset_version: number;
  model_json: string;
  instructions: string;
  max_context_tokens: number;
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
  item_json: string;
  created_at_ms: number;
}

/** Every table, by name. */
export interface Database {
  keys: KeysTable;
  bindings: BindingsTable;
  toolsets: ToolsetsTable;
  toolset_versions: ToolsetVersionsTable;
  agents: AgentsTable;
  agent_versions: AgentVersionsTable;
  sessions: SessionsTable;
  execution_history: ExecutionHistoryTable;
}
