// The executor store's contract: connect upserts (epoch + 1, fencing the older connection), heartbeat,
// disconnect and lease expiry are conditional on the current, online connection; on both dialects.
import { expect, it } from "vitest";
import type { KyselyStorage } from "../../src/storage/kysely-storage.js";
import type { ExecutorConnectInput } from "../../src/storage/storage.js";
import { describeEachDialect, useTestStorage } from "../support/test-databases.js";

function connectInput(executorId: string, connectionId: string, overrides: Partial<ExecutorConnectInput> = {}) {
  return {
    executor_id: executorId,
    connection_id: connectionId,
    binding_ids: ["b1", "b2"],
    key_id: "k1",
    now_ms: 1_000,
    lease_expires_ms: 16_000,
    ...overrides,
  };
}

/** Executor `executorId`'s connection `connectionId` as a request with key `keyId` names it. */
function owned(executorId: string, connectionId: string, keyId = "k1") {
  return { executor_id: executorId, connection_id: connectionId, key_id: keyId };
}

async function connect(s: KyselyStorage, executorId: string, connectionId: string, overrides = {}) {
  return s.executors.connect(connectInput(executorId, connectionId, overrides));
}

describeEachDialect("executor store", (dialect) => {
  const storage = useTestStorage(dialect);

  it("connect: the first connect is epoch 1, online, leased; get reads it back", async () => {
    const s = storage();
    const executor = await connect(s, "e1", "conn-1");
    expect(executor).toEqual({
      executor_id: "e1",
      connection_id: "conn-1",
      epoch: 1,
      binding_ids: ["b1", "b2"],
      key_id: "k1",
      online: true,
      connected_at_ms: 1_000,
      last_heartbeat_ms: 1_000,
      lease_expires_ms: 16_000,
      disconnected_at_ms: null,
    });
    expect(await s.executors.get("e1")).toEqual(executor);
    expect(await s.executors.get("nope")).toBeUndefined();
  });

  it("connect: a reconnect supersedes (new connection, epoch + 1, online again, new bindings and key)", async () => {
    const s = storage();
    await connect(s, "e1", "conn-1");
    await s.executors.disconnect(owned("e1", "conn-1"), 2_000);
    const again = await connect(s, "e1", "conn-2", {
      binding_ids: ["b2"],
      key_id: "k2",
      now_ms: 3_000,
      lease_expires_ms: 18_000,
    });
    expect(again).toMatchObject({
      connection_id: "conn-2",
      epoch: 2,
      binding_ids: ["b2"],
      key_id: "k2",
      online: true,
      connected_at_ms: 3_000,
      lease_expires_ms: 18_000,
      disconnected_at_ms: null,
    });
    expect((await connect(s, "e1", "conn-3")).epoch).toBe(3);
    // Other executors are independent.
    expect((await connect(s, "e2", "conn-x")).epoch).toBe(1);
  });

  it("connect: concurrent reconnects each get their own epoch", async () => {
    const s = storage();
    await connect(s, "e1", "conn-0");
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => connect(s, "e1", `conn-${i + 1}`)));
    expect(results.map((r) => r.epoch).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    const current = await s.executors.get("e1");
    expect(current?.epoch).toBe(9);
    expect(results.find((r) => r.epoch === 9)?.connection_id).toBe(current?.connection_id);
  });

  it("heartbeat: renews only the current, online, live connection, for the key that opened it", async () => {
    const s = storage();
    await connect(s, "e1", "conn-1");
    // Only the key that opened the connection renews it.
    expect(await s.executors.heartbeat(owned("e1", "conn-1", "k-other"), 5_000, 20_000)).toBe(false);
    expect(await s.executors.heartbeat(owned("e1", "conn-1"), 5_000, 20_000)).toBe(true);
    expect(await s.executors.get("e1")).toMatchObject({ last_heartbeat_ms: 5_000, lease_expires_ms: 20_000 });
    // Lapsed (now >= lease expiry): not renewed, even though the sweep has not run.
    expect(await s.executors.heartbeat(owned("e1", "conn-1"), 20_000, 35_000)).toBe(false);
    expect(await s.executors.get("e1")).toMatchObject({ last_heartbeat_ms: 5_000, lease_expires_ms: 20_000 });
    await connect(s, "e1", "conn-2", { now_ms: 21_000, lease_expires_ms: 36_000 });
    expect(await s.executors.heartbeat(owned("e1", "conn-1"), 22_000, 37_000)).toBe(false);
    expect(await s.executors.heartbeat(owned("e1", "conn-2"), 22_000, 37_000)).toBe(true);
    expect(await s.executors.heartbeat(owned("nope", "conn-2"), 22_000, 37_000)).toBe(false);
    await s.executors.disconnect(owned("e1", "conn-2"), 23_000);
    expect(await s.executors.heartbeat(owned("e1", "conn-2"), 24_000, 39_000)).toBe(false);
  });

  it("disconnect: only the current online connection, by the key that opened it, once", async () => {
    const s = storage();
    await connect(s, "e1", "conn-1");
    await connect(s, "e1", "conn-2");
    expect(await s.executors.disconnect(owned("e1", "conn-1"), 2_000)).toBe(false);
    expect(await s.executors.disconnect(owned("e1", "conn-2", "k-other"), 2_000)).toBe(false);
    expect((await s.executors.get("e1"))?.online).toBe(true);
    expect(await s.executors.disconnect(owned("e1", "conn-2"), 2_000)).toBe(true);
    expect(await s.executors.get("e1")).toMatchObject({ online: false, disconnected_at_ms: 2_000 });
    expect(await s.executors.disconnect(owned("e1", "conn-2"), 3_000)).toBe(false);
    expect((await s.executors.get("e1"))?.disconnected_at_ms).toBe(2_000);
  });

  it("listLapsed and expireLease: online connections whose lease lapsed, expired once", async () => {
    const s = storage();
    await connect(s, "e1", "conn-1", { lease_expires_ms: 10_000 });
    await connect(s, "e2", "conn-2", { lease_expires_ms: 12_000 });
    await connect(s, "e3", "conn-3", { lease_expires_ms: 9_000 });
    await s.executors.disconnect(owned("e3", "conn-3"), 5_000);
    expect(await s.executors.listLapsed(9_999, 10)).toEqual([]);
    expect((await s.executors.listLapsed(10_000, 10)).map((e) => e.executor_id)).toEqual(["e1"]);
    expect((await s.executors.listLapsed(50_000, 10)).map((e) => e.executor_id)).toEqual(["e1", "e2"]);
    expect((await s.executors.listLapsed(50_000, 1)).map((e) => e.executor_id)).toEqual(["e1"]);
    // Not lapsed yet, another connection, or already offline: nothing changes.
    expect(await s.executors.expireLease("e2", "conn-2", 11_000)).toBe(false);
    expect(await s.executors.expireLease("e1", "conn-x", 11_000)).toBe(false);
    expect(await s.executors.expireLease("e3", "conn-3", 11_000)).toBe(false);
    expect(await s.executors.expireLease("e1", "conn-1", 11_000)).toBe(true);
    expect(await s.executors.expireLease("e1", "conn-1", 11_000)).toBe(false);
    expect(await s.executors.get("e1")).toMatchObject({ online: false, disconnected_at_ms: 11_000 });
    // A reconnect after the lapse is online again and not lapsed.
    await connect(s, "e1", "conn-4", { now_ms: 12_000, lease_expires_ms: 27_000 });
    expect((await s.executors.listLapsed(13_000, 10)).map((e) => e.executor_id)).toEqual(["e2"]);
  });

  it("listByBinding: exact membership (no LIKE wildcards, case-sensitive), latest heartbeat first", async () => {
    const s = storage();
    await connect(s, "e1", "conn-1", { binding_ids: ["b_1"] });
    await connect(s, "e2", "conn-2", { binding_ids: ["bx1", "B_1"], now_ms: 2_000 });
    await connect(s, "e3", "conn-3", { binding_ids: ["other", "b_1"], now_ms: 3_000 });
    await connect(s, "e4", "conn-4", { binding_ids: ["b_10"], now_ms: 4_000 });
    await s.executors.disconnect(owned("e3", "conn-3"), 5_000);
    expect((await s.executors.listByBinding("b_1")).map((e) => e.executor_id)).toEqual(["e3", "e1"]);
    expect((await s.executors.listByBinding("B_1")).map((e) => e.executor_id)).toEqual(["e2"]);
    expect((await s.executors.listByBinding("b%")).map((e) => e.executor_id)).toEqual([]);
    expect(await s.executors.listByBinding("nope")).toEqual([]);
  });

  it("works inside a transaction", async () => {
    const s = storage();
    const epoch = await s.transaction(async (stores) => {
      await stores.executors.connect(connectInput("e1", "conn-1"));
      return (await stores.executors.connect(connectInput("e1", "conn-2"))).epoch;
    });
    expect(epoch).toBe(2);
    expect((await s.executors.get("e1"))?.connection_id).toBe("conn-2");
  });
});
