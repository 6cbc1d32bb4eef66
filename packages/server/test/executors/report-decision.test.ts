// decideReport, one case per branch: what an executor must do about a call of its journal.
import type { RunStatus } from "@toolhost/protocol";
import type { ReportedCall } from "@toolhost/protocol/wire";
import { describe, expect, it } from "vitest";
import { decideReport, factsOfReportedClaim } from "../../src/executors/report-decision.js";
import type { CallRecord } from "../../src/storage/records.js";
import type { ReportFacts } from "../../src/storage/storage.js";
import { callRecord } from "../support/call-fixtures.js";

const ME = "e1";

/** A call this executor accepted (confirmed to start) under claim clm1. */
const started = (overrides: Partial<CallRecord> = {}): Partial<CallRecord> => ({
  status: "accepted",
  executor_id: ME,
  claim_id: "clm1",
  accepted_at_ms: 8_000,
  ...overrides,
});

/** A call this executor claimed, not confirmed to start. */
const claimed = (overrides: Partial<CallRecord> = {}): Partial<CallRecord> => ({
  status: "claimed",
  executor_id: ME,
  claim_id: "clm1",
  ...overrides,
});

function facts(
  call: Partial<CallRecord>,
  receiptIds: string[] = [],
  runStatus: RunStatus = "waiting_for_tools",
): ReportFacts {
  return {
    call: callRecord("r1", "c1", call),
    run_status: runStatus,
    receipts: receiptIds.map((receipt_id, i) => ({ receipt_id, kind: "progress", claim_id: "clm1", seq: i + 1 })),
  };
}

function report(overrides: Partial<ReportedCall> = {}): ReportedCall {
  return { call_id: "c1", state: "pending_delivery", ...overrides };
}

describe("decideReport", () => {
  it("an unknown call: nothing", () => {
    expect(decideReport(ME, report(), undefined)).toEqual({ action: "nothing", reason: "unknown_call" });
  });

  describe("never confirmed to start by this executor", () => {
    it("the run ended: run_terminated (do not execute)", () => {
      expect(decideReport(ME, report(), facts(claimed({ status: "cancelled" }), [], "cancelled"))).toEqual({
        action: "run_terminated",
        reason: "run_ended",
      });
      expect(decideReport(ME, report(), facts({ status: "pending" }, [], "failed")).action).toBe("run_terminated");
    });

    it("a compensation call ignores its run's end", () => {
      const compensation = facts(claimed({ compensates: "c0", turn: -1 }), ["rc1"], "completed");
      expect(decideReport(ME, report({ receipt_ids: ["rc1"] }), compensation)).toEqual({
        action: "nothing",
        reason: "up_to_date",
      });
    });

    it("the call ended (expired, cancelled, or settled by another executor): nothing", () => {
      expect(decideReport(ME, report(), facts({ status: "expired" }))).toEqual({
        action: "nothing",
        reason: "call_closed",
      });
      const settledByOther = facts({ status: "completed", executor_id: "e2", claim_id: "k", accepted_at_ms: 1 });
      expect(decideReport(ME, report(), settledByOther).reason).toBe("call_closed");
    });

    it("another executor holds it, its claim lapsed, or the claim differs: nothing", () => {
      const other = facts({ status: "accepted", executor_id: "e2", claim_id: "k", accepted_at_ms: 1 });
      expect(decideReport(ME, report(), other)).toEqual({ action: "nothing", reason: "not_held" });
      expect(decideReport(ME, report(), facts({ status: "pending" })).reason).toBe("not_held");
      expect(decideReport(ME, report({ claim_id: "old" }), facts(claimed())).reason).toBe("not_held");
      expect(decideReport(ME, report({ claim_id: "old" }), facts(started())).reason).toBe("not_held");
    });

    it("it still holds the unconfirmed claim and the server lacks its receipt: redeliver", () => {
      expect(decideReport(ME, report({ receipt_ids: ["rc-accepted"] }), facts(claimed()))).toEqual({
        action: "redeliver",
        reason: "missing_receipts",
      });
      expect(decideReport(ME, report({ claim_id: "clm1" }), facts(claimed())).action).toBe("redeliver");
    });

    it("it still holds the unconfirmed claim and the server has every receipt listed: nothing", () => {
      expect(decideReport(ME, report({ receipt_ids: ["rc-accepted"] }), facts(claimed(), ["rc-accepted"]))).toEqual({
        action: "nothing",
        reason: "up_to_date",
      });
    });
  });

  describe("confirmed to start by this executor", () => {
    it("the server lacks a listed receipt: redeliver, even after the run ended", () => {
      const reported = report({ receipt_ids: ["rc-accepted", "rc-done"] });
      expect(decideReport(ME, reported, facts(started(), ["rc-accepted"]))).toEqual({
        action: "redeliver",
        reason: "missing_receipts",
      });
      expect(decideReport(ME, reported, facts(started(), ["rc-accepted"], "cancelled")).action).toBe("redeliver");
    });

    it("the outcome is unknown and not reconciled: reconcile", () => {
      const unknown = facts(started({ status: "reconciliation_required" }), ["rc-accepted", "rc-unknown"]);
      expect(decideReport(ME, report({ state: "pending_reconciliation" }), unknown)).toEqual({
        action: "reconcile",
        reason: "reconciliation_open",
      });
      expect(decideReport(ME, report({ receipt_ids: ["rc-unknown"] }), unknown).action).toBe("reconcile");
    });

    it("accepted, and the executor's outcome is unknown: reconcile", () => {
      expect(decideReport(ME, report({ state: "pending_reconciliation" }), facts(started(), ["rc-accepted"]))).toEqual({
        action: "reconcile",
        reason: "reconciliation_open",
      });
    });

    it("accepted, and the executor holds undelivered receipts it did not name: redeliver", () => {
      expect(decideReport(ME, report(), facts(started(), ["rc-accepted"]))).toEqual({
        action: "redeliver",
        reason: "missing_receipts",
      });
    });

    it("accepted, and the server has every receipt listed: nothing", () => {
      expect(decideReport(ME, report({ receipt_ids: ["rc-accepted"] }), facts(started(), ["rc-accepted"]))).toEqual({
        action: "nothing",
        reason: "up_to_date",
      });
    });

    it("settled with every receipt listed held: nothing, whatever the run's status", () => {
      const done = facts(started({ status: "completed" }), ["rc-accepted", "rc-done"], "cancelled");
      expect(decideReport(ME, report({ receipt_ids: ["rc-done"] }), done)).toEqual({
        action: "nothing",
        reason: "settled",
      });
      expect(decideReport(ME, report({ state: "pending_reconciliation" }), done).reason).toBe("settled");
    });
  });

  it("receipt IDs count per claim: a report naming its claim is compared with that claim's receipts only", () => {
    // The executor's earlier claim (clm0, lapsed) used the ID the current claim clm1 still has to deliver.
    const both: ReportFacts = {
      ...facts(claimed()),
      receipts: [{ receipt_id: "acc", kind: "accepted", claim_id: "clm0", seq: 1 }],
    };
    const named = report({ claim_id: "clm1", receipt_ids: ["acc"] });
    expect(factsOfReportedClaim(named, both)?.receipts).toEqual([]);
    expect(decideReport(ME, named, factsOfReportedClaim(named, both))).toEqual({
      action: "redeliver",
      reason: "missing_receipts",
    });
    // Without a claim the report compares with every receipt of this executor, as before.
    const unnamed = report({ receipt_ids: ["acc"] });
    expect(factsOfReportedClaim(unnamed, both)).toBe(both);
    expect(factsOfReportedClaim(named, undefined)).toBeUndefined();
  });
});
