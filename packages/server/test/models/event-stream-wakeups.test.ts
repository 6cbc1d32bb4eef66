// Idle event streams cost nothing, over real HTTP on both dialects: streams on an idle run run no
// query (the storage's statement counter stays still), one commit that writes the run's events wakes
// them all through one shared read, and on PostgreSQL an event written through another instance
// reaches a stream (NOTIFY), as does a revocation made there (the stream ends within 2 s).

import { expect, it } from "vitest";
import { admin } from "../calls/calls-harness.js";
import { createKey, type TestServer } from "../http/http-harness.js";
import { claimAndAccept, sendReceipt } from "../runs/run-fixtures.js";
import { describeDialect, describeEachDialect, testDatabaseUrl } from "../support/test-databases.js";
import { type Frame, openStream } from "./event-stream-client.js";
import { buildModelWorld, pendingCalls, startModelRun, startModelServer } from "./model-harness.js";

const isEvent = (frame: Frame): boolean => frame.id !== undefined;
const WRITE = { tool_calls: [{ name: "tasks.create", arguments: { title: "Buy milk" } }] };
/** No sweep and no run-driver poll while a test watches the statement counter. */
const QUIET = { sweepIntervalMs: 60_000, modelPollIntervalMs: 60_000 };

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Statements `server`'s storage has sent so far. */
const statements = (server: TestServer): number =>
  (server.server.storage as unknown as { stats(): { statements: number } }).stats().statements;

/** Counts the event reads of `server`'s storage. */
function countEventReads(server: TestServer): { count: number } {
  const events = server.server.storage.runEvents;
  const listAfter = events.listAfter.bind(events);
  const counter = { count: 0 };
  events.listAfter = (...args) => {
    counter.count++;
    return listAfter(...args);
  };
  return counter;
}

describeEachDialect("idle event streams", (dialect) => {
  it("20 streams on an idle run run no query; the commit that writes its events wakes them all with one shared read", async () => {
    const server = await startModelServer(dialect, QUIET);
    const world = await buildModelWorld(server, { provider: "scripted", script: [WRITE, { message: "done" }] });
    const runId = await startModelRun(server, world);
    const [call] = await pendingCalls(server, runId, 1);
    const streams = await Promise.all(Array.from({ length: 20 }, () => openStream(server.url, runId)));
    for (const stream of streams) await stream.until(6, isEvent);
    await pause(200);
    const before = statements(server);
    await pause(1_500);
    // Polling, each stream ran two queries every 250 ms: 240 here.
    expect(statements(server) - before).toBe(0);
    const holder = await claimAndAccept(server, world.bindingId, runId, call.call_id);
    const reads = countEventReads(server);
    await sendReceipt(server, runId, call.call_id, { ...holder, receipt_id: "r1", kind: "completed", result: {} });
    for (const stream of streams) await stream.ended;
    const ends = streams.map((stream) => stream.frames.filter(isEvent).at(-1)?.data);
    for (const end of ends) expect(end).toMatchObject({ status: "completed", output: "done" });
    // One commit wrote the run's events: one read for the 20 streams (a second one may follow a wake-up during it).
    expect(reads.count).toBeLessThanOrEqual(2);
  }, 60_000);
});

describeDialect("postgres", "event streams across instances", () => {
  it("an event committed through another instance reaches a stream that ran no query meanwhile", async () => {
    const database = await testDatabaseUrl("postgres");
    const a = await startModelServer("postgres", QUIET, database);
    const b = await startModelServer("postgres", QUIET, database);
    const world = await buildModelWorld(a, { provider: "scripted", script: [WRITE, { message: "done" }] });
    const runId = await startModelRun(a, world);
    const [call] = await pendingCalls(a, runId, 1);
    const stream = await openStream(b.url, runId);
    await stream.until(6, isEvent);
    await pause(200);
    const before = statements(b);
    await pause(1_000);
    expect(statements(b) - before).toBe(0);
    const holder = await claimAndAccept(a, world.bindingId, runId, call.call_id);
    await sendReceipt(a, runId, call.call_id, { ...holder, receipt_id: "r1", kind: "completed", result: {} });
    await stream.ended;
    expect(stream.frames.filter(isEvent).at(-1)?.data).toMatchObject({ status: "completed", output: "done" });
  }, 60_000);

  it("a key revoked through another instance: its stream ends within 2 s", async () => {
    const database = await testDatabaseUrl("postgres");
    const a = await startModelServer("postgres", {}, database);
    const b = await startModelServer("postgres", {}, database);
    const world = await buildModelWorld(a, { provider: "scripted", script: [WRITE, { message: "done" }] });
    const runId = await startModelRun(a, world);
    await pendingCalls(a, runId, 1);
    const reader = await createKey(a, { name: "reader", scopes: ["runtime:read"] });
    const stream = await openStream(b.url, runId, undefined, reader.key);
    expect(stream.status).toBe(200);
    await stream.until(1, isEvent);
    expect((await a.call("DELETE", `/v1/keys/${reader.key_id}`, admin)).status).toBe(200);
    const ended = await Promise.race([stream.ended.then(() => true), pause(2_000).then(() => false)]);
    expect(ended).toBe(true);
  }, 60_000);
});
