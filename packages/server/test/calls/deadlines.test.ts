// Deadlines and accept windows with a manual clock (the sweeps tick on their own; tests poll the outcome).
import { expect, it } from "vitest";
import { describeEachDialect } from "../support/test-databases.js";
import {
  admin,
  buildWorld,
  type ClockedServer,
  claim,
  claimed,
  connect,
  eventually,
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

const TIMEOUT_MS = 60_000;
const ACCEPT_WINDOW_MS = 30_000;

describeEachDialect("call deadlines and accept windows", (dialect) => {
  /** A server whose leases never lapse in these tests, and a world with a 60 s tool timeout. */
  async function setup(): Promise<{ server: ClockedServer; world: World; runId: string; callId: string }> {
    const server = await startClockedServer(dialect, { leaseTtlMs: 86_400_000, acceptWindowMs: ACCEPT_WINDOW_MS });
    const world = await buildWorld(
      server,
      [
        { tool_calls: [{ name: "tasks.write", arguments: { title: "one" } }] },
        { tool_calls: [{ name: "tasks.write", arguments: { title: "two" } }] },
        { message: "done" },
      ],
      { timeout_ms: TIMEOUT_MS },
    );
    const runId = await startRun(server, world);
    const [call] = await listCalls(server, runId);
    return { server, world, runId, callId: call.call_id };
  }

  const statusOf = async (server: ClockedServer, runId: string, callId: string): Promise<string> =>
    (await listCalls(server, runId)).find((call) => call.call_id === callId)?.status;

  it("a pending call past its deadline expires; the run learns it and takes its next step", async () => {
    const { server, world, runId, callId } = await setup();
    server.clock.advance(TIMEOUT_MS);
    await eventually(
      () => statusOf(server, runId, callId),
      (status) => status === "expired",
      "the call expires",
    );
    const history = JSON.parse(await historyText(server, runId)).data;
    expect(history[2]).toMatchObject({ type: "tool_result", call_id: callId, receipt_id: null });
    expect((await getRun(server, runId)).status).toBe("waiting_for_tools");
    expectError(await claim(server, world, runId, callId, await connect(server, world, "dl-ex-1")), 409, "conflict");
    await server.close();
  });

  it("an accepted call silent past its deadline needs reconciliation; its grant then only reports the outcome", async () => {
    const { server, world, runId, callId } = await setup();
    const held = await claimed(server, world, runId, callId, await connect(server, world, "dl-ex-2"));
    expectStatus(await receipt(server, world, held, { receipt_id: "acc", kind: "accepted" }), 200);
    server.clock.advance(TIMEOUT_MS);
    await eventually(
      () => statusOf(server, runId, callId),
      (status) => status === "reconciliation_required",
      "reconciliation",
    );
    const before = JSON.parse(await historyText(server, runId)).data;
    const unknown = before[2];
    expect(unknown).toMatchObject({ type: "tool_result", call_id: callId, receipt_id: null });
    expect(unknown.context_preview.result.status).toBe("reconciliation_required");
    expect((await getRun(server, runId)).status).toBe("waiting_for_tools");
    // The grant expired with the deadline: it no longer starts or continues work...
    expectError(await receipt(server, world, held, { receipt_id: "p", kind: "progress" }), 403, "invalid_grant");
    expectError(await receipt(server, world, held, { receipt_id: "a2", kind: "accepted" }), 403, "invalid_grant");
    // ...but the product can always report what it reconciled: appended, the earlier item untouched.
    const done = await receipt(server, world, held, { receipt_id: "done", kind: "completed", result: { id: 3 } });
    expect(expectStatus(done, 200)).toMatchObject({
      applied: true,
      call_status: "completed",
      run_status: "waiting_for_tools",
    });
    const after = JSON.parse(await historyText(server, runId)).data;
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.at(-1)).toMatchObject({ type: "tool_result", call_id: callId, receipt_id: "done" });
    await server.close();
  });

  it("a claimed call's grant expires with the deadline: accepted after it is 403 invalid_grant", async () => {
    const { server, world, runId, callId } = await setup();
    const held = await claimed(server, world, runId, callId, await connect(server, world, "dl-ex-3"));
    server.clock.advance(TIMEOUT_MS);
    expectError(await receipt(server, world, held, { receipt_id: "acc", kind: "accepted" }), 403, "invalid_grant");
    await eventually(
      () => statusOf(server, runId, callId),
      (status) => status === "expired",
      "the call expires",
    );
    expectError(await receipt(server, world, held, { receipt_id: "acc", kind: "accepted" }), 403, "invalid_grant");
    await server.close();
  });

  it("a claim not accepted in its window lapses: the call is pending again, the old claim's accepted is confirmed: false", async () => {
    const { server, world, runId, callId } = await setup();
    const first = await connect(server, world, "dl-ex-4");
    const held = await claimed(server, world, runId, callId, first);
    server.clock.advance(ACCEPT_WINDOW_MS + 1);
    await eventually(
      () => statusOf(server, runId, callId),
      (status) => status === "pending",
      "the claim is released",
    );
    const late = await receipt(server, world, held, { receipt_id: "acc", kind: "accepted" });
    expect(expectStatus(late, 200)).toEqual({
      receipt_id: "acc",
      kind: "accepted",
      replayed: false,
      confirmed: false,
      applied: false,
      call_status: "pending",
      run_status: "waiting_for_tools",
    });
    expectError(
      await receipt(server, world, held, { receipt_id: "d", kind: "completed", result: 1 }),
      409,
      "accept_required",
    );
    const second = await connect(server, world, "dl-ex-5");
    const next = await claimed(server, world, runId, callId, second);
    expect(next.claimId).not.toBe(held.claimId);
    expectError(await claim(server, world, runId, callId, first), 409, "already_claimed");
    // Receipt IDs count per claim: the new claim's "acc" is its own receipt, never the earlier claim's.
    const accepted = await receipt(server, world, next, { receipt_id: "acc", kind: "accepted" });
    expect(expectStatus(accepted, 200)).toMatchObject({ replayed: false, confirmed: true, call_status: "accepted" });
    // The first claim's accepted, replayed, is still no go-ahead: another claim holds the call now.
    expect((await receipt(server, world, held, { receipt_id: "acc", kind: "accepted" })).body).toEqual({
      ...late.body,
      replayed: true,
      call_status: "accepted",
    });
    await server.close();
  });

  it("a claim not accepted in its window after a business cancel was asked is cancelled, never claimable again", async () => {
    const { server, world, runId, callId } = await setup();
    const executor = await connect(server, world, "dl-cancel-1");
    const held = await claimed(server, world, runId, callId, executor);
    const cancel = await server.call("POST", `/v1/runs/${runId}/tool-calls/${callId}/cancel`, {
      key: admin.key,
      body: {},
    });
    expect(expectStatus(cancel, 200)).toMatchObject({ status: "claimed", cancel_requested: true });
    server.clock.advance(ACCEPT_WINDOW_MS + 1);
    await eventually(
      () => statusOf(server, runId, callId),
      (status) => status === "cancelled",
      "the lapsed claim's call is cancelled",
    );
    // Nobody may start it any more: not the old claim, not a new one.
    const late = expectStatus(await receipt(server, world, held, { receipt_id: "late-acc", kind: "accepted" }), 200);
    expect(late).toMatchObject({ confirmed: false, call_status: "cancelled" });
    expectError(await claim(server, world, runId, callId, executor), 409, "conflict");
    await server.close();
  });

  it("a claim from a connection whose lease lapsed is 409 connection_offline", async () => {
    const server = await startClockedServer(dialect, { leaseTtlMs: 15_000 });
    const world = await buildWorld(server, [
      { tool_calls: [{ name: "tasks.write", arguments: {} }] },
      { message: "done" },
    ]);
    const runId = await startRun(server, world);
    const [call] = await listCalls(server, runId);
    const executor = await connect(server, world, "dl-ex-6");
    server.clock.advance(15_000);
    expectError(await claim(server, world, runId, call.call_id, executor), 409, "connection_offline");
    await server.close();
  });
});
