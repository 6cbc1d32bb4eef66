// The executor area's reads and changes of tool calls: candidates (paged, claimable only, never
// arguments), business cancellations, releasing an executor's unconfirmed claims, report facts and
// diagnostics counts; on both dialects.
import { ProtocolError } from "@toolhost/protocol";
import { expect, it } from "vitest";
import type { KyselyStorage } from "../../src/storage/kysely-storage.js";
import type { CandidateQuery } from "../../src/storage/storage.js";
import { callRecord, connectExecutor, publishRuntime, receiptRecord, runRecord } from "../support/call-fixtures.js";
import { agentRecord, agentVersionInput, allPages, sessionRecord } from "../support/storage-fixtures.js";
import { describeEachDialect, useTestStorage } from "../support/test-databases.js";

const NOW = 10_000;
const query = (overrides: Partial<CandidateQuery> = {}): CandidateQuery => ({
  binding_ids: ["b1", "b2"],
  agents: "*",
  now_ms: NOW,
  ...overrides,
});

const TRACE_CONTEXT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
/** A candidate of run r1 with tool_0. */
const candidate = (callId: string, bindingId: string, createdAtMs: number) => ({
  run_id: "r1",
  call_id: callId,
  tool_name: "tool_0",
  binding_id: bindingId,
  created_at_ms: createdAtMs,
});

async function seed(s: KyselyStorage): Promise<void> {
  await publishRuntime(s);
  await s.runs.insert(runRecord("r1"));
}

describeEachDialect("pending call store", (dialect) => {
  const storage = useTestStorage(dialect);

  it("candidates: pending and lapsed claims only, deadline ahead, oldest first; only ID, tool, binding, time and trace context", async () => {
    const s = storage();
    await seed(s);
    await s.calls.insertMany([
      callRecord("r1", "c-pending", { created_at_ms: 6_002, trace_context: TRACE_CONTEXT }),
      callRecord("r1", "c-b2", { binding_id: "b2", created_at_ms: 6_001 }),
      callRecord("r1", "c-lapsed", {
        status: "claimed",
        executor_id: "e9",
        claim_id: "clm",
        accept_deadline_ms: NOW - 1,
        created_at_ms: 6_003,
      }),
      callRecord("r1", "c-claimed", { status: "claimed", executor_id: "e9", claim_id: "x", accept_deadline_ms: NOW }),
      callRecord("r1", "c-accepted", { status: "accepted", executor_id: "e9", claim_id: "y", accepted_at_ms: 1 }),
      callRecord("r1", "c-overdue", { deadline_ms: NOW }),
      callRecord("r1", "c-cancel-asked", { cancel_requested_at_ms: 9_000 }),
      callRecord("r1", "c-other-binding", { binding_id: "b3" }),
      callRecord("r1", "c-done", { status: "completed" }),
    ]);
    const page = await s.pendingCalls.candidates(query(), { limit: 50 });
    expect(page).toEqual({
      items: [
        { ...candidate("c-b2", "b2", 6_001), trace_context: null },
        { ...candidate("c-pending", "b1", 6_002), trace_context: TRACE_CONTEXT },
        { ...candidate("c-lapsed", "b1", 6_003), trace_context: null },
      ],
      next_cursor: null,
    });
    const onlyB1 = await s.pendingCalls.candidates(query({ binding_ids: ["b1"] }), { limit: 50 });
    expect(onlyB1.items.map((c) => c.call_id)).toEqual(["c-pending", "c-lapsed"]);
    expect(await s.pendingCalls.candidates(query({ binding_ids: [] }), { limit: 50 })).toEqual({
      items: [],
      next_cursor: null,
    });
  });

  it("candidates: runs that ended are left out, compensation calls are not; agent scope applies", async () => {
    const s = storage();
    await seed(s);
    await s.agents.insert(agentRecord("a2"));
    await s.agents.appendVersion(agentVersionInput("a2", "agv2", "ts1", 1));
    await s.sessions.insert(sessionRecord("s2", "a2", "agv2"));
    await s.runs.insert(runRecord("r-ended", { status: "cancelled", ended_at_ms: 7_000 }));
    await s.runs.insert(runRecord("r-queued", { status: "queued" }));
    await s.runs.insert(
      runRecord("r-a2", { session_id: "s2", agent_id: "a2", agent_version: "agv2", status: "running" }),
    );
    await s.calls.insertMany([
      callRecord("r-ended", "c-ended"),
      callRecord("r-ended", "c-compensation", { turn: -1, compensates: "c-x", created_at_ms: 6_100 }),
      callRecord("r-queued", "c-queued", { created_at_ms: 6_200 }),
      callRecord("r-a2", "c-a2", { created_at_ms: 6_300 }),
    ]);
    const all = await s.pendingCalls.candidates(query(), { limit: 50 });
    expect(all.items.map((c) => c.call_id)).toEqual(["c-compensation", "c-queued", "c-a2"]);
    const scoped = await s.pendingCalls.candidates(query({ agents: ["a1"] }), { limit: 50 });
    expect(scoped.items.map((c) => c.call_id)).toEqual(["c-compensation", "c-queued"]);
    expect((await s.pendingCalls.candidates(query({ agents: [] }), { limit: 50 })).items).toEqual([]);
  });

  it("candidates: pages by (created_at_ms, call_id) through an opaque cursor; a foreign cursor is a 422", async () => {
    const s = storage();
    await seed(s);
    const times = [300, 100, 200, 200, 200, 300, 50];
    await s.calls.insertMany(times.map((t, i) => callRecord("r1", `x-0${i}`, { position: i, created_at_ms: t })));
    const pages = await allPages((cursor) => s.pendingCalls.candidates(query(), { limit: 3, cursor }));
    expect(pages.map((p) => p.items.map((c) => c.call_id))).toEqual([
      ["x-06", "x-01", "x-02"],
      ["x-03", "x-04", "x-00"],
      ["x-05"],
    ]);
    const foreign = Buffer.from(JSON.stringify({ l: "sessions", t: 1, id: "x" })).toString("base64url");
    const error = await s.pendingCalls.candidates(query(), { limit: 3, cursor: foreign }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: "validation_failed", pointer: "/cursor" });
  });

  it("cancellationsFor: the executor's held calls with a cancel request, oldest request first", async () => {
    const s = storage();
    await seed(s);
    const held = { executor_id: "e1", claim_id: "clm" };
    await s.calls.insertMany([
      callRecord("r1", "c1", { ...held, status: "claimed", cancel_requested_at_ms: 9_500 }),
      callRecord("r1", "c2", { ...held, status: "accepted", accepted_at_ms: 1, cancel_requested_at_ms: 9_000 }),
      callRecord("r1", "c3", { ...held, status: "reconciliation_required", cancel_requested_at_ms: 9_700 }),
      callRecord("r1", "c4", { ...held, status: "accepted" }),
      callRecord("r1", "c5", { ...held, status: "cancelled", cancel_requested_at_ms: 9_100 }),
      callRecord("r1", "c6", { executor_id: "e2", claim_id: "z", status: "accepted", cancel_requested_at_ms: 9_200 }),
    ]);
    expect(await s.pendingCalls.cancellationsFor("e1", 10)).toEqual([
      { run_id: "r1", call_id: "c2", requested_at_ms: 9_000 },
      { run_id: "r1", call_id: "c1", requested_at_ms: 9_500 },
      { run_id: "r1", call_id: "c3", requested_at_ms: 9_700 },
    ]);
    expect((await s.pendingCalls.cancellationsFor("e1", 1)).map((c) => c.call_id)).toEqual(["c2"]);
    expect(await s.pendingCalls.cancellationsFor("nobody", 10)).toEqual([]);
  });

  it("poll: answers what candidates and cancellationsFor answer, in one statement for one binding's first page", async () => {
    const s = storage();
    await seed(s);
    const held = { executor_id: "e1", claim_id: "clm" };
    await s.calls.insertMany([
      callRecord("r1", "c-b", { created_at_ms: 6_002 }),
      callRecord("r1", "c-a", { created_at_ms: 6_002 }),
      callRecord("r1", "c-old", { created_at_ms: 6_001, trace_context: TRACE_CONTEXT }),
      callRecord("r1", "c-new", { created_at_ms: 6_009 }),
      callRecord("r1", "c-b2", { binding_id: "b2", created_at_ms: 6_000 }),
      callRecord("r1", "h1", { ...held, status: "claimed", cancel_requested_at_ms: 9_500 }),
      callRecord("r1", "h2", { ...held, status: "accepted", accepted_at_ms: 1, cancel_requested_at_ms: 9_000 }),
      callRecord("r1", "h3", { ...held, status: "accepted", accepted_at_ms: 1, cancel_requested_at_ms: 9_000 }),
    ]);
    for (const [q, page, limit] of [
      [query({ binding_ids: ["b1"] }), { limit: 2, cursor: null }, 10],
      [query({ binding_ids: ["b1"] }), { limit: 50, cursor: null }, 2],
      [query({ binding_ids: ["b1", "b2"] }), { limit: 3, cursor: null }, 10],
      [query({ binding_ids: ["b1"], agents: ["a1"] }), { limit: 50, cursor: null }, 10],
    ] as const) {
      const polled = await s.pendingCalls.poll(q, page, { executor_id: "e1", limit });
      expect(polled).toEqual({
        candidates: await s.pendingCalls.candidates(q, page),
        cancellations: await s.pendingCalls.cancellationsFor("e1", limit),
      });
    }
    const first = await s.pendingCalls.poll(
      query({ binding_ids: ["b1"] }),
      { limit: 2, cursor: null },
      { executor_id: "e1", limit: 10 },
    );
    expect(first.candidates.items.map((c) => [c.call_id, c.trace_context])).toEqual([
      ["c-old", TRACE_CONTEXT],
      ["c-a", null],
    ]);
    expect(first.candidates.next_cursor).not.toBeNull();
    expect(first.cancellations.map((c) => c.call_id)).toEqual(["h2", "h3", "h1"]);
    const empty = await s.pendingCalls.poll(
      query({ binding_ids: ["b3"] }),
      { limit: 5, cursor: null },
      { executor_id: "nobody", limit: 5 },
    );
    expect(empty).toEqual({ candidates: { items: [], next_cursor: null }, cancellations: [] });
  });

  it("poll with a connection: says whether it is the executor's current one, of that key, online and leased", async () => {
    const s = storage();
    await seed(s);
    await s.calls.insertMany([callRecord("r1", "c1", { created_at_ms: 6_001 })]);
    await connectExecutor(s, "e1", "conn-1", ["b1"], NOW + 1_000);
    const live = (
      connection: { connection_id: string; key_id: string },
      q = query({ binding_ids: ["b1"] }),
      nowMs = NOW,
    ) =>
      s.pendingCalls.poll(
        { ...q, now_ms: nowMs },
        { limit: 5, cursor: null },
        { executor_id: "e1", limit: 5 },
        connection,
      );
    // The one-statement poll and the others (two bindings; one agent) say the same.
    for (const q of [query({ binding_ids: ["b1"] }), query({ binding_ids: ["b1", "b2"] }), query({ agents: ["a1"] })]) {
      const polled = await live({ connection_id: "conn-1", key_id: "k1" }, q);
      expect(polled.connection_live).toBe(true);
      expect(polled.candidates.items.map((c) => c.call_id)).toEqual(["c1"]);
      expect((await live({ connection_id: "conn-0", key_id: "k1" }, q)).connection_live).toBe(false);
      expect((await live({ connection_id: "conn-1", key_id: "k2" }, q)).connection_live).toBe(false);
      expect((await live({ connection_id: "conn-1", key_id: "k1" }, q, NOW + 1_000)).connection_live).toBe(false);
    }
    // Without a connection to check it says nothing; a detached connection is not live.
    expect(
      await s.pendingCalls.poll(
        query({ binding_ids: ["b1"] }),
        { limit: 5, cursor: null },
        { executor_id: "e1", limit: 5 },
      ),
    ).not.toHaveProperty("connection_live");
    await s.executors.disconnect({ executor_id: "e1", connection_id: "conn-1", key_id: "k1" }, NOW);
    expect((await live({ connection_id: "conn-1", key_id: "k1" })).connection_live).toBe(false);
  });

  it("releaseClaimedBy: the executor's claimed calls return to pending, claims cleared; accepted ones stay", async () => {
    const s = storage();
    await seed(s);
    const claim = { status: "claimed" as const, claimed_at_ms: 7_000, accept_deadline_ms: 37_000, grant_hash: "h" };
    await s.calls.insertMany([
      callRecord("r1", "c1", { ...claim, executor_id: "e1", claim_id: "k1" }),
      callRecord("r1", "c2", { ...claim, executor_id: "e1", claim_id: "k2", binding_id: "b2" }),
      callRecord("r1", "c3", { status: "accepted", executor_id: "e1", claim_id: "k3", accepted_at_ms: 8_000 }),
      callRecord("r1", "c4", { ...claim, executor_id: "e2", claim_id: "k4" }),
    ]);
    const released = await s.pendingCalls.releaseClaimedBy("e1", NOW);
    expect(released.sort((a, b) => a.call_id.localeCompare(b.call_id))).toEqual([
      { run_id: "r1", call_id: "c1", binding_id: "b1", cancel_requested_at_ms: null, tool_name: "tool_0" },
      { run_id: "r1", call_id: "c2", binding_id: "b2", cancel_requested_at_ms: null, tool_name: "tool_0" },
    ]);
    expect(await s.calls.get("r1", "c1")).toMatchObject({
      status: "pending",
      executor_id: null,
      claim_id: null,
      grant_hash: null,
      claimed_at_ms: null,
      accept_deadline_ms: null,
      updated_at_ms: NOW,
    });
    expect(await s.calls.get("r1", "c3")).toMatchObject({ status: "accepted", executor_id: "e1" });
    expect(await s.calls.get("r1", "c4")).toMatchObject({ status: "claimed", executor_id: "e2" });
    expect(await s.pendingCalls.releaseClaimedBy("e1", NOW)).toEqual([]);
  });

  it("reportFacts: calls on the given bindings with run status and only this executor's receipts", async () => {
    const s = storage();
    await seed(s);
    await connectExecutor(s, "e1", "conn-e1");
    await s.calls.insertMany([
      callRecord("r1", "c1", { status: "accepted", executor_id: "e1", claim_id: "clm1", accepted_at_ms: 8_000 }),
      callRecord("r1", "c2", { binding_id: "b2" }),
    ]);
    await s.receipts.insertNext(receiptRecord("c1", "rc-accepted", 1, { kind: "accepted" }));
    await s.receipts.insertNext(receiptRecord("c1", "rc-foreign", 2, { executor_id: "e2" }));
    await s.receipts.insertNext(receiptRecord("c1", "rc-progress", 3));
    const facts = await s.executorReports.reportFacts(["c1", "c2", "nope"], ["b1"], "e1");
    expect([...facts.keys()]).toEqual(["c1"]);
    const c1 = facts.get("c1");
    expect(c1?.call).toEqual(await s.calls.get("r1", "c1"));
    expect(c1?.run_status).toBe("waiting_for_tools");
    expect(c1?.receipts).toEqual([
      { receipt_id: "rc-accepted", kind: "accepted", claim_id: "clm1", seq: 1 },
      { receipt_id: "rc-progress", kind: "progress", claim_id: "clm1", seq: 3 },
    ]);
    expect((await s.executorReports.reportFacts(["c2"], ["b1", "b2"], "e1")).get("c2")?.receipts).toEqual([]);
    expect((await s.executorReports.reportFacts([], ["b1"], "e1")).size).toBe(0);
  });

  it("callStats: counts per unsettled status for one agent and binding, oldest pending, last completed", async () => {
    const s = storage();
    await seed(s);
    expect(await s.callStats.countsFor("a1", "b1")).toEqual({
      pending: 0,
      claimed: 0,
      accepted: 0,
      reconciliation_required: 0,
      oldest_pending_created_at_ms: null,
    });
    expect(await s.callStats.lastCompleted("a1", "b1")).toBeUndefined();
    await s.calls.insertMany([
      callRecord("r1", "p1", { created_at_ms: 6_500 }),
      callRecord("r1", "p2", { created_at_ms: 6_100 }),
      callRecord("r1", "p3", { binding_id: "b2", created_at_ms: 5_000 }),
      callRecord("r1", "k1", { status: "claimed", executor_id: "e1", claim_id: "a" }),
      callRecord("r1", "a1", { status: "accepted", executor_id: "e1", claim_id: "b" }),
      callRecord("r1", "a2", { status: "accepted", executor_id: "e1", claim_id: "c" }),
      callRecord("r1", "u1", { status: "reconciliation_required", executor_id: "e1", claim_id: "d" }),
      callRecord("r1", "d1", { status: "completed", executor_id: "e1", claim_id: "e", settled_at_ms: 8_000 }),
      callRecord("r1", "d2", { status: "completed", executor_id: "e2", claim_id: "f", settled_at_ms: 9_000 }),
      callRecord("r1", "d3", { status: "failed", executor_id: "e3", claim_id: "g", settled_at_ms: 9_500 }),
    ]);
    expect(await s.callStats.countsFor("a1", "b1")).toEqual({
      pending: 2,
      claimed: 1,
      accepted: 2,
      reconciliation_required: 1,
      oldest_pending_created_at_ms: 6_100,
    });
    expect((await s.callStats.countsFor("a2", "b1")).pending).toBe(0);
    expect(await s.callStats.lastCompleted("a1", "b1")).toEqual({
      run_id: "r1",
      call_id: "d2",
      tool_name: "tool_0",
      executor_id: "e2",
      settled_at_ms: 9_000,
    });
    expect(await s.callStats.lastCompleted("a1", "b2")).toBeUndefined();
  });
});
