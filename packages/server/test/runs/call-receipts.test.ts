// GET /v1/runs/{run_id}/tool-calls/{call_id}/receipts: a call's stored receipts in arrival order
// (kind, executor, claim, applied, size), no bodies; the call list shows when it was claimed and
// accepted; a late receipt (after the run ended) is listed with applied false; scope and unknown IDs 404.
import { beforeAll, expect, it } from "vitest";
import { createAgent, expectError, ISO_TIME } from "../config/config-fixtures.js";
import { createKey, startTestServer, type TestServer } from "../http/http-harness.js";
import { describeEachDialect } from "../support/test-databases.js";
import { admin, at, callsOf, claimAndAccept, publishScript, read, sendReceipt, startRun } from "./run-fixtures.js";

describeEachDialect("GET …/tool-calls/{call_id}/receipts", (dialect) => {
  let server: TestServer;
  let runId: string;
  let callId: string;
  let executorId: string;
  let claimId: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const script = await publishScript(server, [
      { tool_calls: [{ name: "tasks.create", arguments: { title: "a" } }] },
      { message: "done" },
    ]);
    runId = (await startRun(server, script.sessionId)).body.run_id;
    callId = at(await callsOf(server, runId), 0).call_id;
    const holder = await claimAndAccept(server, script.bindingId, runId, callId);
    executorId = holder.executor_id;
    claimId = holder.claim_id;
    await sendReceipt(server, runId, callId, { ...holder, receipt_id: "p1", kind: "progress", progress: { done: 1 } });
    await sendReceipt(server, runId, callId, { ...holder, receipt_id: "done", kind: "completed", result: { id: 7 } });
  });

  it("lists the receipts in arrival order, without bodies", async () => {
    const answer = await read(server, `/v1/runs/${runId}/tool-calls/${callId}/receipts`);
    expect(answer.body.call_id).toBe(callId);
    expect(
      answer.body.receipts.map((r: { receipt_id: string; kind: string; seq: number }) => [r.seq, r.receipt_id, r.kind]),
    ).toEqual([
      [1, `${callId}-accepted`, "accepted"],
      [2, "p1", "progress"],
      [3, "done", "completed"],
    ]);
    for (const receipt of answer.body.receipts) {
      expect(receipt).toMatchObject({ executor_id: executorId, claim_id: claimId, applied: true });
      expect(receipt.created_at).toMatch(ISO_TIME);
      expect(receipt.body_bytes).toBeGreaterThan(0);
      expect(receipt).not.toHaveProperty("result");
    }
  });

  it("shows when the call was claimed and accepted", async () => {
    const call = at(await callsOf(server, runId), 0);
    expect(call.claimed_at).toMatch(ISO_TIME);
    expect(call.accepted_at).toMatch(ISO_TIME);
    expect(Date.parse(call.accepted_at as string)).toBeGreaterThanOrEqual(Date.parse(call.claimed_at as string));
  });

  it("lists a receipt that arrived after the run ended as not applied", async () => {
    const script = await publishScript(server, [{ tool_calls: [{ name: "tasks.create", arguments: { title: "b" } }] }]);
    const run = (await startRun(server, script.sessionId)).body.run_id;
    const call = at(await callsOf(server, run), 0).call_id;
    const holder = await claimAndAccept(server, script.bindingId, run, call);
    expect((await server.call("POST", `/v1/runs/${run}/cancel`, { ...admin, body: {} })).status).toBe(200);
    await sendReceipt(server, run, call, { ...holder, receipt_id: "late", kind: "completed", result: {} });
    const answer = await read(server, `/v1/runs/${run}/tool-calls/${call}/receipts`);
    expect(
      answer.body.receipts.map((r: { receipt_id: string; applied: boolean }) => [r.receipt_id, r.applied]),
    ).toEqual([
      [`${call}-accepted`, true],
      ["late", false],
    ]);
  });

  it("answers an empty list for a call without receipts", async () => {
    const script = await publishScript(server, [{ tool_calls: [{ name: "tasks.read", arguments: {} }] }]);
    const run = (await startRun(server, script.sessionId)).body.run_id;
    const call = at(await callsOf(server, run), 0).call_id;
    expect((await read(server, `/v1/runs/${run}/tool-calls/${call}/receipts`)).body).toEqual({
      call_id: call,
      receipts: [],
    });
  });

  it("is 404 outside the agent scope, for an unknown call or a call of another run, 403 without runtime:read", async () => {
    const foreign = await createKey(server, {
      name: "foreign",
      scopes: ["runtime:read"],
      agents: [await createAgent(server)],
    });
    const path = `/v1/runs/${runId}/tool-calls/${callId}/receipts`;
    expectError(await server.call("GET", path, { key: foreign.key }), 404, "not_found");
    expectError(await server.call("GET", `/v1/runs/${runId}/tool-calls/call_nope/receipts`, admin), 404, "not_found");
    const other = (await read(server, "/v1/runs?limit=1")).body.data[0].run_id as string;
    expect(other).not.toBe(runId);
    expectError(await server.call("GET", `/v1/runs/${other}/tool-calls/${callId}/receipts`, admin), 404, "not_found");
    const writer = await createKey(server, { name: "writer", scopes: ["runtime:write"] });
    expectError(await server.call("GET", path, { key: writer.key }), 403, "forbidden");
  });
});
