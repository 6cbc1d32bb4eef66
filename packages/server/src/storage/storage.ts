/**
 * The storage interface the server's handlers use. One implementation (Kysely) serves SQLite and
 * PostgreSQL; a contract test suite runs against both. Every method is one logical operation;
 * ownership and scope conditions belong in the SQL of the store, not in the caller.
 */

import type {
  AgentRecord,
  AgentVersionRecord,
  BindingRecord,
  IdScope,
  KeyRecord,
  Page,
  PageRequest,
  SessionRecord,
  ToolsetRecord,
  ToolsetVersionRecord,
} from "./records.js";

/** The SQL dialects the server runs on. */
export const DIALECTS = {
  /** An embedded SQLite file (WAL, `synchronous=FULL`): the zero-setup default. */
  sqlite: "sqlite",
  /** PostgreSQL: several server instances on one database. */
  postgres: "postgres",
} as const;

/** One of the SQL dialects. */
export type Dialect = keyof typeof DIALECTS;

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
  /** Keys in creation order. */
  list(page: PageRequest): Promise<Page<KeyRecord>>;
  /** Marks a key revoked; false when it does not exist. Revoking twice keeps the first time. */
  revoke(keyId: string, atMs: number): Promise<boolean>;
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

/** Toolsets and their immutable versions. */
export interface ToolsetStore {
  /** Stores a toolset with its version 1. */
  insert(toolset: ToolsetRecord, first: ToolsetVersionRecord): Promise<void>;
  /** Appends the next version; answers it, or undefined when the toolset does not exist. */
  appendVersion(toolsetId: string, toolsJson: string, atMs: number): Promise<ToolsetVersionRecord | undefined>;
  /** One toolset. */
  get(toolsetId: string): Promise<ToolsetRecord | undefined>;
  /** Toolsets in creation order. */
  list(page: PageRequest): Promise<Page<ToolsetRecord>>;
  /** One toolset version. */
  getVersion(toolsetId: string, version: number): Promise<ToolsetVersionRecord | undefined>;
  /** Versions of one toolset, oldest first. */
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

/** What `migrate()` did. */
export interface MigrationReport {
  /** Names of the migrations applied by this call, in order (empty when already up to date). */
  applied: string[];
  /** The name of the newest applied migration after the call. */
  current: string | null;
}

/** The stores of one database, usable inside and outside a transaction. */
export interface Stores {
  readonly keys: KeyStore;
  readonly bindings: BindingStore;
  readonly toolsets: ToolsetStore;
  readonly agents: AgentStore;
  readonly sessions: SessionStore;
}

/** The server's storage: stores, transactions, migrations and lifecycle. */
export interface Storage extends Stores {
  /** Which SQL dialect this storage speaks. */
  readonly dialect: Dialect;
  /**
   * Runs `work` in one transaction; it commits when `work` resolves and rolls back when it throws.
   * On SQLite, concurrent transactions are grouped into one commit (one fsync) and each caller is
   * answered only after that commit is durable.
   */
  transaction<T>(work: (stores: Stores) => Promise<T>): Promise<T>;
  /** Applies pending numbered migrations (idempotent; safe when several instances start at once). */
  migrate(): Promise<MigrationReport>;
  /** Closes connections. */
  close(): Promise<void>;
}
