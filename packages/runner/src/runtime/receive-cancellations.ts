/**
 * Acting on business-cancel requests from heartbeat and pending answers: the book aborts running
 * handlers' signals; here each first sighting is counted, logged and announced (with the deferred
 * handle when the call is deferred, so the product can stop its long-running job).
 */

import type { CancellationRequest } from "@toolhost/protocol/wire";
import type { RunnerRuntime } from "./runner-runtime.js";

/** Records `requests` and announces the new ones. */
export function receiveCancellations(rt: RunnerRuntime, requests: readonly CancellationRequest[]): void {
  if (requests.length === 0) return;
  for (const notice of rt.cancellations.receive(requests)) {
    rt.stats.add("cancellations_received");
    const entry = rt.journal.get(notice.callId);
    const handleId = entry?.state === "deferred" ? entry.handleId : null;
    rt.logger.info("business cancel requested", { callId: notice.callId, runId: notice.runId, state: entry?.state });
    rt.events.emit("cancel_requested", { callId: notice.callId, runId: notice.runId, handleId });
  }
}
