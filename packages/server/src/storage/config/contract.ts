/**
 * The config aggregate's contract: API keys, executor bindings, toolsets and agents with their
 * immutable versions, sessions, and the secrets every instance shares. Implemented beside it over
 * Kysely; `createConfigStores` (index.ts) makes them.
 */

import type {
  AgentRecord,
  AgentVersionRecord,
  BindingRecord,
  IdScope,
  IdScopes,
  KeyRecord,
  Page,
  PageRequest,
  SessionRecord,
  ToolsetRecord,
  ToolsetVersionRecord,
} from "../records.js";

/** API keys. */
export interface KeyStore {
  /** Stores a new key. */
  insert(key: KeyRecord): Promise<void>;
  /** Stores the bootstrap key unless a key with the same hash exists; true when inserted. */
  ensure(key: KeyRecord): Promise<boolean>;
  /** The unrevoked key whose secret hashes to `keyHash`, if any. */
  findActiveByHash(keyHash: string): Promise<KeyRecord | undefined>;
  /** One key by ID (revoked or not). */
  get(keyId: string): Promise<KeyRecord | undefined>;
  /** Keys whose agents and bindings lie within `reach` (`keyWithinReach`), in creation order. */
  list(page: PageRequest, reach: IdScopes): Promise<Page<KeyRecord>>;
  /**
   * Marks a key revoked if its agents and bindings lie within `reach`; answers it as revoked, or
   * undefined when it does not exist or lies beyond `reach`. Revoking twice keeps the first time.
   */
  revoke(keyId: string, atMs: number, reach: IdScopes): Promise<KeyRecord | undefined>;
}

/** Executor bindings. */
export interface BindingStore {
  /** Stores a new binding; false when the ID is taken. */
  insert(binding: BindingRecord): Promise<boolean>;
  /** One binding, if it exists and lies in `scope`. */
  get(bindingId: string, scope: IdScope): Promise<BindingRecord | undefined>;
  /** Bindings in `scope`, in creation order. */
  list(page: PageRequest, scope: IdScope): Promise<Page<BindingRecord>>;
  /** Which of `bindingIds` exist (and lie in `scope`). */
  existing(bindingIds: readonly string[], scope: IdScope): Promise<Set<string>>;
}

/**
 * Toolsets and their immutable versions. A toolset lies in a binding scope when every binding any of
 * its versions references does (kept in `toolset_bindings` as versions are stored); one that
 * references none lies in every scope.
 */
export interface ToolsetStore {
  /** Stores a toolset with its version 1 (and the bindings it references). */
  insert(toolset: ToolsetRecord, first: ToolsetVersionRecord): Promise<void>;
  /**
   * Appends the next version if the toolset, with the bindings of `toolsJson` added, lies in `scope`
   * (checked under the toolset's row lock); answers it, or undefined when the toolset does not exist
   * or would lie beyond `scope` (nothing stored then).
   */
  appendVersion(
    toolsetId: string,
    toolsJson: string,
    atMs: number,
    scope: IdScope,
  ): Promise<ToolsetVersionRecord | undefined>;
  /** One toolset, if it lies in binding scope `scope`. */
  get(toolsetId: string, scope: IdScope): Promise<ToolsetRecord | undefined>;
  /** Toolsets in binding scope `scope`, in creation order. */
  list(page: PageRequest, scope: IdScope): Promise<Page<ToolsetRecord>>;
  /** One toolset version, unscoped (runs and dry-runs read it through an agent version; routes check `get` first). */
  getVersion(toolsetId: string, version: number): Promise<ToolsetVersionRecord | undefined>;
  /** Versions of one toolset, oldest first, unscoped (routes check `get` first). */
  listVersions(toolsetId: string, page: PageRequest): Promise<Page<ToolsetVersionRecord>>;
}

/** Agents and their immutable versions. */
export interface AgentStore {
  /** Stores a new agent. */
  insert(agent: AgentRecord): Promise<void>;
  /** One agent, if it lies in `scope`. */
  get(agentId: string, scope: IdScope): Promise<AgentRecord | undefined>;
  /** Agents in `scope`, in creation order. */
  list(page: PageRequest, scope: IdScope): Promise<Page<AgentRecord>>;
  /** Appends a version (its `number` is assigned here); answers it, or undefined when the agent does not exist. */
  appendVersion(version: Omit<AgentVersionRecord, "number">): Promise<AgentVersionRecord | undefined>;
  /** One agent version by its opaque ID, if its agent lies in `scope`. */
  getVersion(agentVersion: string, scope: IdScope): Promise<AgentVersionRecord | undefined>;
  /** Versions of one agent, oldest first. */
  listVersions(agentId: string, page: PageRequest): Promise<Page<AgentVersionRecord>>;
  /** Versions (of one agent) whose toolset version references `bindingId`. */
  versionsReferencingBinding(agentId: string, bindingId: string): Promise<AgentVersionRecord[]>;
}

/** Sessions. */
export interface SessionStore {
  /** Stores a new session. */
  insert(session: SessionRecord): Promise<void>;
  /** One session, if its agent lies in `scope`. */
  get(sessionId: string, scope: IdScope): Promise<SessionRecord | undefined>;
  /** Sessions whose agent lies in `scope`, in creation order. */
  list(page: PageRequest, scope: IdScope): Promise<Page<SessionRecord>>;
}

/** Secrets shared by every server instance on the database (`server_secrets`). */
export interface SecretStore {
  /** The secret `name`; when absent, stores `candidate` first (insert-if-absent: concurrent callers all get the winner). */
  getOrCreate(name: string, candidate: string, nowMs: number): Promise<string>;
}

/** The config aggregate's stores. */
export interface ConfigStores {
  readonly keys: KeyStore;
  readonly bindings: BindingStore;
  readonly toolsets: ToolsetStore;
  readonly agents: AgentStore;
  readonly sessions: SessionStore;
  readonly secrets: SecretStore;
}
