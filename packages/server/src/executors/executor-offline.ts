/**
 * Taking an executor connection offline — a detach (`disconnect`) or a lapsed lease (the sweep) — in
 * one transaction with its consequence: the executor's claimed-but-not-accepted calls return to
 * pending (event `release`; nobody confirmed them to start, so no side effect can have begun).
 * Accepted calls stay with the executor ID and are not cancelled. `afterRelease`
 * (`calls/after-release.ts`) then finishes the job after the commit.
 */

import type { OwnedConnection, ReleasedCall, Storage } from "../storage/storage.js";

/** What taking a connection offline did. */
export interface OfflineOutcome {
  /** True when this call took the connection offline (false: superseded, already offline, or unknown). */
  readonly changed: boolean;
  /** The calls returned to pending. */
  readonly released: readonly ReleasedCall[];
}

/** Detaches the connection if it is the executor's current, online one opened with its key; releases its unconfirmed claims. */
export function detachConnection(
  storage: Storage,
  connection: OwnedConnection,
  nowMs: number,
): Promise<OfflineOutcome> {
  return storage.transaction(async (stores) => {
    const changed = await stores.executors.disconnect(connection, nowMs);
    const released = changed ? await stores.pendingCalls.releaseClaimedBy(connection.executor_id, nowMs) : [];
    return { changed, released };
  });
}

/** Takes the connection offline if it is still current, online and lapsed at `nowMs`; releases its unconfirmed claims. */
export function expireConnection(
  storage: Storage,
  executorId: string,
  connectionId: string,
  nowMs: number,
): Promise<OfflineOutcome> {
  return storage.transaction(async (stores) => {
    const changed = await stores.executors.expireLease(executorId, connectionId, nowMs);
    const released = changed ? await stores.pendingCalls.releaseClaimedBy(executorId, nowMs) : [];
    return { changed, released };
  });
}
