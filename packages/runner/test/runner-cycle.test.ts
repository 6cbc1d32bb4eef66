// ToolRunner against a real server: the full cycle in the protocol's order, progress, business
// failures, confirmed cancellations, unknown outcomes reconciled, and confirmed: false.
import { beforeAll, describe, expect, it } from "vitest";
import { BusinessError, CancelledError, type RunnerEventName } from "../src/index.js";
import {
  api,
  buildWorld,
  callsOf,
  eventually,
  newRunner,
  settledRun,
  startRun,
  startTestServer,
  storedReceipts,
  type TestServer,
} from "./support/server-world.js";

const ONE_CREATE = [{ tool_calls: [{ name: "tasks.create", arguments: { title: "Buy milk" } }] }, { message: "done" }];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});

describe("the full cycle", () => {
  it("claims, journals, accepts, runs once after confirmation, journals and delivers the result", async () => {
    const world = await buildWorld(server, ONE_CREATE);
    const runner = newRunner(world);
    const order: string[] = [];
    const seen: RunnerEventName[] = [
      "claimed",
      "assignment_journaled",
      "accept_sent",
      "confirmed",
      "effect_done",
      "result_journaled",
      "receipt_sent",
      "receipt_acked",
      "call_done",
    ];
    for (const event of seen)
      runner.on(event, (payload) => order.push(`${event}${"kind" in payload ? `:${payload.kind}` : ""}`));
    const calls: Array<{ args: unknown; operationKey: string; subject: string }> = [];
    runner.register(
      "tasks.create",
      async (call, ctx) => {
        order.push("handler");
        calls.push({ args: call.arguments, operationKey: ctx.operationKey, subject: call.subject });
        return { task_id: "task-1", title: (call.arguments as { title: string }).title };
      },
      { effect: "write", authorize: (call) => call.subject === "user-42" },
    );
    await runner.start();
    const runId = await startRun(world);
    const run = await settledRun(world, runId);
    expect(run).toMatchObject({ status: "completed", output: "done" });
    const [call] = await callsOf(world, runId);
    expect(call).toMatchObject({ status: "completed", executor_id: "exec-1" });
    expect(calls).toEqual([
      { args: { title: "Buy milk" }, operationKey: `${runId}:${call.call_id}`, subject: "user-42" },
    ]);
    await eventually(() => order.includes("call_done"), Boolean, "the call is done in the journal");
    expect(order).toEqual([
      "claimed",
      "assignment_journaled",
      "accept_sent",
      "receipt_sent:accepted",
      "receipt_acked:accepted",
      "confirmed",
      "handler",
      "effect_done",
      "result_journaled:completed",
      "receipt_sent:completed",
      "receipt_acked:completed",
      "call_done",
    ]);
    const stored = await storedReceipts(world, call.call_id);
    expect(stored.map((receipt) => receipt.kind)).toEqual(["accepted", "completed"]);
    expect(stored[1]?.body_text).toContain('"result":{"task_id":"task-1","title":"Buy milk"}');
    const history = await api(server, "GET", `/v1/runs/${runId}/history`);
    expect(history.text).toContain('"context_preview"');
    expect(history.text).toContain("task-1");
    const stats = runner.stats();
    expect(stats.counters).toMatchObject({
      claims_won: 1,
      accepts_confirmed: 1,
      handlers_started: 1,
      handlers_completed: 1,
      receipts_journaled: 2,
      receipts_acked: 2,
    });
    expect(stats.journal).toMatchObject({ done: 1, outboxPending: 0 });
    await runner.stop();
  });

  it("never logs a grant or the API key, even at debug level", async () => {
    const world = await buildWorld(server, ONE_CREATE);
    const lines: string[] = [];
    const capture = (level: string) => (message: string, fields?: Record<string, unknown>) =>
      lines.push(JSON.stringify({ level, message, ...fields }));
    const logger = { error: capture("error"), warn: capture("warn"), info: capture("info"), debug: capture("debug") };
    const runner = newRunner(world, { logger });
    runner.register(
      "tasks.create",
      (_call, ctx) => {
        ctx.log("creating", { grant: "pretend-secret", note: "fields named like secrets are redacted" });
        throw new Error("unknown outcome, logged with its error");
      },
      { effect: "write" },
    );
    await runner.start();
    const runId = await startRun(world);
    await eventually(
      () => callsOf(world, runId),
      (calls) => calls[0].status === "reconciliation_required",
      "unknown",
    );
    await runner.stop();
    const [call] = await callsOf(world, runId);
    const grant = JSON.parse((await storedReceipts(world, call.call_id))[0]?.body_text ?? "{}").grant as string;
    const text = lines.join("\n");
    expect(lines.length).toBeGreaterThan(3);
    expect(grant.length).toBeGreaterThan(20);
    expect(text).not.toContain(grant);
    expect(text).not.toContain(world.executorKey);
    expect(text).not.toContain("pretend-secret");
    expect(text).toContain("a handler threw");
  });

  it("journals progress before sending it, in order before the final receipt", async () => {
    const world = await buildWorld(server, ONE_CREATE);
    const runner = newRunner(world);
    runner.register(
      "tasks.create",
      async (_call, ctx) => {
        await ctx.progress({ step: 1, of: 2 });
        await ctx.progress({ step: 2, of: 2 });
        return { ok: true };
      },
      { effect: "write" },
    );
    await runner.start();
    const runId = await startRun(world);
    await settledRun(world, runId);
    const [call] = await callsOf(world, runId);
    const stored = await storedReceipts(world, call.call_id);
    expect(stored.map((receipt) => receipt.kind)).toEqual(["accepted", "progress", "progress", "completed"]);
    expect(stored[1]?.body_text).toContain('"progress":{"step":1,"of":2}');
    await runner.stop();
  });

  it("goes on after the server refuses a progress receipt for its limits: the final receipt still settles the call", async () => {
    const limited = await startTestServer({ maxProgressPerCall: 2, maxProgressBytes: 64 });
    const world = await buildWorld(limited, ONE_CREATE);
    const runner = newRunner(world);
    const rejected: string[] = [];
    runner.on("receipt_rejected", (payload) => rejected.push(`${payload.kind}:${payload.code}`));
    runner.register(
      "tasks.create",
      async (_call, ctx) => {
        await ctx.progress({ step: 1 });
        await ctx.progress({ step: 2 });
        await ctx.progress({ step: 3 });
        await ctx.progress({ log: "x".repeat(100) });
        return { ok: true };
      },
      { effect: "write" },
    );
    await runner.start();
    const runId = await startRun(world);
    expect(await settledRun(world, runId)).toMatchObject({ status: "completed", output: "done" });
    const [call] = await callsOf(world, runId);
    expect(call.status).toBe("completed");
    const stored = await storedReceipts(world, call.call_id);
    expect(stored.map((receipt) => receipt.kind)).toEqual(["accepted", "progress", "progress", "completed"]);
    expect(rejected).toEqual(["progress:progress_limit_exceeded", "progress:progress_too_large"]);
    await runner.stop();
  });

  it("reports a BusinessError as failed with its code, and a refused authorization as failed without running", async () => {
    const world = await buildWorld(server, [
      {
        tool_calls: [
          { name: "tasks.create", arguments: { title: "over quota" } },
          { name: "tasks.slow", arguments: {} },
        ],
      },
      { message: "done" },
    ]);
    const runner = newRunner(world);
    let slowRuns = 0;
    runner.register(
      "tasks.create",
      () => {
        throw new BusinessError("quota_exceeded", "the workspace is over its task quota", { limit: 100 });
      },
      { effect: "write" },
    );
    runner.register(
      "tasks.slow",
      () => {
        slowRuns++;
        return {};
      },
      { effect: "write", authorize: async () => false },
    );
    await runner.start();
    const runId = await startRun(world);
    await settledRun(world, runId);
    const calls = await callsOf(world, runId);
    expect(calls.map((call) => [call.tool_name, call.status])).toEqual([
      ["tasks.create", "failed"],
      ["tasks.slow", "failed"],
    ]);
    const failed = await storedReceipts(world, calls[0].call_id);
    expect(failed.at(-1)?.body_text).toContain(
      '"error":{"code":"quota_exceeded","message":"the workspace is over its task quota","details":{"limit":100}}',
    );
    const refused = await storedReceipts(world, calls[1].call_id);
    expect(refused.at(-1)?.body_text).toContain('"code":"not_authorized"');
    expect(slowRuns).toBe(0);
    expect(runner.stats().counters).toMatchObject({ handlers_failed: 1, authorizations_denied: 1 });
    await runner.stop();
  });

  it("sends an ordinary exception to reconciliation_required, then the resolver's terminal receipt", async () => {
    const world = await buildWorld(server, ONE_CREATE);
    const runner = newRunner(world);
    const ledger = new Map<string, string>();
    let runs = 0;
    runner.register(
      "tasks.create",
      (_call, ctx) => {
        runs++;
        ledger.set(ctx.operationKey, "task-9");
        throw new Error("connection reset after the insert");
      },
      { effect: "write" },
    );
    const asked: string[] = [];
    runner.onReconcile("tasks.create", (_call, operationKey) => {
      asked.push(operationKey);
      const taskId = ledger.get(operationKey);
      return taskId === undefined
        ? { kind: "failed", error: { code: "not_applied", message: "no task" } }
        : { kind: "completed", result: { task_id: taskId, reconciled: true } };
    });
    await runner.start();
    const runId = await startRun(world);
    const [first] = await callsOf(world, runId);
    await eventually(
      () => callsOf(world, runId),
      (calls) => calls[0].status === "completed",
      "the call is reconciled",
    );
    const stored = await storedReceipts(world, first.call_id);
    expect(stored.map((receipt) => receipt.kind)).toEqual(["accepted", "reconciliation_required", "completed"]);
    expect(stored[1]?.body_text).toContain('"code":"handler_exception"');
    expect(stored[2]?.body_text).toContain('"result":{"task_id":"task-9","reconciled":true}');
    expect(runs).toBe(1);
    expect(asked).toEqual([`${runId}:${first.call_id}`]);
    expect(runner.stats().counters).toMatchObject({ handlers_unknown: 1, reconciliations_resolved: 1 });
    await runner.stop();
  });

  it("aborts ctx.signal on a business cancel; a CancelledError confirms it as cancelled", async () => {
    const world = await buildWorld(server, [
      { tool_calls: [{ name: "tasks.slow", arguments: {} }] },
      { message: "done" },
    ]);
    const runner = newRunner(world);
    const requested: string[] = [];
    runner.on("cancel_requested", ({ callId }) => requested.push(callId));
    runner.register(
      "tasks.slow",
      (_call, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener("abort", () => reject(new CancelledError("stopped the export")));
        }),
      { effect: "write" },
    );
    const confirmed = new Promise<string>((resolve) => runner.on("confirmed", ({ callId }) => resolve(callId)));
    await runner.start();
    const runId = await startRun(world);
    const callId = await confirmed;
    expectCancelRequested(await api(server, "POST", `/v1/runs/${runId}/tool-calls/${callId}/cancel`, {}));
    const run = await settledRun(world, runId);
    expect(run.status).toBe("completed");
    const [call] = await callsOf(world, runId);
    expect(call.status).toBe("cancelled");
    const stored = await storedReceipts(world, callId);
    expect(stored.at(-1)?.body_text).toContain(
      '"kind":"cancelled","error":{"code":"cancelled","message":"stopped the export"}',
    );
    expect(requested).toEqual([callId]);
    await runner.stop();
  });

  it("never runs a handler whose accepted receipt is answered confirmed: false", async () => {
    const world = await buildWorld(server, ONE_CREATE);
    let runs = 0;
    // The run is cancelled between the claim and the accepted receipt.
    const fetchCancellingFirst: typeof fetch = async (input, init) => {
      const url = String(input);
      if (url.endsWith("/receipts") && String(init?.body).includes('"kind":"accepted"')) {
        // The per-call route names the run in its path, the batched route in its item.
        const runId = (/\/runs\/([^/]+)\//.exec(url) ?? /"run_id":"([^"]+)"/.exec(String(init?.body)))?.[1];
        await api(server, "POST", `/v1/runs/${runId}/cancel`, {});
      }
      return fetch(input, init);
    };
    const runner = newRunner(world, { fetch: fetchCancellingFirst });
    const abandoned: string[] = [];
    runner.on("abandoned", ({ reason }) => abandoned.push(reason));
    runner.register(
      "tasks.create",
      () => {
        runs++;
        return {};
      },
      { effect: "write" },
    );
    await runner.start();
    const runId = await startRun(world);
    await eventually(
      () => abandoned,
      (list) => list.length === 1,
      "the call is abandoned",
    );
    expect(abandoned).toEqual(["not_confirmed"]);
    expect(runs).toBe(0);
    const [call] = await callsOf(world, runId);
    expect(call.status).toBe("cancelled");
    const stored = await storedReceipts(world, call.call_id);
    // An unconfirmed accepted is stored not applied (its first answer, the usual members, is not stored: 0019).
    expect(stored.map((receipt) => [receipt.kind, receipt.applied])).toEqual([["accepted", false]]);
    expect(runner.stats().counters).toMatchObject({ accepts_refused: 1, handlers_started: 0 });
    await runner.stop();
  });
});

function expectCancelRequested(answer: { status: number; text: string; body: { cancel_requested?: boolean } }): void {
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.cancel_requested).toBe(true);
}
