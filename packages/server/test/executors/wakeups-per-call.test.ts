// Wake-ups proportional to new work, over HTTP on both dialects: 200 executors long-poll, 50 calls
// arrive one at a time (each notified after its commit, as a run creation does); every call is
// claimed exactly once, no waiter is woken more than twice, and executors whose connection declared
// other tools are never woken. Both the per-call long-poll (claims through `POST …/claim`) and the
// batched `pending?claim=1`. On PostgreSQL also across two instances: the calls are created on one,
// every executor waits on the other (the NOTIFY relay carries the same one-waiter-per-call rule).

import { afterEach, expect, it, vi } from "vitest";
import type { Dialect } from "../../src/storage/storage.js";
import type { CallWakeups } from "../../src/wakeups/call-wakeups.js";
import { pendingCallWakeups } from "../../src/wakeups/wakeup.js";
import { callRecord } from "../support/call-fixtures.js";
import { describeEachDialect, testDatabaseUrl } from "../support/test-databases.js";
import {
  countWaits,
  createKey,
  type ExecutorServer,
  executorPath,
  ManualClock,
  startExecutorServer,
} from "./executor-harness.js";

const WAITERS = 200;
const OTHER_TOOL_WAITERS = 20;
const CALLS = 50;
const WAIT_MS = 20_000;

/** Counts, per executor, the waits of `wakeups` that ended woken by a call. */
function countWakes(wakeups: CallWakeups): Map<string, number> {
  const woken = new Map<string, number>();
  const wait = wakeups.wait.bind(wakeups);
  wakeups.wait = async (waitFor, timeoutMs, signal) => {
    const answer = await wait(waitFor, timeoutMs, signal);
    if (answer !== undefined && answer !== "everyone" && answer.kind === "call") {
      woken.set(waitFor.executor_id, (woken.get(waitFor.executor_id) ?? 0) + 1);
    }
    return answer;
  };
  return woken;
}

/** Counts the candidate queries of `server` that answered (a waiter past its first query waits). */
function countQueries(server: ExecutorServer): { readonly answered: number } {
  const counter = { answered: 0 };
  const pending = server.server.storage.pendingCalls;
  const poll = pending.poll.bind(pending);
  pending.poll = async (...args) => {
    const answer = await poll(...args);
    counter.answered++;
    return answer;
  };
  return counter;
}

interface Waiter {
  readonly executorId: string;
  readonly connectionId: string;
}

/** Connects `count` executors on b1 through `server` (tool_0 unless `toolNames`). */
async function connectAll(server: ExecutorServer, key: string, prefix: string, count: number, toolNames?: string[]) {
  const waiters: Waiter[] = [];
  for (let i = 0; i < count; i++) {
    const executorId = `${prefix}${i}`;
    const answer = await server.call("POST", "/v1/executors/connect", {
      key,
      body: {
        executor_id: executorId,
        binding_ids: ["b1"],
        ...(toolNames === undefined ? {} : { tool_names: toolNames }),
      },
    });
    if (answer.status !== 200) throw new Error(`connect answered ${answer.status}: ${answer.text}`);
    waiters.push({ executorId, connectionId: String(answer.body.connection_id) });
  }
  return waiters;
}

/**
 * Runs one executor like a runner until it claimed a call (then it is busy) or `stop`: long-poll,
 * then claim (with `claim=1`, or the candidates one after another through the claim route until one
 * is won), and poll again. Requests failing once stopped (the server closed) end it quietly.
 */
async function runExecutor(
  server: ExecutorServer,
  key: string,
  waiter: Waiter,
  batched: boolean,
  claimed: string[],
  stopped: () => boolean,
): Promise<void> {
  const query = { connection_id: waiter.connectionId, wait_ms: WAIT_MS, ...(batched ? { claim: 1 } : {}) };
  try {
    while (!stopped()) {
      const answer = await server.call("GET", executorPath(waiter.executorId, "pending", query), { key });
      if (stopped()) return;
      if (answer.status !== 200) throw new Error(`pending answered ${answer.status}: ${answer.text}`);
      if (batched) {
        const claims = answer.body.claims as Array<{ call: { call_id: string } }>;
        for (const claim of claims) claimed.push(claim.call.call_id);
        if (claims.length > 0) return;
        continue;
      }
      for (const candidate of answer.body.data as Array<{ run_id: string; call_id: string }>) {
        const claim = await server.call("POST", `/v1/runs/${candidate.run_id}/tool-calls/${candidate.call_id}/claim`, {
          key,
          body: { executor_id: waiter.executorId, connection_id: waiter.connectionId },
        });
        if (claim.status === 200) {
          claimed.push(candidate.call_id);
          return;
        }
      }
    }
  } catch (error) {
    if (!stopped()) throw error;
  }
}

/** Starts the waiters on `waitOn`, adds the calls one at a time on `addOn`, and checks the rule. */
async function fiftyCallsForTwoHundredWaiters(
  addOn: ExecutorServer,
  waitOn: ExecutorServer,
  batched: boolean,
): Promise<void> {
  const key = await createKey(addOn.url, {
    name: "executors",
    scopes: ["executors:connect", "tools:execute"],
    bindings: ["b1"],
  });
  const waiters = await connectAll(waitOn, key, "e", WAITERS - OTHER_TOOL_WAITERS);
  const otherTools = await connectAll(waitOn, key, "other", OTHER_TOOL_WAITERS, ["tool_1"]);
  const woken = countWakes(waitOn.server.wakeups);
  const waits = countWaits(waitOn.server.wakeups);
  const queries = countQueries(waitOn);
  const claimed: string[] = [];
  let stop = false;
  const running = [...waiters, ...otherTools].map((waiter) =>
    runExecutor(waitOn, key, waiter, batched, claimed, () => stop),
  );
  try {
    // Every waiter waits with its first query answered: a wake-up given to a waiter whose first query
    // is still running is rightly handed on (that query may have read before the call), which a loaded
    // machine would add to the count below.
    await vi.waitFor(
      () => {
        expect(waits.started).toBeGreaterThanOrEqual(WAITERS);
        expect(queries.answered).toBeGreaterThanOrEqual(WAITERS);
      },
      { timeout: 30_000, interval: 20 },
    );
    for (let i = 0; i < CALLS; i++) {
      const call = callRecord("r1", `c${String(i).padStart(3, "0")}`, { position: i, created_at_ms: 7_000 + i });
      await addOn.server.storage.calls.insertMany([call]);
      addOn.server.wakeups.notify(pendingCallWakeups([call]));
    }
    await vi.waitFor(() => expect(claimed.length).toBeGreaterThanOrEqual(CALLS), { timeout: 150_000, interval: 20 });
  } finally {
    stop = true;
  }
  expect(new Set(claimed).size).toBe(CALLS);
  expect(claimed).toHaveLength(CALLS);
  const counts = [...woken.values()];
  expect(Math.max(...counts)).toBeLessThanOrEqual(2);
  // At most one wake-up per call, plus one hand-on per lost race at most.
  expect(counts.reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(2 * CALLS);
  for (const other of otherTools) expect(woken.get(other.executorId)).toBeUndefined();
  // The remaining long-polls end with the servers, answering an empty list (or failing, ignored once stopped).
  for (const server of started.splice(0)) await server.close();
  const ended = await Promise.allSettled(running);
  expect(ended.filter((end) => end.status === "rejected")).toEqual([]);
}

const started: ExecutorServer[] = [];
afterEach(async () => {
  for (const server of started.splice(0)) await server.close();
});

async function start(
  dialect: Dialect,
  shared?: { database: Awaited<ReturnType<typeof testDatabaseUrl>>; seed: boolean },
) {
  const server = await startExecutorServer(dialect, { clock: new ManualClock(), ...shared });
  started.push(server);
  return server;
}

describeEachDialect("wake-ups per new call", (dialect) => {
  for (const batched of [false, true]) {
    const mode = batched ? "pending?claim=1" : "pending, then POST …/claim";
    it(`${mode}: 200 waiters, 50 calls — every call claimed once, each waiter woken at most twice`, async () => {
      const server = await start(dialect);
      await fiftyCallsForTwoHundredWaiters(server, server, batched);
    }, 240_000);
  }

  if (dialect === "postgres") {
    it("across two instances: calls created on A wake B's waiters one per call", async () => {
      const database = await testDatabaseUrl("postgres");
      const a = await start("postgres", { database, seed: true });
      const b = await start("postgres", { database, seed: false });
      await fiftyCallsForTwoHundredWaiters(a, b, true);
    }, 240_000);
  }
});
