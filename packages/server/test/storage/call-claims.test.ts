// The claim store's contract: every status change is one conditional UPDATE, on both dialects.
import { expect, it } from "vitest";
import type { KyselyStorage } from "../../src/storage/kysely-storage.js";
import { StoredStateChangedError } from "../../src/storage/stored-state-changed.js";
import { callRecord, connectExecutor, publishRuntime, receiptRecord, runRecord } from "../support/call-fixtures.js";
import { describeEachDialect, useTestStorage } from "../support/test-databases.js";

/** A claim of `callId` (run r1) by `executorId` on its connection `conn-<executorId>` at `nowMs`. */
function claimOf(callId: string, executorId: string, nowMs = 10_000, claimId = `clm-${executorId}-${callId}`) {
  return {
    run_id: "r1",
    call_id: callId,
    executor_id: executorId,
    connection_id: `conn-${executorId}`,
    key_id: "k1",
    claim_id: claimId,
    grant_hash: `hash-${claimId}`,
    now_ms: nowMs,
    accept_deadline_ms: nowMs + 30_000,
  };
}

/** The claim `claimId` on `callId`, acting with key `keyId` (the fixtures connect every executor with k1). */
function holder(callId: string, claimId: string, keyId = "k1") {
  return { call_id: callId, claim_id: claimId, key_id: keyId };
}

async function seed(storage: KyselyStorage, calls = ["c1"]): Promise<void> {
  await publishRuntime(storage);
  await storage.runs.insert(runRecord("r1"));
  await storage.calls.insertMany(calls.map((callId, position) => callRecord("r1", callId, { position })));
  await connectExecutor(storage, "e1", "conn-e1");
  await connectExecutor(storage, "e2", "conn-e2");
}

describeEachDialect("call claim store", (dialect) => {
  const storage = useTestStorage(dialect);

  it("target: the call with its run's facts and pinned toolset; unknown or foreign IDs are undefined", async () => {
    const s = storage();
    await seed(s);
    const target = await s.callClaims.target("r1", "c1");
    expect(target?.call).toEqual(callRecord("r1", "c1"));
    expect(target?.run).toEqual({
      status: "waiting_for_tools",
      agent_id: "a1",
      agent_version: "agv1",
      subject: "user-s1",
      toolset_id: "ts1",
      toolset_version: 1,
    });
    expect(await s.callClaims.target("r1", "nope")).toBeUndefined();
    expect(await s.callClaims.target("r2", "c1")).toBeUndefined();
    // Inside a transaction (locks on PostgreSQL) it reads the same.
    expect(await s.transaction((stores) => stores.callClaims.target("r1", "c1"))).toEqual(target);
  });

  it("claim: the first claim wins, later ones change nothing", async () => {
    const s = storage();
    await seed(s);
    expect(await s.callClaims.claim(claimOf("c1", "e1"))).toBe(true);
    expect(await s.callClaims.claim(claimOf("c1", "e2"))).toBe(false);
    expect(await s.callClaims.claim(claimOf("c1", "e1", 10_001, "clm-again"))).toBe(false);
    const call = (await s.callClaims.target("r1", "c1"))?.call;
    expect(call).toMatchObject({
      status: "claimed",
      executor_id: "e1",
      claim_id: "clm-e1-c1",
      grant_hash: "hash-clm-e1-c1",
      claimed_at_ms: 10_000,
      accept_deadline_ms: 40_000,
      updated_at_ms: 10_000,
    });
  });

  it("claim: needs the executor's current, online, leased connection and a deadline not passed", async () => {
    const s = storage();
    await seed(s, ["c1", "c2", "c3", "c4"]);
    await connectExecutor(s, "e1", "conn-e1-new");
    expect(await s.callClaims.claim(claimOf("c1", "e1"))).toBe(false); // superseded connection
    await s.executors.disconnect({ executor_id: "e2", connection_id: "conn-e2", key_id: "k1" }, 9_000);
    expect(await s.callClaims.claim(claimOf("c2", "e2"))).toBe(false); // offline
    await connectExecutor(s, "e3", "conn-e3", ["b1"], 10_000);
    expect(await s.callClaims.claim(claimOf("c3", "e3", 10_000))).toBe(false); // lease lapsed at 10 000
    expect(await s.callClaims.claim(claimOf("c3", "e3", 9_999))).toBe(true);
    await connectExecutor(s, "e4", "conn-e4");
    expect(await s.callClaims.claim(claimOf("c4", "e4", 100_000))).toBe(false); // deadline reached
    expect(await s.callClaims.claim({ ...claimOf("c4", "e4"), run_id: "other" })).toBe(false); // wrong run
    expect((await s.callClaims.target("r1", "c4"))?.call.status).toBe("pending");
  });

  it("claim: only the key that opened the executor's current connection claims for it", async () => {
    const s = storage();
    await seed(s);
    expect(await s.callClaims.claim({ ...claimOf("c1", "e1"), key_id: "k-other" })).toBe(false);
    expect((await s.callClaims.target("r1", "c1"))?.call.status).toBe("pending");
    expect(await s.callClaims.claim(claimOf("c1", "e1"))).toBe(true);
  });

  it("claim: a lapsed claim can be claimed again; one still in its window cannot", async () => {
    const s = storage();
    await seed(s);
    await s.callClaims.claim(claimOf("c1", "e1", 10_000));
    expect(await s.callClaims.claim(claimOf("c1", "e2", 40_000))).toBe(false); // window open until 40 000 inclusive
    expect(await s.callClaims.claim(claimOf("c1", "e2", 40_001))).toBe(true);
    expect((await s.callClaims.target("r1", "c1"))?.call).toMatchObject({ executor_id: "e2", claim_id: "clm-e2-c1" });
  });

  it("claim race: 20 executors claiming one call at once, exactly one wins", async () => {
    const s = storage();
    await seed(s);
    const executors = Array.from({ length: 20 }, (_, i) => `x${i}`);
    for (const executorId of executors) await connectExecutor(s, executorId, `conn-${executorId}`);
    const results = await Promise.all(executors.map((executorId) => s.callClaims.claim(claimOf("c1", executorId))));
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = executors[results.indexOf(true)];
    expect((await s.callClaims.target("r1", "c1"))?.call).toMatchObject({ status: "claimed", executor_id: winner });
  });

  it("accept: only the claim holding the call, inside its accept window", async () => {
    const s = storage();
    await seed(s, ["c1", "c2"]);
    await s.callClaims.claim(claimOf("c1", "e1", 10_000));
    await s.callClaims.claim(claimOf("c2", "e1", 10_000));
    expect(await s.callClaims.accept(holder("c1", "clm-other"), 11_000)).toBeUndefined();
    expect(await s.callClaims.accept(holder("c2", "clm-e1-c2"), 40_001)).toBeUndefined();
    // Another key than the one that opened e1's connection changes nothing.
    expect(await s.callClaims.accept(holder("c1", "clm-e1-c1", "k-other"), 40_000)).toBeUndefined();
    const accepted = await s.callClaims.accept(holder("c1", "clm-e1-c1"), 40_000);
    expect(accepted).toMatchObject({ status: "accepted", accepted_at_ms: 40_000, updated_at_ms: 40_000 });
    expect(await s.callClaims.accept(holder("c1", "clm-e1-c1"), 40_000)).toBeUndefined(); // already accepted
  });

  it("acceptRecorded: accepts and stores the receipt together, or neither (the transaction fails)", async () => {
    const s = storage();
    await seed(s, ["c1", "c2"]);
    await s.callClaims.claim(claimOf("c1", "e1", 10_000));
    await s.callClaims.claim(claimOf("c2", "e1", 10_000));
    const { seq: _seq, ...receipt } = receiptRecord("c1", "rc-a", 0, { kind: "accepted", claim_id: "clm-e1-c1" });
    // A progress receipt stored in the same transaction: kept only when the transaction commits.
    const { seq: _progressSeq, ...progress } = receiptRecord("c1", "rc-p", 0, { kind: "progress" });
    const recorded = (callId: string, claimId: string, receiptId: string, keyId = "k1", nowMs = 11_000) =>
      s.transaction(async (stores) => {
        await stores.callClaims.acceptRecorded(holder(callId, claimId, keyId), nowMs, {
          ...receipt,
          call_id: callId,
          claim_id: claimId,
          receipt_id: receiptId,
        });
        await stores.receipts.insertNext({
          ...progress,
          call_id: callId,
          claim_id: claimId,
          receipt_id: `${receiptId}-p`,
        });
      });
    // Another key, or a lapsed window: neither the call nor the receipts change.
    await expect(recorded("c1", "clm-e1-c1", "rc-a", "k-other")).rejects.toThrow(StoredStateChangedError);
    await expect(recorded("c1", "clm-e1-c1", "rc-a", "k1", 40_001)).rejects.toThrow(StoredStateChangedError);
    expect(await s.receipts.listByCall("c1")).toEqual([]);
    expect((await s.calls.get("r1", "c1"))?.status).toBe("claimed");
    await recorded("c1", "clm-e1-c1", "rc-a");
    expect((await s.calls.get("r1", "c1"))?.status).toBe("accepted");
    expect((await s.receipts.listByCall("c1")).map((r) => [r.receipt_id, r.seq, r.kind])).toEqual([
      ["rc-a", 1, "accepted"],
      ["rc-a-p", 2, "progress"],
    ]);
    // Already accepted: nothing more is stored.
    await expect(recorded("c1", "clm-e1-c1", "rc-b")).rejects.toThrow(StoredStateChangedError);
    expect(await s.receipts.listByCall("c1")).toHaveLength(2);
    // A receipt ID the claim used already: the transaction fails; the call stays claimed.
    await s.receipts.insertNext({ ...receipt, call_id: "c2", claim_id: "clm-e1-c2", receipt_id: "rc-used" });
    await expect(recorded("c2", "clm-e1-c2", "rc-used")).rejects.toThrow(StoredStateChangedError);
    expect((await s.calls.get("r1", "c2"))?.status).toBe("claimed");
    expect((await s.receipts.listByCall("c2")).map((r) => r.receipt_id)).toEqual(["rc-used"]);
    // A taken receipt ID of a plain receipt fails the transaction as well, and what it wrote before goes too.
    const taken = s.transaction(async (stores) => {
      await stores.receipts.insertNext({ ...progress, call_id: "c2", claim_id: "clm-e1-c2", receipt_id: "rc-new" });
      await stores.receipts.insertNext({ ...receipt, call_id: "c2", claim_id: "clm-e1-c2", receipt_id: "rc-used" });
    });
    await expect(taken).rejects.toThrow(StoredStateChangedError);
    expect((await s.receipts.listByCall("c2")).map((r) => r.receipt_id)).toEqual(["rc-used"]);
  });

  it("settle: moves only from the given status, for the holding claim and its executor's key; keeps the first settle time", async () => {
    const s = storage();
    await seed(s, ["c1", "c2", "c3"]);
    // c2 is still pending and c3 settled: one other call of the turn is open.
    await s.calls.cancelUnclaimed("r1", "c3", 10_500);
    await s.callClaims.claim(claimOf("c1", "e1"));
    const held = holder("c1", "clm-e1-c1");
    await expect(s.callClaims.settle(held, "claimed", "pending", 11_000)).rejects.toThrow();
    expect(await s.callClaims.settle(held, "accepted", "completed", 11_000)).toBeUndefined();
    await s.callClaims.accept(held, 11_000);
    expect(await s.callClaims.settle(holder("c1", "clm-x"), "accepted", "completed", 12_000)).toBeUndefined();
    expect(await s.callClaims.settle(holder("c1", "clm-e1-c1", "k-other"), "accepted", "completed", 12_000)).toBe(
      undefined,
    );
    const unknown = await s.callClaims.settle(held, "accepted", "reconciliation_required", 12_000);
    expect(unknown?.call).toMatchObject({ status: "reconciliation_required", settled_at_ms: 12_000 });
    expect(unknown?.others_unsettled).toBe(1);
    await s.calls.cancelUnclaimed("r1", "c2", 12_500);
    const done = await s.callClaims.settle(held, "reconciliation_required", "completed", 13_000);
    expect(done?.call).toMatchObject({ status: "completed", settled_at_ms: 12_000, updated_at_ms: 13_000 });
    expect(done?.others_unsettled).toBe(0);
    expect(await s.callClaims.settle(held, "reconciliation_required", "failed", 14_000)).toBeUndefined();
  });

  it("releaseLapsedClaims: lapsed claims only, their claim cleared, up to the limit", async () => {
    const s = storage();
    await seed(s, ["c1", "c2", "c3", "c4"]);
    await s.callClaims.claim(claimOf("c1", "e1", 10_000)); // window until 40 000
    await s.callClaims.claim(claimOf("c2", "e1", 11_000)); // until 41 000
    await s.callClaims.claim(claimOf("c3", "e2", 20_000)); // until 50 000
    await s.callClaims.accept(holder("c2", "clm-e1-c2"), 12_000);
    expect(await s.callClaims.releaseLapsedClaims(40_000, 10)).toEqual([]);
    const released = await s.callClaims.releaseLapsedClaims(60_000, 10);
    expect(released.map((call) => call.call_id).sort()).toEqual(["c1", "c3"]);
    for (const call of released) {
      expect(call).toMatchObject({
        status: "pending",
        executor_id: null,
        claim_id: null,
        grant_hash: null,
        claimed_at_ms: null,
        accept_deadline_ms: null,
        updated_at_ms: 60_000,
      });
    }
    expect((await s.callClaims.target("r1", "c2"))?.call.status).toBe("accepted");
    await s.callClaims.claim(claimOf("c1", "e1", 70_000, "k1"));
    await s.callClaims.claim(claimOf("c3", "e1", 70_000, "k3"));
    await s.callClaims.claim(claimOf("c4", "e1", 70_000, "k4"));
    expect(await s.callClaims.releaseLapsedClaims(100_001, 2)).toHaveLength(2);
    expect(await s.callClaims.releaseLapsedClaims(100_001, 2)).toHaveLength(1);
  });

  it("overdue and settleOverdue: calls past their deadline, moved only while still in the expected status", async () => {
    const s = storage();
    await seed(s, ["c1", "c2", "c3"]);
    await s.calls.insertMany([callRecord("r1", "late", { position: 9, deadline_ms: 50_000 })]);
    await s.callClaims.claim(claimOf("c2", "e1", 10_000));
    await s.callClaims.accept(holder("c2", "clm-e1-c2"), 10_000);
    expect(await s.callClaims.overdue(["pending", "claimed", "accepted"], 49_999, 10)).toEqual([]);
    expect(await s.callClaims.overdue(["pending", "claimed", "accepted"], 50_000, 10)).toEqual([
      { run_id: "r1", call_id: "late" },
    ]);
    const all = await s.callClaims.overdue(["pending", "accepted"], 100_000, 10);
    expect(all.map((ref) => ref.call_id)).toEqual(["late", "c1", "c2", "c3"]);
    expect(await s.callClaims.overdue(["accepted"], 100_000, 10)).toEqual([{ run_id: "r1", call_id: "c2" }]);
    expect(await s.callClaims.overdue(["pending"], 100_000, 2)).toHaveLength(2);

    expect(await s.callClaims.settleOverdue("c1", "pending", "expired", 99_999)).toBeUndefined();
    expect(await s.callClaims.settleOverdue("c1", "claimed", "expired", 100_000)).toBeUndefined();
    expect(await s.callClaims.settleOverdue("c1", "pending", "expired", 100_000)).toMatchObject({
      status: "expired",
      settled_at_ms: 100_000,
    });
    expect(await s.callClaims.settleOverdue("c2", "accepted", "reconciliation_required", 100_000)).toMatchObject({
      status: "reconciliation_required",
      executor_id: "e1",
      claim_id: "clm-e1-c2",
    });
    expect(await s.callClaims.settleOverdue("c2", "accepted", "reconciliation_required", 100_001)).toBeUndefined();
  });
});
