/**
 * The flows of an existing connection: load it for a request (404 / 403 `executor_key_mismatch` / 409
 * `connection_superseded` / 409 `connection_offline`), heartbeat (renew the lease, answer business
 * cancellations) and detach. Only the key that opened the executor's current connection gets past
 * the load, and the heartbeat's and the detach's UPDATEs hold that key in their WHERE too.
 */

import type { DisconnectAnswer, HeartbeatAnswer } from "@toolhost/protocol/wire";
import {
  connectionOffline,
  connectionProblem,
  connectionSuperseded,
  executorNotFound,
  ownershipProblem,
} from "../auth/executor-access.js";
import type { Identity } from "../auth/identity.js";
import { afterRelease } from "../calls/after-release.js";
import type { Clock } from "../clock.js";
import { isoTime } from "../http/wire-time.js";
import type { CompiledServerOptions } from "../options.js";
import type { RunProgress } from "../runs/run-progress.js";
import type { ExecutorRecord } from "../storage/records.js";
import type { Storage } from "../storage/storage.js";
import { detachConnection } from "./executor-offline.js";
import { CANCELLATIONS_MAX, cancellationWire } from "./executor-wire.js";

type Context = {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly options: Pick<CompiledServerOptions, "heartbeatIntervalMs" | "leaseTtlMs">;
  readonly runProgress: RunProgress;
};

/** The executor when `connectionId` is its current, live connection; throws the 404 or 409 otherwise. */
export async function loadLiveConnection(
  context: { readonly storage: Storage; readonly clock: Clock },
  identity: Identity,
  executorId: string,
  connectionId: string,
): Promise<ExecutorRecord> {
  const executor = await context.storage.executors.get(executorId);
  const problem = connectionProblem(identity, executorId, executor, connectionId, context.clock.nowMs());
  if (problem !== undefined || executor === undefined) throw problem ?? executorNotFound(executorId);
  return executor;
}

/** Renews the lease of the live connection and answers the business cancellations to carry out. */
export async function heartbeat(
  context: Context,
  identity: Identity,
  executorId: string,
  connectionId: string,
): Promise<HeartbeatAnswer> {
  const { storage, clock, options } = context;
  const executor = await storage.executors.get(executorId);
  const ownership = ownershipProblem(identity, executorId, executor);
  if (ownership !== undefined || executor === undefined) throw ownership ?? executorNotFound(executorId);
  const nowMs = clock.nowMs();
  const leaseExpiresMs = nowMs + options.leaseTtlMs;
  const connection = { executor_id: executorId, connection_id: connectionId, key_id: identity.keyId };
  if (!(await storage.executors.heartbeat(connection, nowMs, leaseExpiresMs))) {
    // Nothing renewed: say why, from the row as it is now.
    const now = await storage.executors.get(executorId);
    // (The same rule as the UPDATE's, so a problem is always found; offline is the safe fallback.)
    throw (
      connectionProblem(identity, executorId, now, connectionId, nowMs) ?? connectionOffline(executor, connectionId)
    );
  }
  const cancellations = await storage.pendingCalls.cancellationsFor(executorId, CANCELLATIONS_MAX);
  return {
    executor_id: executorId,
    connection_id: connectionId,
    lease_expires_at: isoTime(leaseExpiresMs),
    heartbeat_interval_ms: options.heartbeatIntervalMs,
    cancellations: cancellations.map(cancellationWire),
  };
}

/**
 * Detaches the connection: it goes offline, its claimed-but-not-accepted calls return to pending (and
 * long-polls on their bindings wake) — or are cancelled when their business cancel had been requested —
 * and accepted calls stay with the executor ID and are not cancelled.
 * Detaching an already offline current connection answers the same with nothing released.
 */
export async function disconnect(
  context: Context,
  identity: Identity,
  executorId: string,
  connectionId: string,
): Promise<DisconnectAnswer> {
  const { storage, clock } = context;
  const executor = await storage.executors.get(executorId);
  const ownership = ownershipProblem(identity, executorId, executor);
  if (ownership !== undefined || executor === undefined) throw ownership ?? executorNotFound(executorId);
  if (executor.connection_id !== connectionId) throw connectionSuperseded(executor, connectionId);
  const nowMs = clock.nowMs();
  const connection = { executor_id: executorId, connection_id: connectionId, key_id: identity.keyId };
  const outcome = await detachConnection(storage, connection, nowMs);
  if (!outcome.changed) {
    // Nothing changed: already offline (answered as a detach), or a reconnect came in between.
    const now = await storage.executors.get(executorId);
    const problem = ownershipProblem(identity, executorId, now);
    if (problem !== undefined) throw problem;
    if (now !== undefined && now.connection_id !== connectionId) throw connectionSuperseded(now, connectionId);
  }
  if (outcome.released.length > 0) await afterRelease(context, outcome.released, nowMs);
  return { executor_id: executorId, online: false, released: outcome.released.map((call) => call.call_id) };
}
