// The receipt batcher on its own, against a scripted client: receipts handed over in one turn of the
// event loop leave in one batch request (at most receipts_max each), each sender gets its item's
// answer as the per-call route's outcome (an answer, or a refusal with its code), a batch refused
// whole as unreadable (422) is sent receipt by receipt, and without the server's offer every receipt
// goes through the per-call route.
import { describe, expect, it } from "vitest";
import { ANSWER_READERS, answerOutcome } from "../src/http/answer-reader.js";
import type { HttpOutcome } from "../src/http/http-outcome.js";
import { refusalOf } from "../src/http/http-outcome.js";
import type { BatchedReceiptText, ServerClient } from "../src/http/server-client.js";
import type { Connection } from "../src/runtime/connection.js";
import { ReceiptBatcher } from "../src/runtime/receipt-batcher.js";
import { StatsCounters } from "../src/stats.js";

function answerBody(receiptId: string) {
  return {
    receipt_id: receiptId,
    kind: "accepted",
    replayed: false,
    confirmed: true,
    applied: true,
    call_status: "accepted",
    run_status: "waiting_for_tools",
  };
}

/** A client whose batch route answers per item with `itemStatus(callId)`; it records every request. */
function scriptedClient(batchWhole?: HttpOutcome) {
  const requests: Array<{ route: "batch" | "single"; calls: string[] }> = [];
  const single = (callId: string): HttpOutcome => {
    const text = JSON.stringify(answerBody(`r-${callId}`));
    return answerOutcome(ANSWER_READERS.receipt, 200, text, "application/json");
  };
  const client = {
    receipt: async (_runId: string, callId: string) => {
      requests.push({ route: "single", calls: [callId] });
      return single(callId);
    },
    receiptBatch: async (_executorId: string, receipts: readonly BatchedReceiptText[]) => {
      requests.push({ route: "batch", calls: receipts.map((r) => r.callId) });
      if (batchWhole !== undefined) return batchWhole;
      const data = receipts.map((r) =>
        r.callId === "bad"
          ? {
              run_id: r.runId,
              call_id: r.callId,
              status: 409,
              body: { error: { code: "accept_required", message: "m" } },
            }
          : { run_id: r.runId, call_id: r.callId, status: 200, body: answerBody(`r-${r.callId}`) },
      );
      return answerOutcome(ANSWER_READERS.receiptBatch, 200, JSON.stringify({ data }), "application/json");
    },
  };
  return { client: client as unknown as ServerClient, requests };
}

function connectionWith(batch: Connection["batch"]) {
  const current: Connection = { connectionId: "conn-1", epoch: 1, heartbeatIntervalMs: 100, leaseTtlMs: 1000, batch };
  return { current };
}

describe("ReceiptBatcher", () => {
  it("sends the receipts of one turn in one batch and answers each sender with its own item", async () => {
    const { client, requests } = scriptedClient();
    const stats = new StatsCounters();
    const batcher = new ReceiptBatcher(client, "ex-1", connectionWith({ claimMax: 32, receiptsMax: 100 }), stats);
    const outcomes = await Promise.all(["c1", "bad", "c3"].map((callId) => batcher.send("run-1", callId, "{}")));
    expect(requests).toEqual([{ route: "batch", calls: ["c1", "bad", "c3"] }]);
    expect(outcomes[0]).toMatchObject({ type: "answer", status: 200, body: { receipt_id: "r-c1", confirmed: true } });
    expect(outcomes[1]).toMatchObject({ type: "refused", status: 409, code: "accept_required" });
    expect(outcomes[2]).toMatchObject({ type: "answer", body: { receipt_id: "r-c3" } });
    expect(stats.snapshot().receipt_batches).toBe(1);
  });

  it("splits a turn's receipts into batches of at most receipts_max", async () => {
    const { client, requests } = scriptedClient();
    const batcher = new ReceiptBatcher(
      client,
      "ex-1",
      connectionWith({ claimMax: 32, receiptsMax: 2 }),
      new StatsCounters(),
    );
    await Promise.all(["c1", "c2", "c3", "c4", "c5"].map((callId) => batcher.send("run-1", callId, "{}")));
    expect(requests.map((r) => r.calls)).toEqual([["c1", "c2"], ["c3", "c4"], ["c5"]]);
  });

  it("sends a batch refused whole as unreadable (422) receipt by receipt; another refusal answers every sender", async () => {
    const unreadable = scriptedClient(refusalOf(422, '{"error":{"code":"validation_failed","message":"m"}}'));
    const batcher = new ReceiptBatcher(
      unreadable.client,
      "ex-1",
      connectionWith({ claimMax: 32, receiptsMax: 100 }),
      new StatsCounters(),
    );
    const outcomes = await Promise.all(["c1", "c2"].map((callId) => batcher.send("run-1", callId, "{}")));
    expect(unreadable.requests.map((r) => r.route)).toEqual(["batch", "single", "single"]);
    expect(outcomes.map((o) => o.type)).toEqual(["answer", "answer"]);

    const foreign = scriptedClient(refusalOf(403, '{"error":{"code":"executor_key_mismatch","message":"m"}}'));
    const refused = new ReceiptBatcher(
      foreign.client,
      "ex-1",
      connectionWith({ claimMax: 32, receiptsMax: 100 }),
      new StatsCounters(),
    );
    const answers = await Promise.all(["c1", "c2"].map((callId) => refused.send("run-1", callId, "{}")));
    expect(foreign.requests.map((r) => r.route)).toEqual(["batch"]);
    expect(answers).toMatchObject([
      { type: "refused", code: "executor_key_mismatch" },
      { type: "refused", code: "executor_key_mismatch" },
    ]);
  });

  it("without the server's offer every receipt goes through the per-call route", async () => {
    const { client, requests } = scriptedClient();
    const batcher = new ReceiptBatcher(client, "ex-1", connectionWith(null), new StatsCounters());
    await Promise.all(["c1", "c2"].map((callId) => batcher.send("run-1", callId, "{}")));
    expect(requests.map((r) => r.route)).toEqual(["single", "single"]);
  });
});
