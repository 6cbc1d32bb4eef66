// Heartbeats renew the lease and carry business cancellations; a lapsed lease is offline at once
// (409 connection_offline), and the lease sweep releases the executor's claimed-but-not-accepted calls
// while accepted calls stay with it. Time is the server's manual clock.
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { sweepExecutorLeases } from "../../src/executors/lease-sweep.js";
import { describeEachDialect } from "../support/test-databases.js";
import {
  addCalls,
  connect,
  type ExecutorServer,
  executorPath,
  ManualClock,
  startExecutorServer,
  TEST_TIMING,
} from "./executor-harness.js";

const iso = (ms: number): string => new Date(ms).toISOString();

describeEachDialect("executor heartbeat and lease", (dialect) => {
  let server: ExecutorServer;
  const heartbeat = (executorId: string, connectionId: string) =>
    server.call("POST", executorPath(executorId, "heartbeat"), {
      key: server.key,
      body: { connection_id: connectionId },
    });

  beforeEach(async () => {
    server = await startExecutorServer(dialect);
  });
  afterEach(async () => {
    await server.close();
  });

  it("renews the lease from now and keeps the connection online across several lease lengths", async () => {
    const { connection_id } = await connect(server, "e1");
    for (let i = 0; i < 4; i++) {
      server.clock.advance(TEST_TIMING.leaseTtlMs - 1);
      const answer = await heartbeat("e1", connection_id);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        executor_id: "e1",
        connection_id,
        lease_expires_at: iso(server.clock.nowMs() + TEST_TIMING.leaseTtlMs),
        heartbeat_interval_ms: TEST_TIMING.heartbeatIntervalMs,
        cancellations: [],
      });
    }
    await sweepExecutorLeases(server.server.storage, server.clock.nowMs());
    expect((await server.server.storage.executors.get("e1"))?.online).toBe(true);
  });

  it("a lapsed lease is offline at once: heartbeat, pending and report answer 409 connection_offline", async () => {
    const { connection_id } = await connect(server, "e1");
    server.clock.advance(TEST_TIMING.leaseTtlMs);
    const answers = [
      await heartbeat("e1", connection_id),
      await server.call("GET", executorPath("e1", "pending", { connection_id }), { key: server.key }),
      await server.call("POST", executorPath("e1", "calls/report"), {
        key: server.key,
        body: { connection_id, calls: [{ call_id: "c1", state: "pending_delivery" }] },
      }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(409);
      expect(answer.body.error.code).toBe("connection_offline");
    }
    // Connecting again brings it back.
    const again = await connect(server, "e1");
    expect(again.epoch).toBe(2);
    expect((await heartbeat("e1", again.connection_id)).status).toBe(200);
  });

  it("the sweep takes a lapsed connection offline and releases its claimed calls; accepted calls stay", async () => {
    const { connection_id } = await connect(server, "e1");
    const held = { executor_id: "e1", claimed_at_ms: 10_000, accept_deadline_ms: 40_000, grant_hash: "h" };
    await addCalls(server, [
      ["c-claimed", { ...held, status: "claimed", claim_id: "k1" }],
      ["c-accepted", { ...held, status: "accepted", claim_id: "k2", accepted_at_ms: 10_500 }],
      ["c-other", { ...held, executor_id: "e2", status: "claimed", claim_id: "k3" }],
    ]);
    server.clock.advance(TEST_TIMING.leaseTtlMs + 1);
    const outcome = await sweepExecutorLeases(server.server.storage, server.clock.nowMs());
    expect(outcome.expired).toEqual([{ executor_id: "e1", connection_id }]);
    expect(outcome.released.map((call) => call.call_id)).toEqual(["c-claimed"]);
    const storage = server.server.storage;
    expect(await storage.executors.get("e1")).toMatchObject({
      online: false,
      disconnected_at_ms: server.clock.nowMs(),
    });
    expect(await storage.calls.get("r1", "c-claimed")).toMatchObject({
      status: "pending",
      executor_id: null,
      claim_id: null,
    });
    expect(await storage.calls.get("r1", "c-accepted")).toMatchObject({
      status: "accepted",
      executor_id: "e1",
      claim_id: "k2",
    });
    expect(await storage.calls.get("r1", "c-other")).toMatchObject({ status: "claimed", executor_id: "e2" });
    // Sweeping again finds nothing; the connection stays offline.
    expect(await sweepExecutorLeases(storage, server.clock.nowMs())).toEqual({ expired: [], released: [] });
    expect((await heartbeat("e1", connection_id)).body.error.code).toBe("connection_offline");
  });

  it("heartbeats answer the business cancellations of calls the executor holds", async () => {
    const { connection_id } = await connect(server, "e1");
    await addCalls(server, [
      [
        "c1",
        { status: "accepted", executor_id: "e1", claim_id: "k1", accepted_at_ms: 1, cancel_requested_at_ms: 9_000 },
      ],
      ["c2", { status: "accepted", executor_id: "e1", claim_id: "k2", accepted_at_ms: 1 }],
      [
        "c3",
        { status: "accepted", executor_id: "e2", claim_id: "k3", accepted_at_ms: 1, cancel_requested_at_ms: 9_000 },
      ],
    ]);
    const answer = await heartbeat("e1", connection_id);
    expect(answer.body.cancellations).toEqual([{ run_id: "r1", call_id: "c1", requested_at: iso(9_000) }]);
  });
});

describeEachDialect("executor lease sweep on the server's ticker", (dialect) => {
  it("runs every sweepIntervalMs with the server's clock", async () => {
    const clock = new ManualClock();
    const server = await startExecutorServer(dialect, { clock, sweepIntervalMs: 20 });
    try {
      const { connection_id } = await connect(server, "e1");
      const claim = { status: "claimed" as const, executor_id: "e1", accept_deadline_ms: 90_000 };
      await addCalls(server, [
        ["c1", { ...claim, claim_id: "k1" }],
        ["c2", { ...claim, claim_id: "k2", cancel_requested_at_ms: 9_000 }],
      ]);
      clock.advance(TEST_TIMING.leaseTtlMs + 1);
      await vi.waitFor(
        async () => expect((await server.server.storage.calls.get("r1", "c1"))?.status).toBe("pending"),
        { timeout: 20_000, interval: 50 },
      );
      // Released with a business cancel requested: nobody holds it any more, so it is cancelled.
      await vi.waitFor(
        async () => expect((await server.server.storage.calls.get("r1", "c2"))?.status).toBe("cancelled"),
        { timeout: 20_000, interval: 50 },
      );
      expect((await server.server.storage.executors.get("e1"))?.online).toBe(false);
      const answer = await server.call("POST", executorPath("e1", "heartbeat"), {
        key: server.key,
        body: { connection_id },
      });
      expect(answer.body.error.code).toBe("connection_offline");
    } finally {
      await server.close();
    }
  });
});
