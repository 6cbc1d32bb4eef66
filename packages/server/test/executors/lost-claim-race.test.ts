// Claim races neither lose nor multiply wake-ups (docs/executors.md, "Wake-ups"): A is woken for
// call X, B for call Y; B is answered [X, Y] and claims X first, so A's claim of X is 409
// `already_claimed`. Y's wake-up went to B, which took X instead: B's won claim hands Y's wake-up on,
// and C (the next waiter serving the tool) is answered [Y] at once. A's lost race wakes nobody.

import { afterEach, expect, it, vi } from "vitest";
import { pendingCallWakeups } from "../../src/wakeups/wakeup.js";
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

const started: ExecutorServer[] = [];
afterEach(async () => {
  for (const server of started.splice(0)) await server.close();
});

describeEachDialect("a lost claim race", (dialect) => {
  it("wakes the next waiter, which sees the call the winner's wake-up was for", async () => {
    const server = await startExecutorServer(dialect, { clock: new ManualClock() });
    started.push(server);
    const key = await createKey(server.url, {
      name: "executors",
      scopes: ["executors:connect", "tools:execute"],
      bindings: ["b1"],
    });
    const connect = async (executorId: string) => {
      const answer = await server.call("POST", "/v1/executors/connect", {
        key,
        body: { executor_id: executorId, binding_ids: ["b1"] },
      });
      expect(answer.status).toBe(200);
      return { executorId, connectionId: String(answer.body.connection_id) };
    };
    const [a, b, c] = [await connect("ea"), await connect("eb"), await connect("ec")];
    const waits = countWaits(server.server.wakeups);
    const poll = (executor: { executorId: string; connectionId: string }) =>
      server.call(
        "GET",
        executorPath(executor.executorId, "pending", { connection_id: executor.connectionId, wait_ms: WAIT_MS }),
        {
          key,
        },
      );
    // The waiters queue up in order a, b, c (the longest waiting is woken first).
    const polls: Array<ReturnType<typeof poll>> = [];
    for (const [index, executor] of [a, b, c].entries()) {
      polls.push(poll(executor));
      await vi.waitFor(() => expect(waits.started).toBeGreaterThanOrEqual(index + 1), {
        timeout: 10_000,
        interval: 10,
      });
    }
    const x = callRecord("r1", "c_x", { position: 0, created_at_ms: 7_000 });
    const y = callRecord("r1", "c_y", { position: 1, created_at_ms: 7_001 });
    await server.server.storage.calls.insertMany([x]);
    server.server.wakeups.notify(pendingCallWakeups([x]));
    const [pollA, pollB, pollC] = polls as [ReturnType<typeof poll>, ReturnType<typeof poll>, ReturnType<typeof poll>];
    const answerA = await pollA;
    expect((answerA.body.data as Array<{ call_id: string }>).map((call) => call.call_id)).toEqual(["c_x"]);
    await server.server.storage.calls.insertMany([y]);
    server.server.wakeups.notify(pendingCallWakeups([y]));
    const answerB = await pollB;
    expect((answerB.body.data as Array<{ call_id: string }>).map((call) => call.call_id)).toEqual(["c_x", "c_y"]);
    let cAnswered = false;
    void pollC.then(() => {
      cAnswered = true;
    });
    const claim = (executor: { executorId: string; connectionId: string }) =>
      server.call("POST", "/v1/runs/r1/tool-calls/c_x/claim", {
        key,
        body: { executor_id: executor.executorId, connection_id: executor.connectionId },
      });
    // Before B's claim nothing woke C.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(cAnswered).toBe(false);
    expect((await claim(b)).status).toBe(200);
    // B took X although it was woken for Y: Y's wake-up reaches C long before its wait ends.
    const answerC = await pollC;
    expect((answerC.body.data as Array<{ call_id: string }>).map((call) => call.call_id)).toEqual(["c_y"]);
    const lost = await claim(a);
    expect(lost.status).toBe(409);
    expect(lost.text).toContain("already_claimed");
    // A's lost race wakes nobody (X is taken): no wake-up is notified by it.
    const notified: unknown[] = [];
    const notify = server.server.wakeups.notify.bind(server.server.wakeups);
    server.server.wakeups.notify = (wakeups) => {
      notified.push(...wakeups);
      notify(wakeups);
    };
    expect((await claim(a)).status).toBe(409);
    expect(notified).toEqual([]);
    // Y is still claimable: A (an executor that lost a race) polls again and sees it itself.
    const again = await server.call("GET", executorPath(a.executorId, "pending", { connection_id: a.connectionId }), {
      key,
    });
    expect((again.body.data as Array<{ call_id: string }>).map((call) => call.call_id)).toEqual(["c_y"]);
  }, 60_000);
});
