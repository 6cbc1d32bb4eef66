/**
 * One candidate call, start to finish, in the protocol's order: claim → verify (arguments digest,
 * tool, binding, agent) and the product's `authorize` → journal the operation key and the assignment
 * together with the `accepted` receipt → send `accepted` → only on `confirmed: true` run the handler →
 * journal the final receipt → deliver it until acknowledged.
 */

import type { PendingCall } from "@toolhost/protocol/wire";
import { callTrouble } from "../decisions/trouble-policy.js";
import { carryClaim, DECLINED_SKIP_MS } from "./carry-claim.js";
import type { RunnerRuntime } from "./runner-runtime.js";
import type { ToolSlot } from "./tool-slots.js";

/** How long a declined call (or one whose claim was refused for itself) is skipped by the pending loop. */
export { DECLINED_SKIP_MS };

/** Claims `candidate` and carries it through; `slot` (of its tool) is released in every case. */
export async function executeCandidate(rt: RunnerRuntime, candidate: PendingCall, slot: ToolSlot): Promise<void> {
  const { stats, logger, options } = rt;
  const callId = candidate.call_id;
  rt.busy.add(callId);
  rt.claiming.add(callId);
  let handedOff = false;
  try {
    const connection = rt.connection.current;
    if (connection === null) return;
    stats.add("claims_attempted");
    let outcome: Awaited<ReturnType<typeof rt.client.claim>>;
    try {
      outcome = await rt.client.claim(candidate.run_id, callId, options.executorId, connection.connectionId);
    } finally {
      rt.claiming.delete(callId);
    }
    if (outcome.type !== "answer") {
      if (outcome.type === "unreachable" && outcome.aborted) return;
      if (outcome.type === "refused") {
        stats.add("claims_lost");
        const handled = await rt.connection.handleRefusal(
          connection.connectionId,
          outcome.code,
          rt.lifecycle.stopSignal,
        );
        if (handled !== "other") return;
      }
      const trouble = callTrouble(outcome);
      if (trouble !== undefined) {
        // Claims as such fail (refused key, server trouble, unreadable answer): they back off together.
        // A claim the server granted behind an unreadable answer lapses and the call comes back.
        rt.watch.report("claim", trouble);
        return;
      }
      // The server answered about this call only (another executor won it, the call ended): claims work.
      rt.watch.clear("claim");
      if (outcome.type === "refused" && outcome.code !== "already_claimed") {
        rt.declined.set(callId, performance.now() + DECLINED_SKIP_MS);
      }
      logger.debug("claim refused", { callId, code: outcome.type === "refused" ? outcome.code : outcome.type });
      return;
    }
    rt.watch.clear("claim");
    handedOff = await carryClaim(rt, callId, outcome.text, slot);
  } finally {
    if (!handedOff) slot.release();
    rt.busy.delete(callId);
    rt.claiming.delete(callId);
  }
}
