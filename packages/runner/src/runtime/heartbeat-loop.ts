/**
 * The heartbeat loop: renews the lease at the interval the server asks for and picks up business
 * cancellations. A lapsed lease reconnects; a superseded connection fences the runner. It keeps
 * running while `stop()` drains in-flight calls, and ends when `halt` aborts.
 */

import type { HeartbeatAnswer } from "@toolhost/protocol/wire";
import { backoffDelayMs } from "../decisions/backoff.js";
import { receiveCancellations } from "./receive-cancellations.js";
import type { RunnerRuntime } from "./runner-runtime.js";
import { sleep } from "./sleep.js";

/** Runs heartbeats until `halt` aborts or the runner is fenced. */
export async function heartbeatLoop(rt: RunnerRuntime, halt: AbortSignal): Promise<void> {
  const { options, client, stats, logger } = rt;
  let failures = 0;
  while (!halt.aborted && !rt.connection.fenced) {
    const connection = await rt.connection.ensure(halt);
    if (connection === null) return;
    let waitMs = connection.heartbeatIntervalMs;
    const outcome = await client.heartbeat(options.executorId, connection.connectionId, halt);
    if (outcome.type === "answer") {
      failures = 0;
      stats.add("heartbeats_sent");
      const answer = JSON.parse(outcome.text) as HeartbeatAnswer;
      waitMs = answer.heartbeat_interval_ms;
      receiveCancellations(rt, answer.cancellations);
    } else {
      if (outcome.type === "unreachable" && outcome.aborted) return;
      stats.add("heartbeat_failures");
      if (outcome.type === "refused") {
        const handled = await rt.connection.handleRefusal(connection.connectionId, outcome.code, halt);
        if (handled === "reconnected" || handled === "stale") continue;
        if (handled === "fenced") return;
      }
      logger.warn("heartbeat failed", {
        reason: outcome.type === "refused" ? `${outcome.status} ${outcome.code}` : outcome.message,
      });
      // Retry sooner than the interval, so a short outage does not cost the lease.
      const bounds = { minMs: options.retryBackoffMinMs, maxMs: connection.heartbeatIntervalMs };
      waitMs = backoffDelayMs(failures++, bounds, options.random());
    }
    await sleep(waitMs, halt);
  }
}
