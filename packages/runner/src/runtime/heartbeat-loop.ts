/**
 * The heartbeat loop: renews the lease at the interval the server asks for and picks up business
 * cancellations. A lapsed lease reconnects; a superseded connection fences the runner. Failed
 * heartbeats go to the trouble watch (logged once per streak) and are retried sooner than the
 * interval, so a short outage does not cost the lease. It keeps running while `stop()` drains
 * in-flight calls, and ends when `halt` aborts.
 */

import { executorTrouble } from "../decisions/trouble-policy.js";
import { receiveCancellations } from "./receive-cancellations.js";
import type { RunnerRuntime } from "./runner-runtime.js";
import { sleep } from "./sleep.js";

/** Runs heartbeats until `halt` aborts, the runner is fenced or a refusal failed it. */
export async function heartbeatLoop(rt: RunnerRuntime, halt: AbortSignal): Promise<void> {
  const { options, client, stats } = rt;
  while (!halt.aborted && !rt.connection.fenced) {
    const connection = await rt.connection.ensure(halt);
    if (connection === null) return;
    let waitMs = connection.heartbeatIntervalMs;
    const outcome = await client.heartbeat(options.executorId, connection.connectionId, halt);
    if (outcome.type === "answer") {
      rt.watch.clear("heartbeat");
      stats.add("heartbeats_sent");
      waitMs = outcome.body.heartbeat_interval_ms;
      receiveCancellations(rt, outcome.body.cancellations);
    } else {
      if (outcome.type === "unreachable" && outcome.aborted) return;
      stats.add("heartbeat_failures");
      if (outcome.type === "refused") {
        const handled = await rt.connection.handleRefusal(connection.connectionId, outcome.code, halt);
        if (handled === "reconnected" || handled === "stale") continue;
        if (handled === "fenced") return;
      }
      const decision = rt.watch.report("heartbeat", executorTrouble(outcome));
      if (decision.fatal) return;
      waitMs = Math.min(decision.delayMs, connection.heartbeatIntervalMs);
    }
    await sleep(waitMs, halt);
  }
}
