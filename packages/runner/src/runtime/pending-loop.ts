/**
 * The pending loop: long-polls for candidate calls and starts a call flow for each one this executor
 * serves and has a free slot for. Candidates it cannot take now (tool at its concurrency limit, call
 * already in flight here, declined) are left to other executors; the loop then waits for a slot to
 * free (bounded) instead of polling again at once. It ends when the runner stops or is fenced.
 */

import type { PendingAnswer } from "@toolhost/protocol/wire";
import { backoffDelayMs } from "../decisions/backoff.js";
import { executeCandidate } from "./execute-call.js";
import { receiveCancellations } from "./receive-cancellations.js";
import type { RunnerRuntime } from "./runner-runtime.js";
import { sleep } from "./sleep.js";

/** Longest wait for a free slot before polling again while candidates are waiting. */
export const BUSY_WAIT_MS = 1_000;

/** Polls and dispatches until the runner stops or is fenced. */
export async function pendingLoop(rt: RunnerRuntime): Promise<void> {
  const { options, client, stats, logger, lifecycle } = rt;
  const halt = lifecycle.stopSignal;
  let failures = 0;
  while (!lifecycle.stopping && !rt.connection.fenced) {
    const connection = await rt.connection.ensure(halt);
    if (connection === null) return;
    const outcome = await client.pending(
      options.executorId,
      connection.connectionId,
      options.pollPageSize,
      options.pollWaitMs,
      halt,
    );
    if (outcome.type !== "answer") {
      if (lifecycle.stopping) return;
      stats.add("poll_failures");
      if (outcome.type === "refused") {
        const handled = await rt.connection.handleRefusal(connection.connectionId, outcome.code, halt);
        if (handled === "reconnected" || handled === "stale") continue;
        if (handled === "fenced") return;
      }
      logger.warn("pending poll failed", {
        reason: outcome.type === "refused" ? `${outcome.status} ${outcome.code}` : outcome.message,
      });
      const bounds = { minMs: options.retryBackoffMinMs, maxMs: options.retryBackoffMaxMs };
      await sleep(backoffDelayMs(failures++, bounds, options.random()), halt);
      continue;
    }
    failures = 0;
    stats.add("polls");
    const answer = JSON.parse(outcome.text) as PendingAnswer;
    receiveCancellations(rt, answer.cancellations);
    if (dispatch(rt, answer) < answer.data.length) await rt.slots.released(BUSY_WAIT_MS, halt);
  }
}

/** Starts a flow for each candidate that can be taken now; answers how many were taken. */
function dispatch(rt: RunnerRuntime, answer: PendingAnswer): number {
  const now = Date.now();
  for (const [callId, until] of rt.declined) if (until <= now) rt.declined.delete(callId);
  let taken = 0;
  for (const candidate of answer.data) {
    const registration = rt.registry.get(candidate.tool_name);
    if (registration === undefined || rt.busy.has(candidate.call_id) || rt.declined.has(candidate.call_id)) continue;
    const slot = rt.slots.tryAcquire(candidate.tool_name, registration.maxConcurrency);
    if (slot === undefined) continue;
    taken++;
    // Marked busy now, so the next poll does not start a second flow before this one claims.
    rt.busy.add(candidate.call_id);
    rt.tasks.track(`call ${candidate.call_id}`, () => executeCandidate(rt, candidate, slot));
  }
  return taken;
}
