// Run cancel, business-task cancel and compensation over HTTP — three operations, none implying
// another — and the history's projection byte for byte against the dry-run preview. Calls are
// claimed and settled through the executor protocol routes.
import { CANCELLED_RESULT, compact, parseJson, projectResult } from "@toolhost/protocol";
import { beforeAll, expect, it } from "vitest";
import { previewJson } from "../../src/runs/history-items.js";
import { expectError } from "../config/config-fixtures.js";
import { startTestServer, type TestServer } from "../http/http-harness.js";
import { describeEachDialect } from "../support/test-databases.js";
import {
  admin,
  at,
  callsOf,
  claim,
  claimAndAccept,
  historyOf,
  publishScript,
  read,
  sendReceipt,
  startRun,
} from "./run-fixtures.js";

describeEachDialect("run operations", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });

  const post = (path: string, body?: unknown) => server.call("POST", path, { ...admin, body });
  const historyText = async (runId: string): Promise<string> => (await read(server, `/v1/runs/${runId}/history`)).text;

  /** A run waiting for three calls: tasks.read {}, tasks.create {title: "a"}, tasks.create {title: "b"}. */
  async function waitingRun(): Promise<{ runId: string; bindingId: string; callIds: string[] }> {
    const script = await publishScript(server, [
      {
        tool_calls: [
          { name: "tasks.read", arguments: {} },
          { name: "tasks.create", arguments: { title: "a" } },
          { name: "tasks.create", arguments: { title: "b" } },
        ],
      },
      { message: "finished" },
    ]);
    const run = (await startRun(server, script.sessionId)).body;
    const callIds = (await callsOf(server, run.run_id)).map((call) => call.call_id as string);
    return { runId: run.run_id, bindingId: script.bindingId, callIds };
  }

  /** Completes a call through claim, accepted and a completed receipt whose body is `resultText`. */
  async function complete(bindingId: string, runId: string, callId: string, resultText = '{"task_id":"t1"}') {
    const holder = await claimAndAccept(server, bindingId, runId, callId);
    const body = `{"receipt_id":"${callId}-done","executor_id":"${holder.executor_id}","claim_id":"${holder.claim_id}","grant":"${holder.grant}","kind":"completed","result":${resultText}}`;
    return sendReceipt(server, runId, callId, body);
  }

  it("run cancel: cancels pending and claimed calls, leaves accepted ones, never changes the history", async () => {
    const { runId, bindingId, callIds } = await waitingRun();
    const [pendingId, claimedId, acceptedId] = callIds as [string, string, string];
    await claim(server, bindingId, runId, claimedId);
    const holder = await claimAndAccept(server, bindingId, runId, acceptedId);
    const before = await historyText(runId);

    const cancelled = await post(`/v1/runs/${runId}/cancel`);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toEqual({ run_id: runId, status: "cancelled" });
    expect((await read(server, `/v1/runs/${runId}`)).body).toMatchObject({ status: "cancelled" });
    const calls = await callsOf(server, runId);
    expect(calls.map((call) => [call.call_id, call.status])).toEqual([
      [pendingId, "cancelled"],
      [claimedId, "cancelled"],
      [acceptedId, "accepted"],
    ]);
    // A run cancel is not a business cancel: nothing is asked of the accepted call's executor.
    expect(calls.every((call) => call.cancel_requested_at === undefined)).toBe(true);
    expect(await historyText(runId)).toBe(before);

    expectError(await post(`/v1/runs/${runId}/cancel`, {}), 409, "run_terminated");
    const late = await sendReceipt(server, runId, acceptedId, {
      ...holder,
      receipt_id: "late",
      kind: "completed",
      result: { ok: true },
    });
    expect(late.body).toMatchObject({ applied: false, call_status: "completed", run_status: "cancelled" });
    expect(await historyText(runId)).toBe(before);
    expect((await read(server, `/v1/runs/${runId}`)).body.status).toBe("cancelled");
  });

  it("run cancel: 409 on an ended run, 404 for an unknown one, 422 for a body with members", async () => {
    const script = await publishScript(server, [{ message: "done" }]);
    const run = (await startRun(server, script.sessionId)).body;
    expectError(await post(`/v1/runs/${run.run_id}/cancel`, {}), 409, "run_terminated");
    expectError(await post("/v1/runs/run_missing/cancel", {}), 404, "not_found");
    const { runId } = await waitingRun();
    expectError(await post(`/v1/runs/${runId}/cancel`, { reason: "x" }), 422, "unknown_field", "/reason");
    expect((await read(server, `/v1/runs/${runId}`)).body.status).toBe("waiting_for_tools");
  });

  it("business cancel of a pending call: cancelled at once, the model sees it, the run goes on", async () => {
    const script = await publishScript(server, [
      { tool_calls: [{ name: "tasks.create", arguments: { title: "x" } }] },
      { message: "stopped" },
    ]);
    const run = (await startRun(server, script.sessionId)).body;
    const call = at(await callsOf(server, run.run_id), 0);
    const answer = await post(`/v1/runs/${run.run_id}/tool-calls/${call.call_id}/cancel`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ call_id: call.call_id, status: "cancelled", cancel_requested: true });
    expect((await read(server, `/v1/runs/${run.run_id}`)).body).toMatchObject({
      status: "completed",
      output: "stopped",
    });
    const history = await historyOf(server, run.run_id);
    expect(history[2]).toEqual({
      type: "tool_result",
      call_id: call.call_id,
      receipt_id: null,
      context_preview: {
        max_result_context_bytes: 2048,
        original_bytes: Buffer.byteLength(compact(CANCELLED_RESULT)),
        retained_bytes: Buffer.byteLength(compact(CANCELLED_RESULT)),
        truncated: false,
        result: CANCELLED_RESULT,
      },
    });
    const listed = at(await callsOf(server, run.run_id), 0);
    expect(listed.cancel_requested_at).toBe(listed.settled_at);
    expectError(await post(`/v1/runs/${run.run_id}/tool-calls/${call.call_id}/cancel`, {}), 409, "call_already_final");
    expectError(await post(`/v1/runs/${run.run_id}/tool-calls/call_missing/cancel`, {}), 404, "not_found");
  });

  it("business cancel of a held call: recorded, the status stays until the executor confirms", async () => {
    const { runId, bindingId, callIds } = await waitingRun();
    const [, claimedId, acceptedId] = callIds as [string, string, string];
    await claim(server, bindingId, runId, claimedId);
    const holder = await claimAndAccept(server, bindingId, runId, acceptedId);
    const before = await historyText(runId);

    for (const [id, status] of [
      [claimedId, "claimed"],
      [acceptedId, "accepted"],
    ]) {
      const first = await post(`/v1/runs/${runId}/tool-calls/${id}/cancel`, {});
      expect(first.body).toEqual({ call_id: id, status, cancel_requested: true });
      const again = await post(`/v1/runs/${runId}/tool-calls/${id}/cancel`);
      expect(again.body).toEqual(first.body);
    }
    const calls = await callsOf(server, runId);
    expect(calls.map((call) => [call.status, call.cancel_requested_at !== undefined])).toEqual([
      ["pending", false],
      ["claimed", true],
      ["accepted", true],
    ]);
    expect((await read(server, `/v1/runs/${runId}`)).body.status).toBe("waiting_for_tools");
    expect(await historyText(runId)).toBe(before);

    // The executor confirms with a `cancelled` receipt: the model now sees a cancelled result.
    const confirmed = await sendReceipt(server, runId, acceptedId, {
      ...holder,
      receipt_id: "stop-1",
      kind: "cancelled",
    });
    expect(confirmed.body).toMatchObject({ applied: true, call_status: "cancelled" });
    const history = await historyOf(server, runId);
    expect(history.at(-1)).toMatchObject({ type: "tool_result", call_id: acceptedId, receipt_id: "stop-1" });
    expect((history.at(-1) as { context_preview: { result: unknown } }).context_preview.result).toEqual(
      CANCELLED_RESULT,
    );
  });

  it("business cancel refuses a call the server refused: it is already final", async () => {
    const script = await publishScript(server, [{ tool_calls: [{ name: "nope", arguments: {} }] }, { message: "x" }]);
    const run = (await startRun(server, script.sessionId)).body;
    const call = at(await callsOf(server, run.run_id), 0);
    expectError(await post(`/v1/runs/${run.run_id}/tool-calls/${call.call_id}/cancel`, {}), 409, "call_already_final");
  });

  it("compensation: only for a completed write call; a new linked call; the original and the history unchanged", async () => {
    const { runId, bindingId, callIds } = await waitingRun();
    const [readId, writeId, pendingId] = callIds as [string, string, string];
    const compensate = (callId: string, body: unknown) =>
      post(`/v1/runs/${runId}/tool-calls/${callId}/compensate`, body);
    const undo = { tool_name: "tasks.delete", arguments: { task_id: "t1" } };

    expectError(await compensate(pendingId, undo), 409, "not_compensable");
    await complete(bindingId, runId, readId, '{"tasks":[]}');
    expectError(await compensate(readId, undo), 409, "not_compensable");
    await complete(bindingId, runId, writeId);
    expectError(
      await compensate(writeId, { tool_name: "tasks.gone", arguments: {} }),
      422,
      "unknown_reference",
      "/tool_name",
    );
    expectError(
      await compensate(writeId, { tool_name: "tasks.delete", arguments: {} }),
      422,
      "validation_failed",
      "/arguments/task_id",
    );
    expectError(await compensate(writeId, { tool_name: "tasks.delete" }), 422, "validation_failed", "/arguments");
    expectError(await compensate("call_missing", undo), 404, "not_found");

    const callsBefore = await callsOf(server, runId);
    const historyBefore = await historyText(runId);
    const created = await compensate(writeId, undo);
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      run_id: runId,
      tool_name: "tasks.delete",
      binding_id: bindingId,
      effect: "write",
      status: "pending",
      compensates: writeId,
    });
    expect(created.body.turn).toBeUndefined();
    expect(await callsOf(server, runId)).toEqual([...callsBefore, created.body]);
    expect(await historyText(runId)).toBe(historyBefore);
    expect((await read(server, `/v1/runs/${runId}`)).body.status).toBe("waiting_for_tools");
  });

  it("compensation works after the run ended and its call is claimable; it never enters the history", async () => {
    const script = await publishScript(server, [
      { tool_calls: [{ name: "tasks.create", arguments: { title: "a" } }] },
      { message: "created" },
    ]);
    const run = (await startRun(server, script.sessionId)).body;
    const call = at(await callsOf(server, run.run_id), 0);
    await complete(script.bindingId, run.run_id, call.call_id);
    expect((await read(server, `/v1/runs/${run.run_id}`)).body.status).toBe("completed");
    const historyBefore = await historyText(run.run_id);
    const created = await post(`/v1/runs/${run.run_id}/tool-calls/${call.call_id}/compensate`, {
      tool_name: "tasks.delete",
      arguments: { task_id: "t1" },
    });
    expect(created.status, created.text).toBe(201);
    const done = await complete(script.bindingId, run.run_id, created.body.call_id, '{"deleted":true}');
    expect(done.body).toMatchObject({ applied: true, call_status: "completed" });
    expect(await historyText(run.run_id)).toBe(historyBefore);
    expect((await callsOf(server, run.run_id)).map((c) => [c.call_id, c.status])).toEqual([
      [call.call_id, "completed"],
      [created.body.call_id, "completed"],
    ]);
  });

  it("stores a completed result's projection once, byte for byte the dry-run preview for the same result", async () => {
    const script = await publishScript(server, [
      { tool_calls: [{ name: "tasks.create", arguments: { title: "big" } }] },
      { message: "ok" },
    ]);
    const run = (await startRun(server, script.sessionId)).body;
    const call = at(await callsOf(server, run.run_id), 0);
    const rows = Array.from(
      { length: 200 },
      (_, i) => `{"id":${i},"n":12345678901234567890,"t":"任务 ${i} 😀","f":1.0}`,
    );
    const resultText = `{"status":"ok","data":{"next_cursor":"p2","rows":[${rows.join(",")}]}}`;
    await complete(script.bindingId, run.run_id, call.call_id, resultText);

    const expected = compact(previewJson(projectResult(parseJson(resultText), 2048)));
    expect(expected).toContain('"truncated":true');
    const history = await historyText(run.run_id);
    const prefix = `{"type":"tool_result","call_id":"${call.call_id}","receipt_id":"${call.call_id}-done","context_preview":`;
    const start = history.indexOf(prefix);
    expect(start).toBeGreaterThan(0);
    const stored = history.slice(start + prefix.length, history.indexOf('},{"type":"message"', start));
    expect(stored).toBe(expected);

    const dryRun = await post(
      "/v1/tools/dry-run",
      `{"agent_version":"${script.agentVersion}","tool_name":"tasks.create","arguments":{"title":"big"},"mock_receipts":[{"receipt_id":"m1","kind":"completed","result":${resultText}}]}`,
    );
    expect(dryRun.status, dryRun.text).toBe(200);
    const previewStart = dryRun.text.indexOf('"context_preview":') + '"context_preview":'.length;
    expect(dryRun.text.slice(previewStart, dryRun.text.indexOf(',"execution_verified"'))).toBe(stored);
    // Reading the history again answers the same bytes: the projection was stored, not recomputed.
    expect(await historyText(run.run_id)).toBe(history);
  });
});
