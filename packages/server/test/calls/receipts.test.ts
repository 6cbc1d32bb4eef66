// Receipts over HTTP, on both dialects: the full cycle, idempotency and every refusal.
import { beforeAll, expect, it } from "vitest";
import { dumpTables } from "../support/table-dump.js";
import { describeEachDialect } from "../support/test-databases.js";
import {
  admin,
  buildWorld,
  type ClockedServer,
  claimed,
  connect,
  expectError,
  expectStatus,
  getRun,
  type Held,
  historyText,
  listCalls,
  receipt,
  startClockedServer,
  startRun,
  type World,
} from "./calls-harness.js";

describeEachDialect("receipts", (dialect) => {
  let server: ClockedServer;
  let world: World;

  beforeAll(async () => {
    server = await startClockedServer(dialect);
    world = await buildWorld(server, [
      { tool_calls: [{ name: "tasks.write", arguments: { title: "first" } }] },
      { tool_calls: [{ name: "tasks.write", arguments: { title: "second" } }] },
      { message: "done" },
    ]);
  });

  /** A new run's first call, claimed by a fresh executor. */
  async function heldCall(executorId: string): Promise<Held> {
    const runId = await startRun(server, world);
    const [call] = await listCalls(server, runId);
    return claimed(server, world, runId, call.call_id, await connect(server, world, executorId));
  }

  /** A claimed call already accepted. */
  async function acceptedCall(executorId: string): Promise<Held> {
    const held = await heldCall(executorId);
    expectStatus(await receipt(server, world, held, { receipt_id: "acc", kind: "accepted" }), 200);
    return held;
  }

  it("full cycle: accepted (confirmed) → progress → completed, and the run runs its next scripted step", async () => {
    const held = await heldCall("rc-ex-1");
    const accepted = await receipt(server, world, held, { receipt_id: "r-acc", kind: "accepted" });
    expect(expectStatus(accepted, 200)).toEqual({
      receipt_id: "r-acc",
      kind: "accepted",
      replayed: false,
      confirmed: true,
      applied: true,
      call_status: "accepted",
      run_status: "waiting_for_tools",
    });
    expect(Object.keys(accepted.body)).toEqual([
      "receipt_id",
      "kind",
      "replayed",
      "confirmed",
      "applied",
      "call_status",
      "run_status",
    ]);
    const progress = await receipt(server, world, held, {
      receipt_id: "r-prog",
      kind: "progress",
      progress: { percent: 50 },
    });
    expect(expectStatus(progress, 200)).toEqual({
      receipt_id: "r-prog",
      kind: "progress",
      replayed: false,
      applied: true,
      call_status: "accepted",
      run_status: "waiting_for_tools",
    });
    const completed = await receipt(server, world, held, {
      receipt_id: "r-done",
      kind: "completed",
      result: { id: "t-1" },
    });
    expect(expectStatus(completed, 200)).toEqual({
      receipt_id: "r-done",
      kind: "completed",
      replayed: false,
      applied: true,
      call_status: "completed",
      run_status: "waiting_for_tools",
    });
    const calls = await listCalls(server, held.runId);
    expect(calls.map((call) => [call.turn, call.status])).toEqual([
      [0, "completed"],
      [1, "pending"],
    ]);
    const history = JSON.parse(await historyText(server, held.runId)).data;
    expect(history.map((item: { type: string }) => item.type)).toEqual([
      "input",
      "tool_calls",
      "tool_result",
      "tool_calls",
    ]);
    expect(history[2]).toEqual({
      type: "tool_result",
      call_id: held.callId,
      receipt_id: "r-done",
      context_preview: {
        max_result_context_bytes: 1024,
        original_bytes: 12,
        retained_bytes: 12,
        truncated: false,
        result: { id: "t-1" },
      },
    });
  });

  it("a replay of every kind answers the first answer, replayed: true, with the statuses as they are now; nothing changes", async () => {
    const a = await heldCall("rc-ex-2");
    const b = await acceptedCall("rc-ex-3");
    const c = await acceptedCall("rc-ex-4");
    const d = await acceptedCall("rc-ex-5");
    const sent: Array<[Held, Record<string, unknown>]> = [
      [a, { receipt_id: "k-acc", kind: "accepted" }],
      [a, { receipt_id: "k-prog", kind: "progress", progress: { step: 1 } }],
      [a, { receipt_id: "k-done", kind: "completed", result: { n: 9007199254740991 } }],
      [b, { receipt_id: "k-fail", kind: "failed", error: { code: "denied" } }],
      [c, { receipt_id: "k-cancel", kind: "cancelled" }],
      [d, { receipt_id: "k-unknown", kind: "reconciliation_required", error: { message: "handler threw" } }],
      [d, { receipt_id: "k-late", kind: "completed", result: { ok: true } }],
    ];
    const first = [];
    for (const [held, fields] of sent) first.push(await receipt(server, world, held, fields));
    for (const answer of first) expect(answer.status, answer.text).toBe(200);
    const before = await dumpTables(server.database.url);
    const answers = [];
    for (const [index, [held, fields]] of sent.entries()) {
      // Replayed once every call has moved on: the first answer (same members, same order, same
      // `applied`), but the call's and run's statuses as they are now.
      const again = await receipt(server, world, held, fields);
      const calls = await listCalls(server, held.runId);
      const now = {
        call_status: calls.find((call) => call.call_id === held.callId)?.status,
        run_status: (await getRun(server, held.runId)).status,
      };
      expect(Object.keys(again.body)).toEqual(Object.keys(first[index]?.body));
      // (`confirmed`, only on accepted, is live too: checked below.)
      expect({ ...again.body, confirmed: undefined }).toEqual({
        ...first[index]?.body,
        ...now,
        replayed: true,
        confirmed: undefined,
      });
      answers.push(again.body);
    }
    expect(await dumpTables(server.database.url)).toEqual(before);
    // The accepted replay no longer confirms: the call is completed now.
    expect(answers[0]).toMatchObject({ kind: "accepted", confirmed: false, replayed: true, call_status: "completed" });
    expect(answers[5]).toMatchObject({ kind: "reconciliation_required", call_status: "completed" });
    expect(answers[6]).toMatchObject({ kind: "completed", call_status: "completed", applied: true });
  });

  it("a replay is recognised by content: other whitespace and key order are the same receipt", async () => {
    const held = await heldCall("rc-ex-6");
    const first = await receipt(server, world, held, { receipt_id: "ws", kind: "accepted" });
    const text = `{ "kind" : "accepted",\n "grant": "${held.grant}", "claim_id": "${held.claimId}",\n "executor_id": "${held.executorId}", "receipt_id": "ws" }`;
    const again = await receipt(server, world, held, text);
    expect(again.body).toEqual({ ...first.body, replayed: true });
  });

  it("the same receipt_id with another body is 409 receipt_conflict and stores nothing", async () => {
    const held = await acceptedCall("rc-ex-7");
    expectStatus(await receipt(server, world, held, { receipt_id: "same", kind: "progress", progress: { p: 1 } }), 200);
    const before = await dumpTables(server.database.url);
    expectError(
      await receipt(server, world, held, { receipt_id: "same", kind: "progress", progress: { p: 2 } }),
      409,
      "receipt_conflict",
    );
    expectError(
      await receipt(server, world, held, { receipt_id: "same", kind: "completed", result: 1 }),
      409,
      "receipt_conflict",
    );
    expect(await dumpTables(server.database.url)).toEqual(before);
  });

  it("progress or an outcome before accepted is 409 accept_required", async () => {
    const held = await heldCall("rc-ex-8");
    const before = await dumpTables(server.database.url);
    expectError(await receipt(server, world, held, { receipt_id: "p", kind: "progress" }), 409, "accept_required");
    expectError(
      await receipt(server, world, held, { receipt_id: "c", kind: "completed", result: {} }),
      409,
      "accept_required",
    );
    expectError(
      await receipt(server, world, held, { receipt_id: "f", kind: "failed", error: {} }),
      409,
      "accept_required",
    );
    expectError(
      await receipt(server, world, held, { receipt_id: "u", kind: "reconciliation_required" }),
      409,
      "accept_required",
    );
    expect(await dumpTables(server.database.url)).toEqual(before);
    expect((await listCalls(server, held.runId))[0].status).toBe("claimed");
  });

  it("a second, different final receipt is 409 call_already_final", async () => {
    const held = await acceptedCall("rc-ex-9");
    expectStatus(await receipt(server, world, held, { receipt_id: "done", kind: "completed", result: { v: 1 } }), 200);
    const history = await historyText(server, held.runId);
    for (const fields of [
      { receipt_id: "done-2", kind: "completed", result: { v: 2 } },
      { receipt_id: "fail", kind: "failed", error: { code: "x" } },
      { receipt_id: "cancel", kind: "cancelled" },
      { receipt_id: "unknown", kind: "reconciliation_required" },
      { receipt_id: "prog", kind: "progress" },
    ]) {
      expectError(await receipt(server, world, held, fields), 409, "call_already_final");
    }
    const late = await receipt(server, world, held, { receipt_id: "acc-2", kind: "accepted" });
    expect(expectStatus(late, 200)).toMatchObject({ confirmed: false, applied: false, call_status: "completed" });
    expect(await historyText(server, held.runId)).toBe(history);
  });

  it("a wrong grant, another call's grant or another executor's ID is 403 invalid_grant", async () => {
    const held = await heldCall("rc-ex-10");
    const other = await heldCall("rc-ex-11");
    const before = await dumpTables(server.database.url);
    const tries = [
      { grant: "A".repeat(43) },
      { grant: other.grant },
      { grant: other.grant, claim_id: other.claimId },
      { executor_id: other.executorId },
      { claim_id: other.claimId },
    ];
    for (const patch of tries) {
      expectError(
        await receipt(server, world, held, { receipt_id: "x", kind: "accepted", ...patch }),
        403,
        "invalid_grant",
      );
    }
    expect(await dumpTables(server.database.url)).toEqual(before);
  });

  it("reconciliation_required enters history as the unknown outcome; the reconciled result is appended after it", async () => {
    const held = await acceptedCall("rc-ex-12");
    const unknown = await receipt(server, world, held, {
      receipt_id: "u",
      kind: "reconciliation_required",
      error: { m: "x" },
    });
    expect(expectStatus(unknown, 200)).toMatchObject({
      applied: true,
      call_status: "reconciliation_required",
      run_status: "waiting_for_tools",
    });
    const afterUnknown = JSON.parse(await historyText(server, held.runId)).data;
    const unknownItem = JSON.stringify(afterUnknown[2]);
    expect(afterUnknown[2]).toMatchObject({ type: "tool_result", call_id: held.callId, receipt_id: "u" });
    expect(afterUnknown[2].context_preview.result.status).toBe("reconciliation_required");
    expectStatus(await receipt(server, world, held, { receipt_id: "p", kind: "progress" }), 200);
    const done = await receipt(server, world, held, { receipt_id: "d", kind: "completed", result: { id: 7 } });
    expect(expectStatus(done, 200)).toMatchObject({ applied: true, call_status: "completed" });
    const items = JSON.parse(await historyText(server, held.runId)).data;
    expect(JSON.stringify(items[2])).toBe(unknownItem);
    const results = items.filter((item: { type: string }) => item.type === "tool_result");
    expect(results.map((item: { receipt_id: string }) => item.receipt_id)).toEqual(["u", "d"]);
    expect(results[1].context_preview.result).toEqual({ id: 7 });
  });

  it("failed and cancelled outcomes settle the call and move the run on", async () => {
    const failed = await acceptedCall("rc-ex-13");
    const answer = await receipt(server, world, failed, {
      receipt_id: "f",
      kind: "failed",
      error: { code: "out_of_stock" },
    });
    expect(expectStatus(answer, 200)).toMatchObject({
      call_status: "failed",
      applied: true,
      run_status: "waiting_for_tools",
    });
    expect((await listCalls(server, failed.runId)).map((call) => call.status)).toEqual(["failed", "pending"]);
  });

  it("business cancel: a cancel request on an accepted call is confirmed by a cancelled receipt", async () => {
    const held = await acceptedCall("rc-ex-14");
    const cancel = await server.call("POST", `/v1/runs/${held.runId}/tool-calls/${held.callId}/cancel`, {
      ...admin,
      body: {},
    });
    expectStatus(cancel, 200);
    expect((await listCalls(server, held.runId))[0]).toMatchObject({ status: "accepted" });
    const confirmed = await receipt(server, world, held, { receipt_id: "c", kind: "cancelled" });
    expect(expectStatus(confirmed, 200)).toMatchObject({
      call_status: "cancelled",
      applied: true,
      run_status: "waiting_for_tools",
    });
    expect((await getRun(server, held.runId)).status).toBe("waiting_for_tools");
  });

  it("checks the receipt's shape: kind rules, multimodal results, strict members (422, nothing stored)", async () => {
    const held = await acceptedCall("rc-ex-15");
    const before = await dumpTables(server.database.url);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ receipt_id: "v", kind: "completed" }, "validation_failed", "/result"],
      [{ receipt_id: "v", kind: "failed" }, "validation_failed", "/error"],
      [{ receipt_id: "v", kind: "accepted", result: 1 }, "validation_failed", "/result"],
      [{ receipt_id: "v", kind: "progress", error: {} }, "validation_failed", "/error"],
      [{ receipt_id: "v", kind: "completed", result: 1, result_type: "xml" }, "validation_failed", "/result_type"],
      [{ receipt_id: "v", kind: "finished" }, "validation_failed", "/kind"],
      [{ receipt_id: "", kind: "accepted" }, "validation_failed", "/receipt_id"],
      [{ receipt_id: "x".repeat(129), kind: "accepted" }, "validation_failed", "/receipt_id"],
      [{ receipt_id: "v", kind: "accepted", colour: "red" }, "unknown_field", "/colour"],
      [{ receipt_id: "v", kind: "completed", result: {}, max_result_bytes: 10 }, "field_removed", "/max_result_bytes"],
      [
        { receipt_id: "v", kind: "completed", result: { content: [{ type: "video" }] }, result_type: "multimodal" },
        "invalid_result",
        "/result/content/0/type",
      ],
      [{ receipt_id: "v", kind: "completed", result: [1], result_type: "multimodal" }, "invalid_result", "/result"],
    ];
    for (const [fields, code, pointer] of cases) {
      const answer = await receipt(server, world, held, fields);
      expect(
        { status: answer.status, code: answer.body.error.code, pointer: answer.body.error.pointer },
        answer.text,
      ).toEqual({
        status: 422,
        code,
        pointer,
      });
    }
    const loneSurrogate = `{"receipt_id":"v","executor_id":"${held.executorId}","claim_id":"${held.claimId}","grant":"${held.grant}","kind":"completed","result":"\\ud800"}`;
    expectError(await receipt(server, world, held, loneSurrogate), 422, "lone_surrogate");
    const tooBig = loneSurrogate.replace('"\\ud800"', "1e400");
    expectError(await receipt(server, world, held, tooBig), 422, "number_out_of_range");
    expect(await dumpTables(server.database.url)).toEqual(before);
  });
});
