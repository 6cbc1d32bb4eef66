/**
 * What follows a release of claims, after its commit (an executor going offline, a lapsed accept
 * window): a released call whose business task was asked to stop while it was held is cancelled
 * (nobody holds it now, exactly like a business cancel of a pending call), and long-polls on the
 * bindings that got claimable calls wake (registered as after-commit effects, docs/storage.md).
 */

import { isProtocolError } from "@toolhost/protocol";
import { cancelCall } from "../runs/cancel-call.js";
import type { RunProgress } from "../runs/run-progress.js";
import type { ReleasedCall, Storage } from "../storage/storage.js";
import { callWakeup } from "../wakeups/wakeup.js";

/**
 * After the release committed: cancels the released calls that carry a business-cancel request (each
 * in its own transaction, through the business-cancel flow, which settles it in its run), then wakes
 * long-polls on the bindings of the calls left claimable and of any next model turn.
 */
export async function afterRelease(
  context: { readonly storage: Storage; readonly runProgress: RunProgress },
  released: readonly ReleasedCall[],
  nowMs: number,
): Promise<void> {
  // The release is committed: these wake at once (the top-level storage's effects).
  context.storage.afterCommit.wakeExecutors(
    released.filter((call) => call.cancel_requested_at_ms === null).map(callWakeup),
  );
  for (const call of released) {
    if (call.cancel_requested_at_ms === null) continue;
    try {
      await cancelCall(context.storage, context.runProgress, call.run_id, call.call_id, "*", nowMs);
    } catch (error) {
      // Someone settled or took the call meanwhile: nothing left to cancel here.
      if (!isProtocolError(error)) throw error;
    }
  }
}
