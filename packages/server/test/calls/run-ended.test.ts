// Receipts and claims once a run has ended (cancel), and compensation calls, on both dialects.
import { beforeAll, expect, it } from "vitest";
import { dumpTables } from "../support/table-dump.js";
import { describeEachDialect } from "../support/test-databases.js";
import {
  admin,
  buildWorld,
  type ClockedServer,
  claim,
  claimed,
  connect,
  expectError,
  expectStatus,
  getRun,
  historyText,
  listCalls,
  receipt,
  startClockedServer,
  startRun,
  type World,
} from "./calls-harness.js";

/** The receipts rows of one call as stored (JSON rows of the table dump). */
async function storedReceipts(server: ClockedServer, callId: string): Promise<Array<Record<string, unknown>>> {
  const rows = (await dumpTables(server.database.url)).receipts ?? [];
  return rows
    .map((row) => JSON.parse(row) as Record<string, unknown>)
    .filter((row) => row.call_id === callId)
    .sort((a, b) => Number(a.seq) - Number(b.seq));
}

describeEachDialect("receipts after the run ended", (dialect) => {
  let server: ClockedServer;
  let world: World;

  beforeAll(async () => {
    server = await startClockedServer(dialect);
    world = await buildWorld(server, [
      {
        tool_calls: [
          { name: "tasks.write", arguments: { title: "one" } },
          { name: "tasks.write", arguments: { title: "two" } },
        ],
      },
      { message: "done" },
    ]);
  });

  const cancelRun = async (runId: string): Promise<void> => {
    expectStatus(await server.call("POST", `/v1/runs/${runId}/cancel`, { ...admin, body: {} }), 200);
  };

  it("a claimed call of a cancelled run: its accepted answers confirmed: false; the other calls refuse claims", async () => {
    const runId = await startRun(server, world);
    const [first, second] = await listCalls(server, runId);
    const executor = await connect(server, world, "end-ex-1");
    const held = await claimed(server, world, runId, first.call_id, executor);
    await cancelRun(runId);
    const accepted = await receipt(server, world, held, { receipt_id: "acc", kind: "accepted" });
    expect(expectStatus(accepted, 200)).toEqual({
      receipt_id: "acc",
      kind: "accepted",
      replayed: false,
      confirmed: false,
      applied: false,
      call_status: "cancelled",
      run_status: "cancelled",
    });
    expectError(await claim(server, world, runId, second.call_id, executor), 409, "run_terminated");
    expect(await storedReceipts(server, first.call_id)).toHaveLength(1);
  });

  it("an accepted call of a cancelled run: its completed is stored, the call records it, applied: false, history unchanged", async () => {
    const runId = await startRun(server, world);
    const [first] = await listCalls(server, runId);
    const held = await claimed(server, world, runId, first.call_id, await connect(server, world, "end-ex-2"));
    expectStatus(await receipt(server, world, held, { receipt_id: "acc", kind: "accepted" }), 200);
    await cancelRun(runId);
    const history = await historyText(server, runId);
    const progress = await receipt(server, world, held, { receipt_id: "prog", kind: "progress" });
    expect(expectStatus(progress, 200)).toMatchObject({
      applied: false,
      call_status: "accepted",
      run_status: "cancelled",
    });
    const done = await receipt(server, world, held, { receipt_id: "done", kind: "completed", result: { id: 1 } });
    expect(expectStatus(done, 200)).toEqual({
      receipt_id: "done",
      kind: "completed",
      replayed: false,
      applied: false,
      call_status: "completed",
      run_status: "cancelled",
    });
    expect(await historyText(server, runId)).toBe(history);
    expect((await getRun(server, runId)).status).toBe("cancelled");
    expect((await listCalls(server, runId)).map((call) => call.status)).toEqual(["completed", "cancelled"]);
    const rows = await storedReceipts(server, first.call_id);
    expect(rows.map((row) => [row.receipt_id, Number(row.applied)])).toEqual([
      ["acc", 1],
      ["prog", 0],
      ["done", 0],
    ]);
  });

  it("compensation: a new linked call, claimable after the run ended, applied through claim and receipts", async () => {
    const runId = await startRun(server, world);
    const calls = await listCalls(server, runId);
    const executor = await connect(server, world, "end-ex-3");
    for (const [index, call] of calls.entries()) {
      const held = await claimed(server, world, runId, call.call_id, executor);
      expectStatus(await receipt(server, world, held, { receipt_id: "a", kind: "accepted" }), 200);
      expectStatus(await receipt(server, world, held, { receipt_id: "d", kind: "completed", result: { index } }), 200);
    }
    expect((await getRun(server, runId)).status).toBe("completed");
    const history = await historyText(server, runId);
    const settled = await listCalls(server, runId);
    const original = calls[0];
    const compensated = await server.call("POST", `/v1/runs/${runId}/tool-calls/${original.call_id}/compensate`, {
      ...admin,
      body: { tool_name: "tasks.undo", arguments: { task: 1 } },
    });
    const compensation = expectStatus(compensated, 201);
    expect(compensation).toMatchObject({ compensates: original.call_id, status: "pending", tool_name: "tasks.undo" });
    const held = await claimed(server, world, runId, compensation.call_id, executor);
    const accepted = await receipt(server, world, held, { receipt_id: "a", kind: "accepted" });
    expect(expectStatus(accepted, 200)).toMatchObject({
      confirmed: true,
      applied: true,
      call_status: "accepted",
      run_status: "completed",
    });
    const done = await receipt(server, world, held, { receipt_id: "d", kind: "completed", result: { undone: true } });
    expect(expectStatus(done, 200)).toMatchObject({ applied: true, call_status: "completed", run_status: "completed" });
    expect(await historyText(server, runId)).toBe(history);
    const after = await listCalls(server, runId);
    expect(after.filter((call) => call.call_id !== compensation.call_id)).toEqual(settled);
    expect(after.find((call) => call.call_id === compensation.call_id)?.status).toBe("completed");
  });
});
