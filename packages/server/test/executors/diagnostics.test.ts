// Binding diagnostics, filled in by the executor protocol: online executors with heartbeat and lease,
// per-status call counts, oldest pending age, last verified execution, and the named checks.
import { describe, expect, it } from "vitest";
import { diagnose, STALE_PENDING_MS } from "../../src/config/diagnose.js";
import type { DiagnosticFacts } from "../../src/config/diagnostic-facts.js";
import { BOOTSTRAP_SECRET } from "../http/http-harness.js";
import { describeEachDialect } from "../support/test-databases.js";
import { addCalls, connect, executorPath, startExecutorServer, TEST_TIMING } from "./executor-harness.js";

const iso = (ms: number): string => new Date(ms).toISOString();

describeEachDialect("binding diagnostics with executors and calls", (dialect) => {
  it("reports live executors, call counts, the oldest pending age, the last verified execution and checks", async () => {
    const server = await startExecutorServer(dialect);
    try {
      const diagnostics = async () => {
        const answer = await server.call("GET", "/v1/agents/a1/executor-bindings/b1/diagnostics", {
          key: BOOTSTRAP_SECRET,
        });
        expect(answer.status).toBe(200);
        return answer.body;
      };
      const fresh = await diagnostics();
      expect(fresh.executors).toEqual({ online: [], last_heartbeat_at: null });
      expect(fresh.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok])).toEqual([
        ["binding_exists", true],
        ["agent_has_versions", true],
        ["binding_referenced", true],
        ["executor_online", false],
        ["tools_served", false],
        ["no_stale_pending", true],
        ["no_reconciliation_backlog", true],
        ["execution_verified", false],
      ]);

      const lapsed = await connect(server, "e-lapsed", ["b1"]);
      server.clock.advance(TEST_TIMING.leaseTtlMs);
      const live = await connect(server, "e-live", ["b1", "b2"]);
      await connect(server, "e-elsewhere", ["b2"]);
      const liveAt = server.clock.nowMs();
      const mine = { executor_id: "e-live", claim_id: "k", accepted_at_ms: liveAt };
      await addCalls(server, [
        ["p-old", { created_at_ms: liveAt - STALE_PENDING_MS }],
        ["p-new", { created_at_ms: liveAt - 1_000 }],
        ["p-b2", { binding_id: "b2" }],
        ["k1", { ...mine, status: "claimed", accepted_at_ms: null, accept_deadline_ms: liveAt + 30_000 }],
        ["a1", { ...mine, status: "accepted" }],
        ["u1", { ...mine, status: "reconciliation_required" }],
        ["u2", { ...mine, status: "reconciliation_required" }],
        ["d1", { ...mine, status: "completed", settled_at_ms: liveAt - 500, tool_name: "tool_0" }],
      ]);
      const body = await diagnostics();
      expect(body.executors).toEqual({
        online: [
          {
            executor_id: "e-live",
            connection_id: live.connection_id,
            connected_at: iso(liveAt),
            last_heartbeat_at: iso(liveAt),
            lease_expires_at: iso(liveAt + TEST_TIMING.leaseTtlMs),
            tool_names: null,
          },
        ],
        last_heartbeat_at: iso(liveAt),
      });
      expect(lapsed.connection_id).not.toBe(live.connection_id);
      expect(body.calls).toEqual({
        pending: 2,
        claimed: 1,
        accepted: 1,
        reconciliation_required: 2,
        oldest_pending_age_ms: STALE_PENDING_MS,
      });
      expect(body.last_verified_execution).toEqual({
        run_id: "r1",
        call_id: "d1",
        tool_name: "tool_0",
        executor_id: "e-live",
        completed_at: iso(liveAt - 500),
      });
      expect(body.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok])).toEqual([
        ["binding_exists", true],
        ["agent_has_versions", true],
        ["binding_referenced", true],
        ["executor_online", true],
        ["tools_served", true],
        ["no_stale_pending", false],
        ["no_reconciliation_backlog", false],
        ["execution_verified", true],
      ]);

      // Detached, the executor is no longer online; its last heartbeat is still reported.
      await server.call("POST", executorPath("e-live", "disconnect"), {
        key: server.key,
        body: { connection_id: live.connection_id },
      });
      const after = await diagnostics();
      expect(after.executors).toEqual({ online: [], last_heartbeat_at: iso(liveAt) });
      expect(after.calls.claimed).toBe(0);
      expect(after.calls.pending).toBe(3);
    } finally {
      await server.close();
    }
  });
});

describe("diagnose: the executor protocol's checks", () => {
  const now = Date.UTC(2026, 8, 30, 12);
  const noCalls = {
    pending: 0,
    claimed: 0,
    accepted: 0,
    reconciliation_required: 0,
    oldest_pending_created_at_ms: null,
  };
  const base: DiagnosticFacts = {
    agent_id: "a1",
    binding_id: "b1",
    binding_exists: true,
    agent_has_versions: true,
    referencing: [],
    executors: { online: [], last_heartbeat_at_ms: null },
    calls: noCalls,
    last_verified_execution: null,
    now_ms: now,
  };
  const check = (facts: DiagnosticFacts, name: string) => diagnose(facts).checks.find((c) => c.name === name);

  it("no_stale_pending fails once the oldest pending call waited STALE_PENDING_MS", () => {
    const calls = (age: number) => ({ ...noCalls, pending: 3, oldest_pending_created_at_ms: now - age });
    expect(check({ ...base, calls: calls(STALE_PENDING_MS - 1) }, "no_stale_pending")?.ok).toBe(true);
    const stale = check({ ...base, calls: calls(STALE_PENDING_MS) }, "no_stale_pending");
    expect(stale?.ok).toBe(false);
    expect(stale?.message).toMatch(/oldest of 3 pending call\(s\).*waited 60 s/);
  });

  it("no_reconciliation_backlog fails while calls wait for reconciliation", () => {
    const backlog = check({ ...base, calls: { ...noCalls, reconciliation_required: 2 } }, "no_reconciliation_backlog");
    expect(backlog).toMatchObject({ ok: false, message: expect.stringContaining("2 call(s)") });
  });

  it("execution_verified holds once an executor completed a call", () => {
    expect(check(base, "execution_verified")?.ok).toBe(false);
    const verified = check(
      {
        ...base,
        last_verified_execution: { run_id: "r", call_id: "c", tool_name: "t", executor_id: "e", completed_at_ms: now },
      },
      "execution_verified",
    );
    expect(verified).toMatchObject({ ok: true, message: expect.stringContaining('executor "e" completed call "c"') });
  });
});
