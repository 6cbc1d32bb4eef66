// Runs keep their state in the database: a server stopped while its model request is in flight gives
// the turn back and a restarted server re-asks the model; an instance whose lease lapsed (a crash)
// loses the turn to another instance, and its late answer is dropped — no tool call is created twice.
// The run driver survives storage failures (it keeps polling, with a pause that grows).

import pino from "pino";
import { expect, it } from "vitest";
import { RunDriver } from "../../src/runs/run-driver.js";
import type { Storage } from "../../src/storage/storage.js";
import { ManualClock } from "../calls/calls-harness.js";
import { describeEachDialect } from "../support/test-databases.js";
import { startFakeModelServer } from "./fake-model-server.js";
import {
  buildModelWorld,
  modelRequests,
  openAiModel,
  pendingCalls,
  runWhen,
  startModelRun,
  startModelServer,
  toolCalls,
} from "./model-harness.js";

const CREATE = { kind: "tool_calls" as const, calls: [{ name: "tasks_create", arguments: { title: "Buy milk" } }] };

describeEachDialect("model turns across restarts", (dialect) => {
  it("a server stopped mid-request gives the turn back; the restarted server asks again and goes on", async () => {
    const fake = await startFakeModelServer();
    fake.push({ kind: "hang" }, CREATE);
    const first = await startModelServer(dialect, { fakeUrl: fake.url });
    const world = await buildModelWorld(first, openAiModel());
    const runId = await startModelRun(first, world);
    await fake.waitForRequests(1);
    expect((await first.server.storage.modelTurns.get(runId))?.owner).not.toBeNull();
    await first.close();
    // Stopped: the request was aborted and the lease given back (the next instance needs no lease to lapse).
    const second = await startModelServer(dialect, { fakeUrl: fake.url }, first.database);
    const calls = await pendingCalls(second, runId, 1);
    expect(calls[0]).toMatchObject({ tool_name: "tasks.create", turn: 0 });
    expect(fake.requests.length).toBe(2);
    expect(fake.requests[1]?.text).toBe(fake.requests[0]?.text);
    const requests = await modelRequests(second, runId);
    expect(requests.map((r) => [r.turn, r.purpose])).toEqual([[0, "turn"]]);
    expect(await second.server.storage.modelTurns.get(runId)).toBeUndefined();
  }, 60_000);

  it("an instance that lost its lease (a crash) never applies its late answer: one set of calls", async () => {
    const fake = await startFakeModelServer();
    fake.push({ kind: "hang" });
    const clockA = new ManualClock();
    const a = await startModelServer(dialect, { fakeUrl: fake.url, modelLeaseMs: 60_000 }, undefined, clockA);
    const world = await buildModelWorld(a, openAiModel());
    const runId = await startModelRun(a, world);
    await fake.waitForRequests(1);
    // B's clock is past A's lease: to B, A looks dead (it stopped renewing), so B takes the turn over.
    const clockB = new ManualClock(clockA.nowMs() + 120_000);
    fake.push(CREATE);
    const b = await startModelServer(dialect, { fakeUrl: fake.url, modelLeaseMs: 60_000 }, a.database, clockB);
    await pendingCalls(b, runId, 1);
    expect(fake.requests.length).toBe(2);
    // A's request now answers (with other calls): A no longer holds the turn and drops the answer.
    fake.push({ kind: "tool_calls", calls: [{ name: "tasks_create", arguments: { title: "twice?" } }] });
    fake.releaseHung();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Closing A waits for its turn in flight to finish (or be aborted).
    await a.close();
    const calls = await toolCalls(b, runId);
    expect(calls.map((call) => [call.tool_name, call.turn])).toEqual([["tasks.create", 0]]);
    expect((await modelRequests(b, runId)).length).toBe(1);
    await runWhen(b, runId, (r) => r.status === "waiting_for_tools", "the run waits");
  }, 60_000);
});

it("the run driver keeps polling through storage failures, with a growing pause", async () => {
  let calls = 0;
  const failing = {
    modelTurns: {
      claimable: async () => {
        calls++;
        if (calls <= 3) throw new Error("storage_unavailable: connection refused");
        return [];
      },
    },
  } as unknown as Storage;
  const lines: string[] = [];
  const log = pino({ level: "error" }, { write: (line: string) => lines.push(line) });
  const driver = new RunDriver({
    storage: failing,
    clock: new ManualClock(),
    log,
    env: {},
    connections: new Map(),
    options: { leaseMs: 1_000, pollIntervalMs: 5, concurrency: 2, timeoutMs: 1_000, maxRetries: 0 },
  });
  driver.start();
  const deadline = Date.now() + 10_000;
  while (calls < 6 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  await driver.stop();
  expect(calls).toBeGreaterThanOrEqual(6);
  // The same failure is logged once, not on every poll.
  expect(lines.filter((line) => line.includes("polling queued model turns failed")).length).toBe(1);
});
