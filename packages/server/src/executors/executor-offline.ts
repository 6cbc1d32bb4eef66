/**
 * Taking an executor connection offline — a detach (`disconnect`) or a lapsed lease (the sweep) — in
 * one transaction with its consequence: the executor's claimed-but-not-accepted calls return to
 * pending (event `release`; nobody confirmed them to start, so no side effect can have begun).
 * Accepted calls stay with the executor ID and are not cancelled. `afterRelease` then finishes the
 * job after the commit: a released call whose business task was asked to stop while it was held is
 * cancelled (nobody holds it now, exactly like a business cancel of a pending call), and long-polls on
 * the bindings that got claimable calls wake.
 */

import { isProtocolError } from "@toolhost/protocol";
import type { AppContext } from "../http/app.js";
import { cancelCall } from "../runs/cancel-call.js";
import type { OwnedConnection, ReleasedCall, Storage } from "../storage/storage.js";
import { callWakeup, type Wakeup } from "./wakeup.js";

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

/**
 * After the release committed: cancels the released calls that carry a business-cancel request (each
 * in its own transaction, through the business-cancel flow, which settles it in its run), then wakes
 * long-polls on the bindings of the calls left claimable and of any next model turn.
 */
export async function afterRelease(
  context: Pick<AppContext, "storage" | "runProgress" | "wakeups">,
  released: readonly ReleasedCall[],
  nowMs: number,
): Promise<void> {
  const wakeups: Wakeup[] = [];
  for (const call of released) {
    if (call.cancel_requested_at_ms === null) {
      wakeups.push(callWakeup(call));
      continue;
    }
    try {
      const outcome = await cancelCall(context.storage, context.runProgress, call.run_id, call.call_id, "*", nowMs);
      wakeups.push(...outcome.wakeups);
    } catch (error) {
      // Someone settled or took the call meanwhile: nothing left to cancel here.
      if (!isProtocolError(error)) throw error;
    }
  }
  if (wakeups.length > 0) context.wakeups.notify(wakeups);
}
