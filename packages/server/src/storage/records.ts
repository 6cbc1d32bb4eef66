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

/** Credential scopes (SPEC §8). */
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
  /** Manage API keys; satisfies every other scope. */
  admin: "admin",
} as const;

/** One credential scope. */
export type Scope = keyof typeof SCOPES;

/** An agent or binding scope: every ID (`"*"`) or a list of IDs. */
export type IdScope = "*" | string[];

/** A stored API key (the secret itself is never stored). */
export interface KeyRecord {
  key_id: string;
  name: string;
  /** Lowercase hex SHA-256 of the secret. */
  key_hash: string;
  scopes: Scope[];
  agents: IdScope;
  bindings: IdScope;
  created_at_ms: number;
  revoked_at_ms: number | null;
}

/** A stored executor binding. */
export interface BindingRecord {
  binding_id: string;
  name: string;
  created_at_ms: number;
}

/** A stored toolset (its versions are separate records). */
export interface ToolsetRecord {
  toolset_id: string;
  name: string;
  latest_version: number;
  created_at_ms: number;
}

/** A stored, immutable toolset version; `tools_json` is the validated tool list as JSON text. */
export interface ToolsetVersionRecord {
  toolset_id: string;
  version: number;
  tools_json: string;
  created_at_ms: number;
}

/** A stored agent (its versions are separate records). */
export interface AgentRecord {
  agent_id: string;
  name: string;
  created_at_ms: number;
}

/** A stored, immutable agent version; `model_json` is the validated model settings as JSON text. */
export interface AgentVersionRecord {
  agent_version: string;
  agent_id: string;
  /** 1, 2, … per agent, for listing in order. */
  number: number;
  toolset_id: string;
  toolset_version: number;
  model_json: string;
  instructions: string;
  max_context_tokens: number;
  created_at_ms: number;
}

/** A stored session. */
export interface SessionRecord {
  session_id: string;
  agent_version: string;
  agent_id: string;
  subject: string;
  created_at_ms: number;
}

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
