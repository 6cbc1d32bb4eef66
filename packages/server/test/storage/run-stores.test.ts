// Storage contract of the runs area: runs, their append-only history and the run-side call changes
// (run end, business cancel), on both dialects.

import type { RunStatus } from "@toolhost/protocol";
import { expect, it } from "vitest";
import { StoredStateChangedError } from "../../src/storage/stored-state-changed.js";
import { callRecord, publishRuntime, runRecord } from "../support/call-fixtures.js";
import { allPages } from "../support/storage-fixtures.js";
import { describeEachDialect, useTestStorage } from "../support/test-databases.js";

describeEachDialect("run stores", (dialect) => {
  const storage = useTestStorage(dialect);

  it("runs: insert, get (and getStatus) inside and outside the agent scope, list a session's runs in pages", async () => {
    const s = storage();
    await publishRuntime(s);
    const runs = ["r3", "r1", "r2", "r0"].map((id, i) => runRecord(id, { created_at_ms: 5_000 + (i % 2) }));
    for (const run of runs) await s.runs.insert(run);
    expect(await s.runs.get("r1", "*")).toEqual(runs[1]);
    expect(await s.runs.get("r1", ["a1"])).toEqual(runs[1]);
    expect(await s.runs.get("r1", ["a2"])).toBeUndefined();
    expect(await s.runs.get("nope", "*")).toBeUndefined();
    // The status alone, with the same scope rule.
    expect(await s.runs.getStatus("r1", "*")).toBe(runs[1]?.status);
    expect(await s.runs.getStatus("r1", ["a1"])).toBe(runs[1]?.status);
    expect(await s.runs.getStatus("r1", ["a2"])).toBeUndefined();
    expect(await s.runs.getStatus("nope", "*")).toBeUndefined();
    const pages = await allPages((cursor) => s.runs.listBySession("s1", { limit: 3, cursor }));
    expect(pages.map((page) => page.items.map((run) => run.run_id))).toEqual([["r2", "r3", "r0"], ["r1"]]);
    expect((await s.runs.listBySession("other", { limit: 3 })).items).toEqual([]);
  });

  it("runs: an update applies only from the status it names", async () => {
    const s = storage();
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1", { status: "running" }));
    expect(await s.runs.update("r1", "queued", { status: "failed", updated_at_ms: 9 })).toBeUndefined();
    const change = {
      status: "completed" as RunStatus,
      updated_at_ms: 9_000,
      turn: 3,
      output: "bye",
      ended_at_ms: 9_000,
    };
    // The answer is the changed run, as stored.
    expect(await s.runs.update("r1", "running", change)).toEqual({ ...runRecord("r1"), ...change });
    expect(await s.runs.get("r1", "*")).toEqual({ ...runRecord("r1"), ...change });
    expect(await s.runs.update("r1", "running", { status: "failed", updated_at_ms: 10_000 })).toBeUndefined();
  });

  it("runs: updateLocked answers the locked run changed as stored; another status fails the transaction", async () => {
    const s = storage();
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1", { status: "running" }));
    const change = {
      status: "completed" as RunStatus,
      updated_at_ms: 9_000,
      turn: 3,
      output: "bye",
      ended_at_ms: 9_000,
      ready_at_ms: null,
    };
    const { ready_at_ms: _ready, ...recorded } = change;
    const saved = await s.transaction(async (stores) => {
      const locked = await stores.runs.getForUpdate("r1");
      if (locked === undefined) throw new Error("no run");
      return stores.runs.updateLocked(locked, change);
    });
    expect(saved).toEqual({ ...runRecord("r1", { status: "running" }), ...recorded });
    expect(await s.runs.get("r1", "*")).toEqual(saved);
    // A run whose status is not the one it was locked with: nothing of the transaction is kept, on
    // PostgreSQL although the change was sent without waiting (it fails at the commit).
    await s.calls.insertMany([callRecord("r1", "c1")]);
    const stale = s.transaction(async (stores) => {
      await stores.calls.insertMany([callRecord("r1", "c2", { position: 1 })]);
      await stores.runs.updateLocked(runRecord("r1", { status: "running" }), {
        status: "failed",
        updated_at_ms: 10_000,
      });
    });
    await expect(stale).rejects.toThrow(StoredStateChangedError);
    expect(await s.runs.get("r1", "*")).toEqual(saved);
    expect((await s.calls.listByRun("r1", { limit: 10 })).items.map((call) => call.call_id)).toEqual(["c1"]);
  });

  it("runs: getForUpdate reads the run inside a transaction", async () => {
    const s = storage();
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1"));
    const locked = await s.transaction((stores) => stores.runs.getForUpdate("r1"));
    expect(locked).toEqual(runRecord("r1"));
    expect(await s.transaction((stores) => stores.runs.getForUpdate("nope"))).toBeUndefined();
  });

  it("history: appends get consecutive seqs and bump history_length; items read back byte for byte, in pages", async () => {
    const s = storage();
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1"));
    await s.runs.insert(runRecord("r2"));
    const texts = ['{"type":"input","input":1e400}', '{"b":1,"a":[1.0,-0]}', '{"t":"中文 😀\\u0000"}'];
    expect(await s.history.append("r1", texts.slice(0, 2), 7_000)).toEqual([0, 1]);
    expect(await s.history.append("r1", [], 7_000)).toEqual([]);
    expect(await s.history.append("r1", texts.slice(2), 8_000)).toEqual([2]);
    expect(await s.history.append("r2", ["{}"], 8_000)).toEqual([0]);
    expect((await s.runs.get("r1", "*"))?.history_length).toBe(3);
    const pages = await allPages((cursor) => s.history.list("r1", { limit: 2, cursor }));
    expect(pages.map((page) => page.items.map((item) => item.item_json))).toEqual([texts.slice(0, 2), texts.slice(2)]);
    expect(pages[1]?.items[0]).toEqual({ run_id: "r1", seq: 2, item_json: texts[2], created_at_ms: 8_000 });
    await expect(s.history.append("missing", ["{}"], 1)).rejects.toThrow();
  });

  it("history: concurrent appends to one run never collide", async () => {
    const s = storage();
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1"));
    const seqs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => s.transaction((stores) => stores.history.append("r1", [`{"i":${i}}`], 1))),
    );
    expect(seqs.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect((await s.runs.get("r1", "*"))?.history_length).toBe(20);
  });

  it("history: a run whose length the transaction was told gets its appends in one statement at the commit", async () => {
    const s = storage();
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1"));
    await s.history.append("r1", ["{}"], 1_000);
    const before = s.stats().statements;
    const seen = await s.transaction(async (stores) => {
      stores.history.lengthKnown("r1", 1);
      expect(await stores.history.append("r1", ['{"a":1}'], 2_000)).toEqual([1]);
      expect(await stores.history.append("r1", ['{"b":2}', '{"c":3}'], 3_000)).toEqual([2, 3]);
      // The transaction reads its own appends after the stored items, in pages.
      return allPages((cursor) => stores.history.list("r1", { limit: 2, cursor }));
    });
    // BEGIN, two page reads, one INSERT, COMMIT: the three appends were one statement.
    expect(s.stats().statements - before).toBe(5);
    expect(seen.flatMap((page) => page.items.map((item) => item.seq))).toEqual([0, 1, 2, 3]);
    const history = (await s.history.list("r1", { limit: 10, cursor: null })).items;
    expect(history.map((item) => [item.seq, item.item_json, item.created_at_ms])).toEqual([
      [0, "{}", 1_000],
      [1, '{"a":1}', 2_000],
      [2, '{"b":2}', 3_000],
      [3, '{"c":3}', 3_000],
    ]);
    expect((await s.runs.get("r1", "*"))?.history_length).toBe(4);
    // A length told wrong fails the transaction at its commit, and nothing of it is kept.
    await expect(
      s.transaction(async (stores) => {
        stores.history.lengthKnown("r1", 2);
        await stores.history.append("r1", ['{"late":true}'], 4_000);
      }),
    ).rejects.toThrow(StoredStateChangedError);
    expect((await s.history.list("r1", { limit: 10, cursor: null })).items).toHaveLength(4);
    expect((await s.runs.get("r1", "*"))?.history_length).toBe(4);
  });

  it("calls: insertMany, get within its run, list by run in pages and by turn in position order", async () => {
    const s = storage();
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1"));
    await s.runs.insert(runRecord("r2"));
    const calls = [
      callRecord("r1", "c-b", { turn: 0, position: 1 }),
      callRecord("r1", "c-a", { turn: 0, position: 0 }),
      callRecord("r1", "c-c", { turn: 1, position: 0, created_at_ms: 6_001 }),
      callRecord("r1", "c-d", { turn: -1, compensates: "c-a", created_at_ms: 6_002 }),
    ];
    await s.calls.insertMany(calls);
    await s.calls.insertMany([]);
    await s.calls.insertMany([callRecord("r2", "c-x")]);
    expect(await s.calls.get("r1", "c-a")).toEqual(calls[1]);
    expect(await s.calls.get("r2", "c-a")).toBeUndefined();
    const pages = await allPages((cursor) => s.calls.listByRun("r1", { limit: 3, cursor }));
    expect(pages.map((page) => page.items.map((call) => call.call_id))).toEqual([["c-a", "c-b", "c-c"], ["c-d"]]);
    expect((await s.calls.listByTurn("r1", 0)).map((call) => call.call_id)).toEqual(["c-a", "c-b"]);
    expect((await s.calls.listByTurn("r1", -1)).map((call) => call.call_id)).toEqual([]);
  });

  it("calls: a run's end cancels its pending and claimed turn calls only", async () => {
    const s = storage();
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1"));
    await s.runs.insert(runRecord("r2"));
    const statuses = [
      "pending",
      "claimed",
      "accepted",
      "reconciliation_required",
      "completed",
      "failed",
      "expired",
    ] as const;
    await s.calls.insertMany(statuses.map((status, i) => callRecord("r1", `c${i}`, { status, position: i })));
    await s.calls.insertMany([
      callRecord("r1", "comp", { turn: -1, compensates: "c4" }),
      callRecord("r2", "other", { status: "pending" }),
    ]);
    const cancelled = await s.calls.cancelForRunEnd("r1", 9_000);
    expect(cancelled.map((call) => [call.call_id, call.status, call.settled_at_ms])).toEqual([
      ["c0", "cancelled", 9_000],
      ["c1", "cancelled", 9_000],
    ]);
    const after = (await s.calls.listByRun("r1", { limit: 20 })).items;
    expect(after.map((call) => call.status)).toEqual([
      "cancelled",
      "cancelled",
      "accepted",
      "reconciliation_required",
      "completed",
      "failed",
      "expired",
      "pending",
    ]);
    expect((await s.calls.get("r2", "other"))?.status).toBe("pending");
    expect(await s.calls.cancelForRunEnd("r1", 9_500)).toEqual([]);
  });

  it("calls: business cancel cancels a pending call, records a request on a held one, refuses others", async () => {
    const s = storage();
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1"));
    const statuses = ["pending", "claimed", "accepted", "reconciliation_required", "completed", "cancelled"] as const;
    await s.calls.insertMany(statuses.map((status, i) => callRecord("r1", `c${i}`, { status, position: i })));

    const cancelled = await s.calls.cancelUnclaimed("r1", "c0", 9_000);
    expect(cancelled).toMatchObject({ status: "cancelled", cancel_requested_at_ms: 9_000, settled_at_ms: 9_000 });
    expect(await s.calls.cancelUnclaimed("r1", "c0", 9_100)).toBeUndefined();
    for (const id of ["c1", "c2", "c3", "c4", "c5"])
      expect(await s.calls.cancelUnclaimed("r1", id, 9_000)).toBeUndefined();
    expect(await s.calls.cancelUnclaimed("r2", "c0", 9_000)).toBeUndefined();

    for (const [id, status] of [
      ["c1", "claimed"],
      ["c2", "accepted"],
      ["c3", "reconciliation_required"],
    ] as const) {
      expect(await s.calls.requestCancel("r1", id, 9_000)).toMatchObject({ status, cancel_requested_at_ms: 9_000 });
      // Asking again keeps the first request time.
      expect(await s.calls.requestCancel("r1", id, 9_900)).toMatchObject({ status, cancel_requested_at_ms: 9_000 });
    }
    for (const id of ["c0", "c4", "c5"]) expect(await s.calls.requestCancel("r1", id, 9_000)).toBeUndefined();
    expect((await s.calls.get("r1", "c4"))?.cancel_requested_at_ms).toBeNull();
  });
});
