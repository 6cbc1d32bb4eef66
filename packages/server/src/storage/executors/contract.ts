/**
 * The executors aggregate's contract (the executor protocol): connections and leases. Connection
 * changes are conditional UPDATEs on (executor_id, connection_id, online), so a superseded
 * connection can never change the current one. `createExecutorStores` (index.ts) makes the store.
 */

import type { ExecutorRecord, IdScope, Page, PageRequest } from "../records.js";

/** What a connect writes: the new connection of a stable executor ID. */
export interface ExecutorConnectInput {
  readonly executor_id: string;
  readonly connection_id: string;
  readonly binding_ids: readonly string[];
  readonly key_id: string;
  readonly now_ms: number;
  readonly lease_expires_ms: number;
  /** The tools the connection declares (omitted or null: not declared). */
  readonly tool_names?: readonly string[] | null;
}

/** An executor's connection as a request names it, with the caller's API key. */
export interface OwnedConnection {
  readonly executor_id: string;
  readonly connection_id: string;
  /** The caller's key: nothing changes unless it is the key that opened the executor's current connection. */
  readonly key_id: string;
}

/** Executor connections and leases (`executors`, one row per stable executor ID). */
export interface ExecutorStore {
  /**
   * Connects `executor_id` in one statement (upsert): the first time with epoch 1, later with a new
   * connection ID and epoch + 1, superseding the older connection; online with a fresh lease.
   */
  connect(input: ExecutorConnectInput): Promise<ExecutorRecord>;
  /** One executor, if it ever connected. */
  get(executorId: string): Promise<ExecutorRecord | undefined>;
  /**
   * Renews the lease of the connection while it is current, opened with the caller's key, online and
   * live (`lease_expires_ms > now`); true when renewed.
   */
  heartbeat(connection: OwnedConnection, nowMs: number, leaseExpiresMs: number): Promise<boolean>;
  /** Takes the connection offline while it is current, opened with the caller's key and online (a detach); true when it changed. */
  disconnect(connection: OwnedConnection, nowMs: number): Promise<boolean>;
  /**
   * Executors whose current connection serves only bindings in `scope` (online or not), by executor
   * ID; a page may hold fewer than `limit` items only when it is the last.
   */
  list(page: PageRequest, scope: IdScope): Promise<Page<ExecutorRecord>>;
  /** Executors (online or not) whose current connection serves `bindingId`, latest heartbeat first. */
  listByBinding(bindingId: string): Promise<ExecutorRecord[]>;
  /** Online connections whose lease lapsed (`lease_expires_ms <= now`), oldest lease first. */
  listLapsed(nowMs: number, limit: number): Promise<ExecutorRecord[]>;
  /** Takes the connection offline if it is still current, online and lapsed at `nowMs`; true when it changed. */
  expireLease(executorId: string, connectionId: string, nowMs: number): Promise<boolean>;
}

/** The executors aggregate's stores. */
export interface ExecutorStores {
  readonly executors: ExecutorStore;
}
