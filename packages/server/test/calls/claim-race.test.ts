// Concurrency: 20 executors (20 connections) race for 200 calls; every call is claimed exactly once.
import { expect, it } from "vitest";
import { describeEachDialect } from "../support/test-databases.js";
import { buildWorld, claim, connect, listCalls, startClockedServer, startRun } from "./calls-harness.js";

const EXECUTORS = 20;
const RUNS = 4;
const CALLS_PER_RUN = 50;
/** How many executors try each call. */
const CONTENDERS = EXECUTORS / 2;

/** `items` in a random order. */
function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

describeEachDialect("claim race", (dialect) => {
  it(`${EXECUTORS} executors racing for ${RUNS * CALLS_PER_RUN} calls: each call is claimed exactly once`, {
    timeout: 180_000,
  }, async () => {
    const server = await startClockedServer(dialect);
    const step = {
      tool_calls: Array.from({ length: CALLS_PER_RUN }, (_, i) => ({
        name: "tasks.write",
        arguments: { title: `t${i}` },
      })),
    };
    const world = await buildWorld(server, [step, { message: "done" }]);
    const calls: Array<{ runId: string; callId: string }> = [];
    for (let run = 0; run < RUNS; run++) {
      const runId = await startRun(server, world);
      for (const call of await listCalls(server, runId)) calls.push({ runId, callId: call.call_id });
    }
    expect(calls).toHaveLength(RUNS * CALLS_PER_RUN);
    const executors = [];
    for (let i = 0; i < EXECUTORS; i++) executors.push(await connect(server, world, `racer-${i}`));

    // All executors at once, each in its own random order; every call is contended by CONTENDERS of them
    // (executor i tries the calls whose index has the parity of i).
    const outcomes = await Promise.all(
      executors.map(async (executor, i) => {
        const mine: Array<{ callId: string; status: number; code?: string; claimId?: string }> = [];
        for (const { runId, callId } of shuffled(calls.filter((_, index) => index % 2 === i % 2))) {
          const answer = await claim(server, world, runId, callId, executor);
          mine.push({ callId, status: answer.status, code: answer.body?.error?.code, claimId: answer.body?.claim_id });
        }
        return { executorId: executor.executor_id, mine };
      }),
    );

    const winners = new Map<string, string[]>();
    for (const { executorId, mine } of outcomes) {
      for (const outcome of mine) {
        if (outcome.status === 200) winners.set(outcome.callId, [...(winners.get(outcome.callId) ?? []), executorId]);
        else expect({ status: outcome.status, code: outcome.code }).toEqual({ status: 409, code: "already_claimed" });
      }
    }
    for (const { callId } of calls) expect(winners.get(callId), callId).toHaveLength(1);
    const losses = outcomes.flatMap((outcome) => outcome.mine).filter((outcome) => outcome.status === 409);
    expect(losses).toHaveLength(calls.length * (CONTENDERS - 1));

    // What the server stored agrees with the answers.
    const runIds = [...new Set(calls.map((call) => call.runId))];
    const listed = (await Promise.all(runIds.map((runId) => listCalls(server, runId)))).flat();
    for (const call of listed) {
      expect(call.status).toBe("claimed");
      expect([call.executor_id]).toEqual(winners.get(call.call_id));
    }
    await server.close();
  });
});
