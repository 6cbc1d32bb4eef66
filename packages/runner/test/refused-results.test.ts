// Results the server used to refuse, and results it refuses for good, against a real server: a
// result holding `__proto__` and `constructor` members is delivered and shown byte for byte; a
// result over the server's body limit becomes a `failed` receipt (`result_refused`, with the
// server's status and code), so the call settles instead of waiting for its deadline and ending
// `reconciliation_required` although the handler ran.
import { beforeAll, describe, expect, it } from "vitest";
import {
  api,
  buildWorld,
  callsOf,
  expectStatus,
  newRunner,
  settledRun,
  startRun,
  startTestServer,
  storedReceipts,
  type TestServer,
} from "./support/server-world.js";

const BODY_LIMIT_BYTES = 64 * 1024;
const ONE_CREATE = [{ tool_calls: [{ name: "tasks.create", arguments: { title: "x" } }] }, { message: "done" }];
const DOC = '{"doc":{"__proto__":"user data","constructor":{"prototype":{"polluted":true}}}}';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ bodyLimitBytes: BODY_LIMIT_BYTES });
});

describe("results with members JavaScript gives a meaning to", () => {
  it("are delivered and stored byte for byte, and the run goes on", async () => {
    const world = await buildWorld(server, ONE_CREATE);
    const runner = newRunner(world);
    runner.register("tasks.create", () => JSON.parse(DOC), { effect: "write" });
    await runner.start();
    const runId = await startRun(world);
    expect((await settledRun(world, runId)).status).toBe("completed");
    const [call] = await callsOf(world, runId);
    expect(call.status).toBe("completed");
    const receipts = await storedReceipts(world, call.call_id);
    expect(receipts.map((receipt) => receipt.kind)).toEqual(["accepted", "completed"]);
    expect(receipts[1]?.body_text).toContain(`"result":${DOC}`);
    const history = expectStatus(await api(server, "GET", `/v1/runs/${runId}/history`), 200);
    expect(JSON.stringify(history)).toContain(`"result":${DOC}`);
    await runner.stop();
  });
});

describe("a final receipt refused for good", () => {
  it("is replaced by a failed receipt (result_refused) carrying the server's code, and the call settles", async () => {
    const world = await buildWorld(server, ONE_CREATE);
    const runner = newRunner(world);
    const rejected: string[] = [];
    runner.on("receipt_rejected", ({ kind, code }) => rejected.push(`${kind} ${code}`));
    runner.register("tasks.create", () => ({ blob: "x".repeat(BODY_LIMIT_BYTES) }), { effect: "write" });
    await runner.start();
    const runId = await startRun(world);
    const run = await settledRun(world, runId);
    expect(run.status).toBe("completed");
    const [call] = await callsOf(world, runId);
    expect(call.status).toBe("failed");
    expect(rejected).toEqual(["completed body_too_large"]);
    const receipts = await storedReceipts(world, call.call_id);
    expect(receipts.map((receipt) => receipt.kind)).toEqual(["accepted", "failed"]);
    const error = JSON.parse(receipts[1]?.body_text ?? "{}").error;
    expect(error).toMatchObject({
      code: "result_refused",
      details: { status: 413, code: "body_too_large", refused_kind: "completed" },
    });
    expect(error.message).toContain("413 body_too_large");
    const stats = runner.stats();
    expect(stats.journal?.outboxPending).toBe(0);
    expect(stats.journal?.done ?? 0).toBeGreaterThanOrEqual(1);
    await runner.stop();
  });
});
