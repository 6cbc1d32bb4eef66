// When a woken long-poll hands its wake-up on (docs/executors.md, "Wake-ups"): a call beyond the
// waiter's page may still be claimable, so the next waiter is woken; a complete answer of a `*` key
// without the call means another executor took it, so nobody else is woken.

import { afterEach, expect, it, vi } from "vitest";
import type { CallWakeups } from "../../src/wakeups/call-wakeups.js";
import type { Wakeup } from "../../src/wakeups/wakeup.js";
import { callWakeup, pendingCallWakeups } from "../../src/wakeups/wakeup.js";
import { callRecord } from "../support/call-fixtures.js";
import { describeEachDialect } from "../support/test-databases.js";
import {
  countWaits,
  createKey,
  type ExecutorServer,
  executorPath,
  ManualClock,
  startExecutorServer,
} from "./executor-harness.js";

const WAIT_MS = 25_000;

/** Records every wake-up notified on `wakeups` from now on. */
function recordNotified(wakeups: CallWakeups): Wakeup[] {
  const notified: Wakeup[] = [];
  const notify = wakeups.notify.bind(wakeups);
  wakeups.notify = (list) => {
    const all = [...list];
    notified.push(...all);
    notify(all);
  };
  return notified;
}

const started: ExecutorServer[] = [];
afterEach(async () => {
  for (const server of started.splice(0)) await server.close();
});

describeEachDialect("a woken long-poll that cannot use its call", (dialect) => {
  async function twoWaiters(limit?: number) {
    const server = await startExecutorServer(dialect, { clock: new ManualClock() });
    started.push(server);
    const key = await createKey(server.url, {
      name: "executors",
      scopes: ["executors:connect", "tools:execute"],
      bindings: ["b1"],
    });
    const waits = countWaits(server.server.wakeups);
    const polls: Array<Promise<{ status: number; body: Record<string, unknown>; atMs: number }>> = [];
    for (const executorId of ["ea", "eb"]) {
      const connected = await server.call("POST", "/v1/executors/connect", {
        key,
        body: { executor_id: executorId, binding_ids: ["b1"] },
      });
      expect(connected.status).toBe(200);
      const query = {
        connection_id: String(connected.body.connection_id),
        wait_ms: WAIT_MS,
        ...(limit === undefined ? {} : { limit }),
      };
      const count = waits.started;
      polls.push(
        server
          .call("GET", executorPath(executorId, "pending", query), { key })
          .then((answer) => ({ ...answer, atMs: performance.now() })),
      );
      // The waiters queue up in order: A is woken first.
      await vi.waitFor(() => expect(waits.started).toBeGreaterThan(count), { timeout: 10_000, interval: 10 });
    }
    return { server, polls: polls as [(typeof polls)[0], (typeof polls)[0]] };
  }

  it("hands it on when the call may lie beyond its page", async () => {
    const { server, polls } = await twoWaiters(1);
    const older = callRecord("r1", "c_old", { position: 0, created_at_ms: 7_000 });
    const newer = callRecord("r1", "c_new", { position: 1, created_at_ms: 7_001 });
    // The older call is stored without a wake-up (as if its wake-up had been lost).
    await server.server.storage.calls.insertMany([older, newer]);
    const notifiedAtMs = performance.now();
    server.server.wakeups.notify(pendingCallWakeups([newer]));
    const [answerA, answerB] = await Promise.all(polls);
    // A's page of one holds the older call: the newer one may be beyond it, so B is woken too.
    for (const answer of [answerA, answerB]) {
      expect(answer.status).toBe(200);
      expect((answer.body.data as Array<{ call_id: string }>).map((call) => call.call_id)).toEqual(["c_old"]);
      expect(answer.body.next_cursor).not.toBeNull();
    }
    expect(answerB.atMs - notifiedAtMs).toBeLessThan(WAIT_MS / 2);
  }, 60_000);

  it("wakes nobody else when its complete answer lacks the call (another executor took it)", async () => {
    const { server, polls } = await twoWaiters();
    const notified = recordNotified(server.server.wakeups);
    let bAnswered = false;
    void polls[1].then(() => {
      bAnswered = true;
    });
    // Another call is claimable but was stored without a wake-up; A is woken for a call that is no
    // longer claimable (someone else claimed it meanwhile).
    const other = callRecord("r1", "c_other", { position: 0, created_at_ms: 7_000 });
    await server.server.storage.calls.insertMany([other]);
    server.server.wakeups.notify([callWakeup({ call_id: "c_taken", binding_id: "b1", tool_name: "tool_0" })]);
    const answerA = await polls[0];
    expect((answerA.body.data as Array<{ call_id: string }>).map((call) => call.call_id)).toEqual(["c_other"]);
    expect(answerA.body.next_cursor).toBeNull();
    // A's answer is complete and lacks c_taken: it was taken, so nothing was handed on and B waits.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(notified).toHaveLength(1);
    expect(bAnswered).toBe(false);
    // A wake-up for the claimable call still reaches B.
    server.server.wakeups.notify(pendingCallWakeups([other]));
    const answerB = await polls[1];
    expect((answerB.body.data as Array<{ call_id: string }>).map((call) => call.call_id)).toEqual(["c_other"]);
  }, 60_000);
});
