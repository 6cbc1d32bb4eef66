// A replayed `accepted` answers whether the go-ahead holds NOW, never the stored first answer: after
// the deadline (reconciliation required), after the run was cancelled, and for a claim that lapsed.
import { expect, it } from "vitest";
import { dumpTables } from "../support/table-dump.js";
import { describeEachDialect } from "../support/test-databases.js";
import {
  admin,
  buildWorld,
  type ClockedServer,
  claimed,
  connect,
  eventually,
  expectStatus,
  getRun,
  listCalls,
  receipt,
  startClockedServer,
  startRun,
  type World,
} from "./calls-harness.js";

const TIMEOUT_MS = 3_000;
const ACCEPT_WINDOW_MS = 30_000;

describeEachDialect("replayed accepted receipts", (dialect) => {
  /** A server whose leases never lapse here, a world whose tool times out after `timeoutMs`, and one run's call. */
  async function setup(
    timeoutMs = TIMEOUT_MS,
  ): Promise<{ server: ClockedServer; world: World; runId: string; callId: string }> {
    const server = await startClockedServer(dialect, { leaseTtlMs: 86_400_000, acceptWindowMs: ACCEPT_WINDOW_MS });
    const world = await buildWorld(
      server,
      [{ tool_calls: [{ name: "tasks.write", arguments: { title: "one" } }] }, { message: "done" }],
      { timeout_ms: timeoutMs },
    );
    const runId = await startRun(server, world);
    const [call] = await listCalls(server, runId);
    return { server, world, runId, callId: call.call_id };
  }

  const statusOf = async (server: ClockedServer, runId: string): Promise<string> =>
    (await listCalls(server, runId))[0].status;

  it("past the deadline (the call needs reconciliation, the run completed) the same accepted answers confirmed: false", async () => {
    const { server, world, runId, callId } = await setup();
    const held = await claimed(server, world, runId, callId, await connect(server, world, "rp-ex-1"));
    const accepted = { receipt_id: "acc", kind: "accepted" };
    const first = expectStatus(await receipt(server, world, held, accepted), 200);
    expect(first).toMatchObject({ replayed: false, confirmed: true, call_status: "accepted" });
    // Inside the deadline the replay is still a go-ahead.
    expect(expectStatus(await receipt(server, world, held, accepted), 200)).toEqual({ ...first, replayed: true });

    server.clock.advance(TIMEOUT_MS);
    await eventually(
      () => getRun(server, runId),
      (run) => run.status === "completed",
      "the sweep settles the silent call and the run completes",
    );
    expect(await statusOf(server, runId)).toBe("reconciliation_required");
    const before = await dumpTables(server.database.url);
    const replay = await receipt(server, world, held, accepted);
    expect(expectStatus(replay, 200)).toEqual({
      receipt_id: "acc",
      kind: "accepted",
      replayed: true,
      confirmed: false,
      applied: true,
      call_status: "reconciliation_required",
      run_status: "completed",
    });
    expect(Object.keys(replay.body)).toEqual(Object.keys(first));
    expect(await dumpTables(server.database.url)).toEqual(before);
    await server.close();
  });

  it("after a run cancel inside the window the same accepted answers confirmed: false", async () => {
    const { server, world, runId, callId } = await setup();
    const held = await claimed(server, world, runId, callId, await connect(server, world, "rp-ex-2"));
    const accepted = { receipt_id: "acc", kind: "accepted" };
    expect(expectStatus(await receipt(server, world, held, accepted), 200)).toMatchObject({ confirmed: true });
    expectStatus(await server.call("POST", `/v1/runs/${runId}/cancel`, { ...admin, body: {} }), 200);
    const before = await dumpTables(server.database.url);
    expect(expectStatus(await receipt(server, world, held, accepted), 200)).toEqual({
      receipt_id: "acc",
      kind: "accepted",
      replayed: true,
      confirmed: false,
      applied: true,
      call_status: "accepted",
      run_status: "cancelled",
    });
    expect(await dumpTables(server.database.url)).toEqual(before);
    await server.close();
  });

  it("a lapsed claim's accepted stays unconfirmed while the same executor's new claim holds the call accepted", async () => {
    const { server, world, runId, callId } = await setup(10 * ACCEPT_WINDOW_MS);
    const executor = await connect(server, world, "rp-ex-3");
    const old = await claimed(server, world, runId, callId, executor);
    server.clock.advance(ACCEPT_WINDOW_MS + 1);
    await eventually(
      () => statusOf(server, runId),
      (status) => status === "pending",
      "the claim lapses",
    );
    const accepted = { receipt_id: "acc", kind: "accepted" };
    expect(expectStatus(await receipt(server, world, old, accepted), 200)).toMatchObject({
      confirmed: false,
      call_status: "pending",
    });
    const next = await claimed(server, world, runId, callId, executor);
    expect(next.claimId).not.toBe(old.claimId);
    // Receipt IDs belong to their claim: the new claim's accepted may use the same ID.
    expect(expectStatus(await receipt(server, world, next, accepted), 200)).toMatchObject({
      replayed: false,
      confirmed: true,
      call_status: "accepted",
    });
    expect(expectStatus(await receipt(server, world, old, accepted), 200)).toMatchObject({
      replayed: true,
      confirmed: false,
      call_status: "accepted",
    });
    expect(expectStatus(await receipt(server, world, next, accepted), 200)).toMatchObject({
      replayed: true,
      confirmed: true,
    });
    await server.close();
  });
});
