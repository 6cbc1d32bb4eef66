// POST /v1/executors/{id}/calls/report: per reported call, what the server has and what to do.
import { beforeAll, expect, it } from "vitest";
import { callRecord, receiptRecord, runRecord } from "../support/call-fixtures.js";
import { describeEachDialect } from "../support/test-databases.js";
import { addCalls, connect, type ExecutorServer, executorPath, startExecutorServer } from "./executor-harness.js";

describeEachDialect("executor calls/report", (dialect) => {
  let server: ExecutorServer;
  let connectionId: string;
  const report = (calls: unknown[], connection = connectionId) =>
    server.call("POST", executorPath("e1", "calls/report"), {
      key: server.key,
      body: { connection_id: connection, calls },
    });

  beforeAll(async () => {
    server = await startExecutorServer(dialect);
    connectionId = (await connect(server, "e1", ["b1"])).connection_id;
    const storage = server.server.storage;
    await storage.runs.insert(runRecord("r-ended", { status: "cancelled", ended_at_ms: 9_000 }));
    const mine = { executor_id: "e1", claim_id: "k1", accept_deadline_ms: 90_000 };
    await addCalls(server, [
      ["c-accepted", { ...mine, status: "accepted", accepted_at_ms: 9_000 }],
      ["c-unknown", { ...mine, status: "reconciliation_required", accepted_at_ms: 9_000, settled_at_ms: 9_500 }],
      ["c-done", { ...mine, status: "completed", accepted_at_ms: 9_000, settled_at_ms: 9_500 }],
      ["c-claimed", { ...mine, status: "claimed" }],
      ["c-b2", { ...mine, status: "accepted", binding_id: "b2", accepted_at_ms: 9_000 }],
    ]);
    await storage.calls.insertMany([
      callRecord("r-ended", "c-ended", { ...mine, status: "cancelled", settled_at_ms: 9_000 }),
    ]);
    await storage.receipts.insertNext(receiptRecord("c-accepted", "rc-a1", 1, { claim_id: "k1", kind: "accepted" }));
    await storage.receipts.insertNext(receiptRecord("c-unknown", "rc-u1", 1, { claim_id: "k1", kind: "accepted" }));
    await storage.receipts.insertNext(
      receiptRecord("c-unknown", "rc-u2", 2, { claim_id: "k1", kind: "reconciliation_required" }),
    );
    await storage.receipts.insertNext(receiptRecord("c-done", "rc-d1", 1, { claim_id: "k1", kind: "accepted" }));
    await storage.receipts.insertNext(receiptRecord("c-done", "rc-d2", 2, { claim_id: "k1", kind: "completed" }));
  });

  it("answers per call, in request order: status, run status, receipts held, action and reason", async () => {
    const answer = await report([
      { call_id: "c-accepted", claim_id: "k1", state: "pending_delivery", receipt_ids: ["rc-a1", "rc-a2"] },
      { call_id: "c-unknown", state: "pending_reconciliation", receipt_ids: ["rc-u1", "rc-u2"] },
      { call_id: "c-done", state: "pending_delivery", receipt_ids: ["rc-d2"] },
      { call_id: "c-ended", state: "pending_delivery" },
      { call_id: "c-nope", state: "pending_delivery" },
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      executor_id: "e1",
      calls: [
        {
          call_id: "c-accepted",
          run_id: "r1",
          status: "accepted",
          run_status: "waiting_for_tools",
          receipt_ids: ["rc-a1"],
          action: "redeliver",
          reason: "missing_receipts",
        },
        {
          call_id: "c-unknown",
          run_id: "r1",
          status: "reconciliation_required",
          run_status: "waiting_for_tools",
          receipt_ids: ["rc-u1", "rc-u2"],
          action: "reconcile",
          reason: "reconciliation_open",
        },
        {
          call_id: "c-done",
          run_id: "r1",
          status: "completed",
          run_status: "waiting_for_tools",
          receipt_ids: ["rc-d1", "rc-d2"],
          action: "nothing",
          reason: "settled",
        },
        {
          call_id: "c-ended",
          run_id: "r-ended",
          status: "cancelled",
          run_status: "cancelled",
          receipt_ids: [],
          action: "run_terminated",
          reason: "run_ended",
        },
        {
          call_id: "c-nope",
          run_id: null,
          status: null,
          run_status: null,
          receipt_ids: [],
          action: "nothing",
          reason: "unknown_call",
        },
      ],
    });
  });

  it("a call outside the connection's bindings answers like an unknown one", async () => {
    const answer = await report([{ call_id: "c-b2", state: "pending_delivery" }]);
    expect(answer.body.calls[0]).toMatchObject({
      status: null,
      run_id: null,
      action: "nothing",
      reason: "unknown_call",
    });
  });

  it("an unconfirmed claim whose accepted receipt never arrived: redeliver", async () => {
    const answer = await report([
      { call_id: "c-claimed", claim_id: "k1", state: "pending_delivery", receipt_ids: ["rc-c1"] },
    ]);
    expect(answer.body.calls[0]).toMatchObject({ status: "claimed", action: "redeliver", reason: "missing_receipts" });
  });

  it("changes nothing", async () => {
    const before = await server.server.storage.calls.get("r1", "c-accepted");
    await report([{ call_id: "c-accepted", state: "pending_reconciliation" }]);
    expect(await server.server.storage.calls.get("r1", "c-accepted")).toEqual(before);
  });

  it("validates the body: 1–200 calls, known states, unique receipt IDs", async () => {
    const bad: unknown[][] = [
      [],
      [{ call_id: "c1", state: "lost" }],
      [{ call_id: "c1", state: "pending_delivery", receipt_ids: ["a", "a"] }],
      [{ call_id: "c1", state: "pending_delivery", extra: 1 }],
      Array.from({ length: 201 }, (_, i) => ({ call_id: `c${i}`, state: "pending_delivery" })),
    ];
    for (const calls of bad) {
      const answer = await report(calls);
      expect(answer.status).toBe(422);
    }
  });
});
