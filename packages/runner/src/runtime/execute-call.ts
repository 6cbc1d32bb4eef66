/**
 * One candidate call, start to finish, in the protocol's order: claim → verify (arguments digest,
 * tool, binding, agent) and the product's `authorize` → journal the operation key and the assignment
 * together with the `accepted` receipt → send `accepted` → only on `confirmed: true` run the handler →
 * journal the final receipt → deliver it until acknowledged.
 */

import type { PendingCall } from "@toolhost/protocol/wire";
import { callTrouble } from "../decisions/trouble-policy.js";
import { REFUSAL_ACTIONS, verifyClaim } from "../decisions/verify-claim.js";
import { newReceiptId, receiptBodyText } from "../receipt-body.js";
import { MalformedAnswerError, readClaimAnswer } from "../tool-call.js";
import { type AcceptRefusal, acceptAndRun } from "./accept-and-run.js";
import type { RunnerRuntime } from "./runner-runtime.js";
import type { ToolSlot } from "./tool-slots.js";

/** How long a declined call (or one whose claim was refused for itself) is skipped by the pending loop. */
export const DECLINED_SKIP_MS = 60_000;

/** Claims `candidate` and carries it through; `slot` (of its tool) is released in every case. */
export async function executeCandidate(rt: RunnerRuntime, candidate: PendingCall, slot: ToolSlot): Promise<void> {
  const { journal, stats, events, logger, options } = rt;
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
        rt.declined.set(callId, Date.now() + DECLINED_SKIP_MS);
      }
      logger.debug("claim refused", { callId, code: outcome.type === "refused" ? outcome.code : outcome.type });
      return;
    }
    rt.watch.clear("claim");
    let claim: ReturnType<typeof readClaimAnswer>;
    try {
      claim = readClaimAnswer(outcome.text);
    } catch (error) {
      if (!(error instanceof MalformedAnswerError)) throw error;
      logger.error("the claim answer is malformed; the claim is left to lapse", { callId, error });
      return;
    }
    const { call } = claim;
    stats.add(claim.replayed ? "claims_replayed" : "claims_won");
    events.emit("claimed", { callId, runId: call.runId, toolName: call.toolName, replayed: claim.replayed });

    const verdict = verifyClaim(call, claim.argumentsValue, {
      tools: rt.registry.effects(),
      bindingIds: options.bindingIds,
      agentIds: options.agentIds,
    });
    let refusal: AcceptRefusal | undefined;
    if (!verdict.ok) {
      if (REFUSAL_ACTIONS[verdict.code] === "decline") {
        rt.declined.set(callId, Date.now() + DECLINED_SKIP_MS);
        stats.add("claims_declined");
        logger.warn("declined a call this executor does not serve; its claim will lapse", {
          callId,
          code: verdict.code,
        });
        events.emit("declined", { callId, code: verdict.code });
        return;
      }
      stats.add("verifications_failed");
      logger.warn("a claimed call failed verification; it is reported failed without running", {
        callId,
        code: verdict.code,
      });
      refusal = { code: verdict.code, message: verdict.message };
    } else {
      const authorize = rt.registry.get(call.toolName)?.authorize;
      if (authorize !== undefined) {
        let allowed: boolean;
        try {
          allowed = (await authorize(call)) === true;
        } catch (error) {
          // A failing check is not a refusal: let the claim lapse so the call is tried again.
          rt.declined.set(callId, Date.now() + DECLINED_SKIP_MS);
          logger.error("authorize threw; the call is not accepted now and will come back", { callId, error });
          return;
        }
        if (!allowed) {
          stats.add("authorizations_denied");
          refusal = { code: "not_authorized", message: "the product refused this call for its subject" };
        }
      }
    }

    const operationKey = options.operationKey(call);
    const receiptId = newReceiptId("accepted");
    const envelope = { receiptId, executorId: options.executorId, claimId: claim.claimId, grant: claim.grant };
    const assigned = journal.assign(
      {
        callId,
        runId: call.runId,
        toolName: call.toolName,
        // The stricter of the server's effect and the registration's: a write is never re-run.
        effect: call.effect === "write" || rt.registry.get(call.toolName)?.effect === "write" ? "write" : "read",
        executorId: options.executorId,
        claimId: claim.claimId,
        grant: claim.grant,
        operationKey,
        callJson: claim.callJson,
      },
      { receiptId, kind: "accepted", bodyText: receiptBodyText(envelope, { kind: "accepted" }) },
    );
    if (assigned.type === "conflict") {
      logger.error("the call already started under another claim; not accepting it again", { callId });
      return;
    }
    if (assigned.type === "same_claim" && assigned.entry.state !== "accepting") return;
    if (assigned.type === "journaled") {
      stats.add("receipts_journaled");
      events.emit("receipt_journaled", { callId, receiptId, kind: "accepted" });
    }
    const entry = assigned.type === "same_claim" ? assigned.entry : journal.get(callId);
    const acceptedId =
      journal
        .receipts(callId)
        .filter((receipt) => receipt.kind === "accepted" && receipt.state !== "obsolete")
        .at(-1)?.receiptId ?? receiptId;
    events.emit("assignment_journaled", {
      callId,
      operationKey: entry?.operationKey ?? operationKey,
      receiptId: acceptedId,
    });
    handedOff = true;
    await acceptAndRun(rt, callId, slot, refusal);
  } finally {
    if (!handedOff) slot.release();
    rt.busy.delete(callId);
    rt.claiming.delete(callId);
  }
}
