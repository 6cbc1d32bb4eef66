/**
 * Whether a request may act for an executor (pure). An executor belongs to the API key that opened its
 * current connection (`executors.key_id`): every request naming it — heartbeat, pending, report,
 * disconnect, claim, receipts — must come from that key (403 `executor_key_mismatch` otherwise; a
 * reconnect with another key moves the executor to that key). A connection is live while it is the
 * executor's current connection, online, and its lease has not lapsed (`now < lease_expires_ms`, the
 * same rule the claim's SQL applies). A lapsed lease is offline at once, even before the sweep records
 * it and releases the executor's unconfirmed claims.
 */

import { ProtocolError } from "@toolhost/protocol";
import type { ExecutorRecord } from "../storage/records.js";
import { inIdScope } from "./id-scope.js";
import type { Identity } from "./identity.js";

/** True while the executor's current connection is online and its lease has not lapsed. */
export function isLeaseLive(executor: ExecutorRecord, nowMs: number): boolean {
  return executor.online && nowMs < executor.lease_expires_ms;
}

/**
 * True when the caller reaches the executor: every binding of its current connection lies in the
 * caller's binding scope. Other executors answer 404 like unknown ones (no existence leak).
 */
export function executorInScope(identity: Identity, executor: ExecutorRecord): boolean {
  return executor.binding_ids.every((bindingId) => inIdScope(identity.bindings, bindingId));
}

/** True when the caller's key is the one that opened the executor's current connection. */
export function ownsExecutor(identity: Identity, executor: ExecutorRecord): boolean {
  return executor.key_id === identity.keyId;
}

/** The 403 of a request for an executor whose current connection another API key opened. */
export function executorKeyMismatch(executorId: string): ProtocolError {
  return new ProtocolError(
    "executor_key_mismatch",
    `executor ${JSON.stringify(executorId)} belongs to another API key (the one that opened its current connection); connect with this key to act for it`,
  );
}

/**
 * Why the caller may not act for `executor` at all, or undefined when it may: 404 for an unknown or
 * out-of-scope executor (no existence leak), 403 `executor_key_mismatch` for another key's executor.
 */
export function ownershipProblem(
  identity: Identity,
  executorId: string,
  executor: ExecutorRecord | undefined,
): ProtocolError | undefined {
  if (executor === undefined || !executorInScope(identity, executor)) return executorNotFound(executorId);
  if (!ownsExecutor(identity, executor)) return executorKeyMismatch(executorId);
  return undefined;
}

/** The 404 of an executor that never connected or lies outside the caller's binding scope. */
export function executorNotFound(executorId: string): ProtocolError {
  return new ProtocolError("not_found", `executor ${JSON.stringify(executorId)} not found`);
}

/** The 409 of a connection a newer connect of the same executor ID fenced. */
export function connectionSuperseded(executor: ExecutorRecord, connectionId: string): ProtocolError {
  return new ProtocolError(
    "connection_superseded",
    `connection ${JSON.stringify(connectionId)} was superseded by a newer connection of executor ${JSON.stringify(executor.executor_id)}`,
    undefined,
    { current_epoch: executor.epoch },
  );
}

/** The 409 of the current connection once it is offline (lease lapsed or detached). */
export function connectionOffline(executor: ExecutorRecord, connectionId: string): ProtocolError {
  return new ProtocolError(
    "connection_offline",
    `connection ${JSON.stringify(connectionId)} of executor ${JSON.stringify(executor.executor_id)} is offline (its lease lapsed or it detached); connect again`,
  );
}

/**
 * Why `connectionId` may not act for `executor` at `nowMs`, or undefined when it may: 404 for an
 * unknown or out-of-scope executor, 403 `executor_key_mismatch` for another key's executor (before
 * anything about its connections is told), 409 `connection_superseded` for an older connection, 409
 * `connection_offline` for the current one once offline. Superseded wins over offline.
 */
export function connectionProblem(
  identity: Identity,
  executorId: string,
  executor: ExecutorRecord | undefined,
  connectionId: string,
  nowMs: number,
): ProtocolError | undefined {
  const ownership = ownershipProblem(identity, executorId, executor);
  if (ownership !== undefined || executor === undefined) return ownership ?? executorNotFound(executorId);
  if (executor.connection_id !== connectionId) return connectionSuperseded(executor, connectionId);
  if (!isLeaseLive(executor, nowMs)) return connectionOffline(executor, connectionId);
  return undefined;
}
