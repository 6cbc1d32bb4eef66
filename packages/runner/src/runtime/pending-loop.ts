/**
 * The pending loop: long-polls for candidate calls and starts a call flow for each one this executor
 * serves and has a free slot for. Candidates it cannot take now (tool at its concurrency limit, call
 * already in flight here, declined) are left to other executors; the loop then waits for a slot to
 * free (bounded) instead of polling again at once. A candidate of a tool with no registered handler
 * is never claimed, and warned about once per tool. While claims are in trouble (refused, failing)
 * the loop waits out their back-off and then sends one claim at a time, so a key without
 * `tools:execute` costs a handful of refused claims, not hundreds per second. It ends when the runner
 * stops, fails or is fenced.
 */

import type { PendingAnswer } from "@toolhost/protocol/wire";
import { claimTexts } from "../decisions/pending-claims.js";
import { callTrouble, executorTrouble } from "../decisions/trouble-policy.js";
import { MalformedAnswerError, readClaimAnswer } from "../tool-call.js";
import { executeClaimed } from "./carry-claim.js";
import { executeCandidate } from "./execute-call.js";
import { receiveCancellations } from "./receive-cancellations.js";
import type { RunnerRuntime } from "./runner-runtime.js";
import { sleep } from "./sleep.js";

/** Longest wait for a free slot before polling again while candidates are waiting. */
export const BUSY_WAIT_MS = 1_000;

/** Polls and dispatches until the runner stops, fails or is fenced. */
export async function pendingLoop(rt: RunnerRuntime): Promise<void> {
  const { options, client, stats, lifecycle } = rt;
  const halt = lifecycle.stopSignal;
  while (!lifecycle.stopping && !rt.connection.fenced) {
    const connection = await rt.connection.ensure(halt);
    if (connection === null) return;
    const claim = claimCount(rt, connection.batch?.claimMax ?? 0);
    const outcome = await client.pending(
      options.executorId,
      connection.connectionId,
      options.pollPageSize,
      options.pollWaitMs,
      halt,
      claim > 0 ? claim : undefined,
    );
    if (outcome.type !== "answer") {
      if (lifecycle.stopping) return;
      stats.add("poll_failures");
      if (outcome.type === "refused") {
        const handled = await rt.connection.handleRefusal(connection.connectionId, outcome.code, halt);
        if (handled === "reconnected" || handled === "stale") continue;
        if (handled === "fenced") return;
        const claimRefused = claim > 0 && outcome.status === 403 && outcome.code === "forbidden";
        if (claimRefused) {
          // The key may poll but not claim: claims back off (the next polls ask for none; probes go alone).
          const trouble = callTrouble(outcome);
          if (trouble !== undefined) rt.watch.report("claim", trouble);
          continue;
        }
      }
      const decision = rt.watch.report("pending", executorTrouble(outcome));
      if (decision.fatal) return;
      await sleep(decision.delayMs, halt);
      continue;
    }
    rt.watch.clear("pending");
    stats.add("polls");
    const answer = outcome.body;
    receiveCancellations(rt, answer.cancellations);
    if (answer.claims !== undefined && answer.claims.length > 0) startClaimed(rt, outcome.text);
    const claimsWaitMs = claimsPausedForMs(rt);
    if (claimsWaitMs > 0) {
      // Claims back off: poll again after the wait (the candidates may have changed meanwhile).
      await sleep(claimsWaitMs, halt);
      continue;
    }
    if (dispatch(rt, answer) < answer.data.length) await rt.slots.released(BUSY_WAIT_MS, halt);
  }
}

/**
 * How many claims to ask the pending answer for: none while claims are in trouble (a probe claim goes
 * alone) or when the connection could not declare its tools (the server then claims any tool), else at most the server's `claim_max` and at most the free slots of the fullest registered
 * tool — so the claims fit whatever tools they turn out to be.
 */
function claimCount(rt: RunnerRuntime, claimMax: number): number {
  if (claimMax <= 0 || rt.watch.troubled("claim")) return 0;
  // A connection that declared no tool names would be handed claims of any tool: claim one by one then.
  if (rt.registry.declaredNames() === null) return 0;
  const inUse = rt.slots.inUse();
  let free = claimMax;
  for (const tool of rt.registry.effects().keys()) {
    const limit = rt.registry.get(tool)?.maxConcurrency ?? rt.options.maxConcurrencyPerTool;
    free = Math.min(free, limit - (inUse[tool] ?? 0));
  }
  return Math.max(free, 0);
}

/** Starts the flow of each claim the pending answer brought, read from its exact text (arguments intact). */
function startClaimed(rt: RunnerRuntime, answerText: string): void {
  let texts: string[];
  try {
    texts = claimTexts(answerText);
  } catch (error) {
    rt.logger.error("the pending answer's claims are unreadable; they are left to lapse", { error });
    return;
  }
  for (const claimText of texts) {
    let tool: string;
    let callId: string;
    try {
      const claim = readClaimAnswer(claimText);
      tool = claim.call.toolName;
      callId = claim.call.callId;
    } catch (error) {
      if (!(error instanceof MalformedAnswerError)) throw error;
      rt.logger.error("a claim of the pending answer is malformed; the claim is left to lapse", { error });
      continue;
    }
    const limit = rt.registry.get(tool)?.maxConcurrency ?? rt.options.maxConcurrencyPerTool;
    rt.busy.add(callId);
    rt.stats.add("claims_batched");
    rt.tasks.track(`call ${callId}`, async () => {
      // claimCount kept the claims within the free slots, so this does not wait unless a tool has no handler.
      const slot = rt.slots.tryAcquire(tool, limit) ?? (await rt.slots.acquire(tool, limit, rt.lifecycle.stopSignal));
      if (slot === undefined) {
        rt.busy.delete(callId);
        return;
      }
      await executeClaimed(rt, callId, claimText, slot);
    });
  }
}

/** How long claims must still wait: their back-off, or while a probe claim of a troubled channel is out. */
function claimsPausedForMs(rt: RunnerRuntime): number {
  if (!rt.watch.troubled("claim")) return 0;
  const waitMs = rt.watch.pausedUntilMs("claim") - performance.now();
  return waitMs > 0 ? waitMs : rt.claiming.size > 0 ? BUSY_WAIT_MS : 0;
}

/** Starts a flow for each candidate that can be taken now; answers how many were taken. */
function dispatch(rt: RunnerRuntime, answer: PendingAnswer): number {
  const now = performance.now();
  for (const [callId, until] of rt.declined) if (until <= now) rt.declined.delete(callId);
  // While claims are in trouble, one claim probes whether they work again.
  const most = rt.watch.troubled("claim") ? 1 : Number.POSITIVE_INFINITY;
  let taken = 0;
  for (const candidate of answer.data) {
    if (taken >= most) break;
    const registration = rt.registry.get(candidate.tool_name);
    if (registration === undefined) {
      unserved(rt, candidate.tool_name, candidate.binding_id);
      continue;
    }
    if (rt.busy.has(candidate.call_id) || rt.declined.has(candidate.call_id)) continue;
    const slot = rt.slots.tryAcquire(candidate.tool_name, registration.maxConcurrency);
    if (slot === undefined) continue;
    taken++;
    // Marked busy and claiming now, so the next poll neither starts a second flow nor a second probe.
    rt.busy.add(candidate.call_id);
    rt.claiming.add(candidate.call_id);
    rt.tasks.track(`call ${candidate.call_id}`, () => executeCandidate(rt, candidate, slot));
  }
  return taken;
}

/** Counts a candidate of a tool without a handler; warns once per tool. */
function unserved(rt: RunnerRuntime, tool: string, bindingId: string): void {
  rt.stats.add("candidates_unserved");
  if (rt.unservedTools.has(tool)) return;
  rt.unservedTools.add(tool);
  rt.logger.warn("pending lists calls of a tool this runner has no handler for; it leaves them to other executors", {
    tool,
    bindingId,
    registered: [...rt.registry.effects().keys()],
  });
}
