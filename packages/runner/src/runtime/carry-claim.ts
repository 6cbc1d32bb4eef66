/**
 * A claim won (through the claim route, or made by the server with the pending answer): read its
 * exact text, verify the call (arguments digest, tool, binding, agent) and ask the product's
 * `authorize`, journal the operation key and the assignment together with the `accepted` receipt,
 * then hand over to `acceptAndRun`. A call this executor does not serve is declined: its claim lapses.
 */

import { REFUSAL_ACTIONS, verifyClaim } from "../decisions/verify-claim.js";
import { newReceiptId, receiptBodyText } from "../receipt-body.js";
import { MalformedAnswerError, readClaimAnswer } from "../tool-call.js";
import { type AcceptRefusal, acceptAndRun } from "./accept-and-run.js";
import type { RunnerRuntime } from "./runner-runtime.js";
import type { ToolSlot } from "./tool-slots.js";

/** How long a declined call (or one whose claim was refused for itself) is skipped by the pending loop. */
export const DECLINED_SKIP_MS = 60_000;

/**
 * Carries the claim whose answer text is `claimText` for `callId`; answers true once `acceptAndRun`
 * took the call over (it releases `slot`), false when the call stopped here (the caller releases it).
 */
export async function carryClaim(
  rt: RunnerRuntime,
  callId: string,
  claimText: string,
  slot: ToolSlot,
): Promise<boolean> {
  const { journal, stats, events, logger, options } = rt;
  let claim: ReturnType<typeof readClaimAnswer>;
  try {
    claim = readClaimAnswer(claimText);
  } catch (error) {
    if (!(error instanceof MalformedAnswerError)) throw error;
    logger.error("the claim answer is malformed; the claim is left to lapse", { callId, error });
    return false;
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
      rt.declined.set(callId, performance.now() + DECLINED_SKIP_MS);
      stats.add("claims_declined");
      logger.warn("declined a call this executor does not serve; its claim will lapse", {
        callId,
        code: verdict.code,
      });
      events.emit("declined", { callId, code: verdict.code });
      return false;
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
        rt.declined.set(callId, performance.now() + DECLINED_SKIP_MS);
        logger.error("authorize threw; the call is not accepted now and will come back", { callId, error });
        return false;
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
    return false;
  }
  if (assigned.type === "same_claim" && assigned.entry.state !== "accepting") return false;
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
  await acceptAndRun(rt, callId, slot, refusal);
  return true;
}

/** Carries a claim the pending answer brought (the server made it); `slot` is released in every case. */
export async function executeClaimed(
  rt: RunnerRuntime,
  callId: string,
  claimText: string,
  slot: ToolSlot,
): Promise<void> {
  rt.busy.add(callId);
  let handedOff = false;
  try {
    handedOff = await carryClaim(rt, callId, claimText, slot);
  } finally {
    if (!handedOff) slot.release();
    rt.busy.delete(callId);
  }
}
