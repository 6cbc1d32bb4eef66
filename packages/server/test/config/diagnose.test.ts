// diagnose (pure): the answer from facts. Executor and call facts, null today, fill the answer and
// flip executor_online when the executor protocol provides them — an addition, not a rewrite.
import { describe, expect, it } from "vitest";
import { diagnose } from "../../src/config/diagnose.js";
import type { DiagnosticFacts } from "../../src/config/diagnostic-facts.js";

const BASE: DiagnosticFacts = {
  agent_id: "agt_1",
  binding_id: "b1",
  binding_exists: true,
  agent_has_versions: true,
  referencing: [],
  executors: null,
  calls: null,
  last_verified_execution: null,
  now_ms: Date.UTC(2026, 8, 30, 12, 0, 0),
};

describe("diagnose", () => {
  it("answers zeros and nulls while no executor or call facts exist", () => {
    const answer = diagnose(BASE);
    expect(answer.executors).toEqual({ online: [], last_heartbeat_at: null });
    expect(answer.calls).toEqual({
      pending: 0,
      claimed: 0,
      accepted: 0,
      reconciliation_required: 0,
      oldest_pending_age_ms: null,
    });
    expect(answer.last_verified_execution).toBeNull();
    expect(answer.checks.find((c) => c.name === "executor_online")?.message).toContain("not available");
  });

  it("fills executors, calls and the last verified execution from their facts", () => {
    const at = BASE.now_ms;
    const answer = diagnose({
      ...BASE,
      executors: {
        online: [
          {
            executor_id: "ex-1",
            connection_id: "conn_1",
            connected_at_ms: at - 60_000,
            last_heartbeat_at_ms: at - 1_000,
            lease_expires_at_ms: at + 14_000,
            tool_names: ["t", "u"],
          },
        ],
        last_heartbeat_at_ms: at - 1_000,
      },
      calls: {
        pending: 2,
        claimed: 1,
        accepted: 3,
        reconciliation_required: 1,
        oldest_pending_created_at_ms: at - 5_000,
      },
      last_verified_execution: {
        run_id: "run_1",
        call_id: "call_1",
        tool_name: "t",
        executor_id: "ex-1",
        completed_at_ms: at - 2_000,
      },
    });
    expect(answer.executors.online).toEqual([
      {
        executor_id: "ex-1",
        connection_id: "conn_1",
        connected_at: "2026-09-30T11:59:00.000Z",
        last_heartbeat_at: "2026-09-30T11:59:59.000Z",
        lease_expires_at: "2026-09-30T12:00:14.000Z",
        tool_names: ["t", "u"],
      },
    ]);
    expect(answer.calls).toEqual({
      pending: 2,
      claimed: 1,
      accepted: 3,
      reconciliation_required: 1,
      oldest_pending_age_ms: 5_000,
    });
    expect(answer.last_verified_execution?.completed_at).toBe("2026-09-30T11:59:58.000Z");
    const online = answer.checks.find((c) => c.name === "executor_online");
    expect(online).toEqual({
      name: "executor_online",
      ok: true,
      message: '1 executor(s) online for binding "b1": ex-1',
    });
  });

  it("says how to fix an empty executor list once connections are tracked", () => {
    const answer = diagnose({ ...BASE, executors: { online: [], last_heartbeat_at_ms: null } });
    const online = answer.checks.find((c) => c.name === "executor_online");
    expect(online?.ok).toBe(false);
    expect(online?.message).toContain("start an executor");
  });
});
