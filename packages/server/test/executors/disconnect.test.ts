// POST /v1/executors/{id}/disconnect (detach): offline; claimed-but-not-accepted calls return to pending
// and wake other executors' long-polls; accepted calls stay with the executor ID and are not cancelled.
import { afterEach, beforeEach, expect, it } from "vitest";
import { describeEachDialect } from "../support/test-databases.js";
import { addCalls, connect, type ExecutorServer, executorPath, startExecutorServer } from "./executor-harness.js";

describeEachDialect("executor disconnect", (dialect) => {
  let server: ExecutorServer;
  const disconnect = (executorId: string, connectionId: string) =>
    server.call("POST", executorPath(executorId, "disconnect"), {
      key: server.key,
      body: { connection_id: connectionId },
    });

  beforeEach(async () => {
    server = await startExecutorServer(dialect);
  });
  afterEach(async () => {
    await server.close();
  });

  it("releases claimed-not-accepted calls, keeps accepted ones, and goes offline", async () => {
    const { connection_id } = await connect(server, "e1", ["b1", "b2"]);
    const held = { executor_id: "e1", claimed_at_ms: 10_000, accept_deadline_ms: 40_000, grant_hash: "h" };
    await addCalls(server, [
      ["c-claimed-1", { ...held, status: "claimed", claim_id: "k1" }],
      ["c-claimed-2", { ...held, status: "claimed", claim_id: "k2", binding_id: "b2" }],
      ["c-accepted", { ...held, status: "accepted", claim_id: "k3", accepted_at_ms: 10_100 }],
      ["c-unknown", { ...held, status: "reconciliation_required", claim_id: "k4", accepted_at_ms: 10_100 }],
      ["c-cancel-asked", { ...held, status: "claimed", claim_id: "k5", cancel_requested_at_ms: 10_200 }],
    ]);
    const answer = await disconnect("e1", connection_id);
    expect(answer.status).toBe(200);
    expect(answer.body.executor_id).toBe("e1");
    expect(answer.body.online).toBe(false);
    expect([...answer.body.released].sort()).toEqual(["c-cancel-asked", "c-claimed-1", "c-claimed-2"]);
    const calls = server.server.storage.calls;
    expect(await calls.get("r1", "c-claimed-1")).toMatchObject({
      status: "pending",
      executor_id: null,
      claim_id: null,
    });
    expect(await calls.get("r1", "c-accepted")).toMatchObject({
      status: "accepted",
      executor_id: "e1",
      claim_id: "k3",
    });
    expect(await calls.get("r1", "c-unknown")).toMatchObject({ status: "reconciliation_required", executor_id: "e1" });
    // Its business task was asked to stop while held: released, nobody holds it, so it is cancelled.
    expect(await calls.get("r1", "c-cancel-asked")).toMatchObject({ status: "cancelled", executor_id: null });
    // The run is untouched (detach is not a run cancel).
    expect((await server.server.storage.runs.get("r1", "*"))?.status).toBe("waiting_for_tools");
    // Offline now: a heartbeat says so; detaching again releases nothing.
    const heartbeat = await server.call("POST", executorPath("e1", "heartbeat"), {
      key: server.key,
      body: { connection_id },
    });
    expect(heartbeat.body.error.code).toBe("connection_offline");
    expect((await disconnect("e1", connection_id)).body).toEqual({ executor_id: "e1", online: false, released: [] });
  });

  it("wakes another executor's long-poll on the released calls' binding", async () => {
    const e1 = await connect(server, "e1");
    const e2 = await connect(server, "e2");
    await addCalls(server, [
      ["c1", { status: "claimed", executor_id: "e1", claim_id: "k1", accept_deadline_ms: 90_000 }],
    ]);
    const polling = server.call(
      "GET",
      executorPath("e2", "pending", { connection_id: e2.connection_id, wait_ms: 25_000 }),
      {
        key: server.key,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await disconnect("e1", e1.connection_id)).body.released).toEqual(["c1"]);
    const answer = await polling;
    expect(answer.body.data.map((call: { call_id: string }) => call.call_id)).toEqual(["c1"]);
  });

  it("an unknown executor is 404; a superseded connection is 409 and detaches nothing", async () => {
    expect((await disconnect("nobody", "conn_x")).status).toBe(404);
    const first = await connect(server, "e1");
    await connect(server, "e1");
    await addCalls(server, [
      ["c1", { status: "claimed", executor_id: "e1", claim_id: "k1", accept_deadline_ms: 90_000 }],
    ]);
    const answer = await disconnect("e1", first.connection_id);
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe("connection_superseded");
    expect((await server.server.storage.executors.get("e1"))?.online).toBe(true);
    expect((await server.server.storage.calls.get("r1", "c1"))?.status).toBe("claimed");
  });
});
