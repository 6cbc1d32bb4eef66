// The run event stream (GET /v1/runs/{run_id}/events): server-sent events with increasing ids, a
// resume with Last-Event-ID after a dropped connection, the heartbeat comment, the end after the
// terminal event — and closing the stream never changes the run (the fifth operation).

import { expect, it } from "vitest";
import { admin } from "../calls/calls-harness.js";
import { claimAndAccept, sendReceipt } from "../runs/run-fixtures.js";
import { dumpTables } from "../support/table-dump.js";
import { describeEachDialect } from "../support/test-databases.js";
import { openStream } from "./event-stream-client.js";
import { buildModelWorld, pendingCalls, runEnded, startModelRun, startModelServer } from "./model-harness.js";

const isEvent = (frame: { id?: number }): boolean => frame.id !== undefined;
const WRITE = { tool_calls: [{ name: "tasks.create", arguments: { title: "Buy milk" } }] };

describeEachDialect("run event stream", (dialect) => {
  it("streams every event with increasing ids and ends after the terminal run.status", async () => {
    const server = await startModelServer(dialect);
    const world = await buildModelWorld(server, { provider: "scripted", script: [WRITE, { message: "done" }] });
    const runId = await startModelRun(server, world);
    const stream = await openStream(server.url, runId);
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const early = await stream.until(1, (f) => f.event === "tool_call.status");
    expect(early[0]?.data).toMatchObject({ tool_name: "tasks.create", status: "pending" });
    const [call] = await pendingCalls(server, runId, 1);
    const holder = await claimAndAccept(server, world.bindingId, runId, call.call_id);
    await sendReceipt(server, runId, call.call_id, {
      ...holder,
      receipt_id: "r-done",
      kind: "completed",
      result: { task_id: "t1" },
    });
    await stream.ended;
    const events = stream.frames.filter(isEvent);
    expect(events.map((f) => f.id)).toEqual(events.map((_, i) => i + 1));
    expect(events.map((f) => f.event)).toEqual([
      "run.status",
      "history.item",
      "model.request",
      "tool_call.status",
      "history.item",
      "run.status",
      "tool_call.status",
      "history.item",
      "model.request",
      "history.item",
      "run.status",
    ]);
    expect(events[0]?.data).toMatchObject({ run_id: runId, status: "queued" });
    expect(events[1]?.data).toEqual({ seq: 0, item: { type: "input", input: "Plan my day" } });
    expect(events[5]?.data.status).toBe("waiting_for_tools");
    expect(events[6]?.data).toMatchObject({ call_id: call.call_id, status: "completed" });
    expect(events[7]?.data.item).toMatchObject({ type: "tool_result", receipt_id: "r-done" });
    expect(events.at(-1)?.data).toMatchObject({ status: "completed", output: "done" });
    // After the end: a new stream replays everything and ends at once; one resumed after the end sends nothing.
    const replay = await openStream(server.url, runId);
    await replay.ended;
    expect(replay.frames.filter(isEvent)).toEqual(events);
    const after = await openStream(server.url, runId, events.length);
    await after.ended;
    expect(after.frames).toEqual([]);
  }, 60_000);

  it("resumes with Last-Event-ID after a dropped connection: exactly the events after it", async () => {
    const server = await startModelServer(dialect);
    const world = await buildModelWorld(server, { provider: "scripted", script: [WRITE, WRITE, { message: "done" }] });
    const runId = await startModelRun(server, world);
    const first = await openStream(server.url, runId);
    const seen = await first.until(6, isEvent);
    first.close();
    await first.ended;
    const lastId = seen.at(-1)?.id as number;
    // The run goes on while nobody listens.
    for (let turn = 0; turn < 2; turn++) {
      const [call] = await pendingCalls(server, runId, 1);
      const holder = await claimAndAccept(server, world.bindingId, runId, call.call_id);
      await sendReceipt(server, runId, call.call_id, {
        ...holder,
        receipt_id: `r${turn}`,
        kind: "completed",
        result: {},
      });
    }
    await runEnded(server, runId);
    const resumed = await openStream(server.url, runId, lastId);
    await resumed.ended;
    const full = await openStream(server.url, runId);
    await full.ended;
    const all = full.frames.filter(isEvent);
    expect(resumed.frames.filter(isEvent)).toEqual(all.filter((f) => (f.id as number) > lastId));
    expect(all.slice(0, seen.length)).toEqual(seen);
  }, 60_000);

  it("closing the stream never changes the run; a heartbeat comment keeps an idle stream alive", async () => {
    const server = await startModelServer(dialect, { eventHeartbeatMs: 50 });
    const world = await buildModelWorld(server, { provider: "scripted", script: [WRITE, { message: "done" }] });
    const runId = await startModelRun(server, world);
    await pendingCalls(server, runId, 1);
    const before = await dumpTables(server.database.url);
    const stream = await openStream(server.url, runId);
    await stream.until(2, (f) => f.comment === "heartbeat");
    stream.close();
    await stream.ended;
    // Give the server time to notice the closed connection, then compare every table.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await dumpTables(server.database.url)).toEqual(before);
    const [call] = await pendingCalls(server, runId, 1);
    const holder = await claimAndAccept(server, world.bindingId, runId, call.call_id);
    await sendReceipt(server, runId, call.call_id, { ...holder, receipt_id: "r1", kind: "completed", result: {} });
    expect(await runEnded(server, runId)).toMatchObject({ status: "completed", output: "done" });
  }, 60_000);

  it("answers 404 outside the key's agent scope and 422 for a Last-Event-ID that is not a number", async () => {
    const server = await startModelServer(dialect);
    const world = await buildModelWorld(server, { provider: "scripted", script: [{ message: "done" }] });
    const runId = await startModelRun(server, world);
    const scoped = await server.call("POST", "/v1/keys", {
      ...admin,
      body: { name: "other agent", scopes: ["runtime:read"], agents: ["agt_other"] },
    });
    expect(scoped.status, scoped.text).toBe(201);
    const hidden = await server.call("GET", `/v1/runs/${runId}/events`, { key: scoped.body.key });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe("not_found");
    const bad = await server.call("GET", `/v1/runs/${runId}/events`, { ...admin, headers: { "last-event-id": "x1" } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe("validation_failed");
    const missing = await server.call("GET", "/v1/runs/run_missing/events", admin);
    expect(missing.status).toBe(404);
  });
});
