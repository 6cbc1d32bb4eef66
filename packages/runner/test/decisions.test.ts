// The pure decisions: claim verification, handler outcomes, delivery verdicts, recovery plans, backoff.
import { argumentsDigest, compact, parseJson } from "@toolhost/protocol";
import type { CallReport } from "@toolhost/protocol/wire";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backoffDelayMs } from "../src/decisions/backoff.js";
import { decideDelivery } from "../src/decisions/delivery-outcome.js";
import { decideHandlerOutcome } from "../src/decisions/handler-outcome.js";
import { draftOfReconcile } from "../src/decisions/reconcile-outcome.js";
import { planRecovery, reportedCallOf } from "../src/decisions/recovery-plan.js";
import { replacementOfRefused } from "../src/decisions/refused-final-receipt.js";
import { verifyClaim } from "../src/decisions/verify-claim.js";
import { BusinessError, CancelledError } from "../src/errors.js";
import { ANSWER_READERS, answerOutcome } from "../src/http/answer-reader.js";
import type { JournalEntry, JournalState, OutboxReceipt } from "../src/journal/journal-records.js";
import type { ToolCall } from "../src/tool-call.js";

function toolCall(args: string, overrides: Partial<ToolCall> = {}): ToolCall {
  const value = parseJson(args);
  return {
    runId: "run-1",
    callId: "call-1",
    toolName: "tasks.create",
    bindingId: "b1",
    effect: "write",
    arguments: JSON.parse(args),
    argumentsJson: compact(value),
    argumentsDigest: argumentsDigest(value),
    subject: "user-1",
    agentId: "agent-1",
    agentVersion: "agv-1",
    toolsetId: "ts-1",
    toolsetVersion: 1,
    deadline: "2026-01-01T00:00:00.000Z",
    acceptDeadline: "2026-01-01T00:00:00.000Z",
    claimId: "clm-1",
    ...overrides,
  };
}

const policy = {
  tools: new Map([["tasks.create", "write" as const]]),
  bindingIds: ["b1"],
  agentIds: null,
};

describe("verifyClaim", () => {
  it("accepts any arguments whose digest the runner recomputes identically (big integers included)", () => {
    fc.assert(
      fc.property(fc.json(), fc.bigInt({ min: 10n ** 20n, max: 10n ** 25n }), (json, big) => {
        const text = `{"payload":${json},"big":${big}}`;
        const value = parseJson(text);
        expect(verifyClaim(toolCall(text), value, policy)).toEqual({ ok: true });
      }),
      { numRuns: 200 },
    );
  });

  it("refuses arguments that differ from their digest, even in one digit of a big integer", () => {
    const call = toolCall('{"amount":12345678901234567890}');
    const tampered = parseJson('{"amount":12345678901234567891}');
    expect(verifyClaim(call, tampered, policy)).toMatchObject({ ok: false, code: "arguments_digest_mismatch" });
  });

  it("refuses unknown tools, foreign bindings, write calls registered as read and foreign agents", () => {
    const args = parseJson("{}");
    expect(verifyClaim(toolCall("{}", { toolName: "other" }), args, policy)).toMatchObject({ code: "unknown_tool" });
    expect(verifyClaim(toolCall("{}", { bindingId: "b2" }), args, policy)).toMatchObject({
      code: "binding_not_served",
    });
    const readPolicy = { ...policy, tools: new Map([["tasks.create", "read" as const]]) };
    expect(verifyClaim(toolCall("{}"), args, readPolicy)).toMatchObject({ code: "effect_mismatch" });
    const agents = { ...policy, agentIds: new Set(["agent-2"]) };
    expect(verifyClaim(toolCall("{}"), args, agents)).toMatchObject({ code: "agent_not_allowed" });
  });
});

describe("decideHandlerOutcome", () => {
  const write = { effect: "write" as const, deferred: false, resultType: undefined };

  it("reports a returned value as completed (undefined as null), with the registered result type", () => {
    const outcome = decideHandlerOutcome({ type: "returned", value: { id: 7n } }, write);
    expect(outcome).toMatchObject({ type: "receipt", state: "finishing", draft: { kind: "completed" } });
    if (outcome.type === "receipt") expect(compact(outcome.draft.result ?? null)).toBe('{"id":7}');
    const none = decideHandlerOutcome({ type: "returned", value: undefined }, { ...write, resultType: "opaque" });
    expect(none).toMatchObject({ draft: { kind: "completed", result: null, resultType: "opaque" } });
  });

  it("reports BusinessError as failed and CancelledError as cancelled, with their details", () => {
    const failed = decideHandlerOutcome(
      { type: "threw", error: new BusinessError("quota", "over quota", { left: 0 }) },
      write,
    );
    expect(failed).toMatchObject({ state: "finishing", draft: { kind: "failed" } });
    if (failed.type === "receipt") {
      expect(compact(failed.draft.error ?? null)).toBe('{"code":"quota","message":"over quota","details":{"left":0}}');
    }
    const cancelled = decideHandlerOutcome({ type: "threw", error: new CancelledError("stopped") }, write);
    expect(cancelled).toMatchObject({ state: "finishing", draft: { kind: "cancelled" } });
  });

  it("sends any other exception of a write tool to reconciliation, of a read tool to failed", () => {
    const error = new TypeError("boom");
    expect(decideHandlerOutcome({ type: "threw", error }, write)).toMatchObject({
      state: "reconciling",
      code: "handler_exception",
      draft: { kind: "reconciliation_required" },
    });
    expect(decideHandlerOutcome({ type: "threw", error }, { ...write, effect: "read" })).toMatchObject({
      state: "finishing",
      draft: { kind: "failed" },
    });
    expect(decideHandlerOutcome({ type: "threw", error: "a string" }, write)).toMatchObject({ state: "reconciling" });
  });

  it("treats a result JSON cannot express as an unknown outcome (the effect may have happened)", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(decideHandlerOutcome({ type: "returned", value: cyclic }, write)).toMatchObject({
      state: "reconciling",
      code: "invalid_result",
    });
    expect(decideHandlerOutcome({ type: "returned", value: Number.NaN }, write)).toMatchObject({
      code: "invalid_result",
    });
  });

  it("reports nothing for a deferred call that returned, and clips long messages to well-formed text", () => {
    expect(decideHandlerOutcome({ type: "returned", value: 1 }, { ...write, deferred: true })).toEqual({
      type: "deferred",
    });
    const long = new Error(`${"x".repeat(498)}😀😀`);
    const outcome = decideHandlerOutcome({ type: "threw", error: long }, write);
    if (outcome.type !== "receipt") throw new Error("expected a receipt");
    const text = compact(outcome.draft.error ?? null);
    expect(text.isWellFormed()).toBe(true);
    expect((JSON.parse(text) as { message: string }).message.length).toBeLessThanOrEqual(500);
  });
});

describe("decideDelivery", () => {
  const answer = (text: string) => answerOutcome(ANSWER_READERS.receipt, 200, text, "application/json");
  const refused = (status: number, code: string) => ({
    type: "refused" as const,
    status,
    code,
    message: "",
    details: undefined,
  });

  it("acknowledges a 200 answer, first or replayed", () => {
    const text =
      '{"receipt_id":"r","kind":"accepted","replayed":true,"confirmed":false,"applied":false,"call_status":"cancelled","run_status":"cancelled"}';
    expect(decideDelivery(answer(text))).toMatchObject({
      type: "acked",
      answer: { replayed: true, confirmed: false, applied: false, callStatus: "cancelled" },
    });
  });

  it("retries no answer, server errors, overload and credential problems; rejects the rest for good", () => {
    expect(decideDelivery({ type: "unreachable", message: "ECONNREFUSED", aborted: false }).type).toBe("retry");
    for (const [status, code] of [
      [500, "internal_error"],
      [503, "http_503"],
      [429, "http_429"],
      [401, "unauthorized"],
      [403, "forbidden"],
      // Another key took the executor ID over: the receipt waits in the journal until the key is fixed.
      [403, "executor_key_mismatch"],
    ] as const) {
      expect(decideDelivery(refused(status, code)).type, code).toBe("retry");
    }
    for (const [status, code] of [
      [403, "invalid_grant"],
      [404, "not_found"],
      [409, "call_already_final"],
      [409, "receipt_conflict"],
      [409, "accept_required"],
      [413, "body_too_large"],
      [422, "validation_failed"],
    ] as const) {
      expect(decideDelivery(refused(status, code)), code).toMatchObject({ type: "rejected", code });
    }
    expect(decideDelivery(answer("not json")).type).toBe("retry");
    expect(decideDelivery(answer('{"receipt_id":"r","replayed":"yes"}'))).toMatchObject({
      type: "retry",
      trouble: { kind: "transient", code: "malformed_answer" },
    });
    expect(decideDelivery(refused(401, "unauthorized"))).toMatchObject({ trouble: { kind: "refused" } });
  });
});

function entry(state: JournalState, effect: "write" | "read" = "write"): JournalEntry {
  return {
    callId: "c1",
    runId: "r1",
    toolName: "t",
    effect,
    executorId: "e1",
    claimId: "clm",
    grant: "g",
    operationKey: "r1:c1",
    callJson: "{}",
    state,
    stateReason: null,
    handleId: null,
    createdAtMs: 0,
    updatedAtMs: 0,
  };
}

function report(action: CallReport["action"], reason: CallReport["reason"], status: CallReport["status"]): CallReport {
  return { call_id: "c1", run_id: "r1", status, run_status: "waiting_for_tools", receipt_ids: [], action, reason };
}

describe("replacementOfRefused", () => {
  const receipt = (kind: OutboxReceipt["kind"], bodyText = '{"kind":"completed"}') => ({
    receiptId: "r-1",
    kind,
    bodyText,
  });
  const refusal = (status: number, code: string) => ({ status, code, message: "no" });

  it("replaces a known outcome refused for its body (400, 413, 422) with failed result_refused", () => {
    for (const [status, code] of [
      [400, "invalid_json"],
      [413, "body_too_large"],
      [422, "validation_failed"],
    ] as const) {
      for (const kind of ["completed", "failed", "cancelled"] as const) {
        const draft = replacementOfRefused(receipt(kind), refusal(status, code));
        expect(draft?.kind).toBe("failed");
        expect(JSON.parse(compact(draft?.error ?? null))).toEqual({
          code: "result_refused",
          message: `the server refused the ${kind} receipt for good (${status} ${code}: no); the handler's outcome was not delivered`,
          details: { status, code, refused_kind: kind, refused_receipt_id: "r-1" },
        });
      }
    }
  });

  it("replaces nothing refused about the call, an unknown outcome, progress, or a replacement itself", () => {
    expect(replacementOfRefused(receipt("completed"), refusal(409, "call_already_final"))).toBeUndefined();
    expect(replacementOfRefused(receipt("completed"), refusal(403, "invalid_grant"))).toBeUndefined();
    expect(replacementOfRefused(receipt("reconciliation_required"), refusal(413, "body_too_large"))).toBeUndefined();
    expect(replacementOfRefused(receipt("progress"), refusal(413, "body_too_large"))).toBeUndefined();
    expect(replacementOfRefused(receipt("accepted"), refusal(422, "validation_failed"))).toBeUndefined();
    const replacement = '{"kind":"failed","error":{"code":"result_refused","message":"x"}}';
    expect(replacementOfRefused(receipt("failed", replacement), refusal(422, "validation_failed"))).toBeUndefined();
  });
});

describe("planRecovery", () => {
  it("resumes an unconfirmed accept unless the call is not ours any more", () => {
    expect(planRecovery(entry("accepting"), report("redeliver", "missing_receipts", "claimed"))).toEqual({
      type: "resume_accept",
    });
    expect(planRecovery(entry("accepting"), report("nothing", "up_to_date", "accepted"))).toEqual({
      type: "resume_accept",
    });
    expect(planRecovery(entry("accepting"), report("run_terminated", "run_ended", "cancelled"))).toEqual({
      type: "abandon",
      reason: "run_ended",
    });
    expect(planRecovery(entry("accepting"), report("nothing", "not_held", "claimed"))).toMatchObject({
      type: "abandon",
    });
    expect(planRecovery(entry("accepting"), report("nothing", "call_closed", "expired"))).toMatchObject({
      type: "abandon",
    });
  });

  it("never runs a confirmed write handler again: it reconciles (sending unknown only when the server lacks it)", () => {
    expect(planRecovery(entry("running"), report("reconcile", "reconciliation_open", "accepted"))).toEqual({
      type: "reconcile",
      sendUnknown: true,
    });
    expect(
      planRecovery(entry("running"), report("reconcile", "reconciliation_open", "reconciliation_required")),
    ).toEqual({
      type: "reconcile",
      sendUnknown: false,
    });
    expect(planRecovery(entry("running"), report("nothing", "settled", "completed"))).toEqual({
      type: "close",
      reason: "settled",
    });
  });

  it("runs a read handler again", () => {
    expect(planRecovery(entry("running", "read"), report("nothing", "up_to_date", "accepted"))).toEqual({
      type: "rerun",
    });
  });

  it("redelivers finishing calls whatever the server says, reconciles reconciling ones, waits on the rest", () => {
    expect(planRecovery(entry("finishing"), report("nothing", "settled", "completed"))).toEqual({ type: "deliver" });
    expect(planRecovery(entry("finishing"), report("redeliver", "missing_receipts", "accepted"))).toEqual({
      type: "deliver",
    });
    expect(
      planRecovery(entry("reconciling"), report("reconcile", "reconciliation_open", "reconciliation_required")),
    ).toEqual({
      type: "reconcile",
      sendUnknown: false,
    });
    expect(planRecovery(entry("deferred"), undefined)).toEqual({ type: "wait" });
    expect(planRecovery(entry("running"), undefined)).toEqual({ type: "wait" });
  });

  it("reports each state as the protocol names it, pending receipts first", () => {
    const receipts = (["delivered", "pending", "obsolete"] as const).map(
      (state, index): OutboxReceipt => ({
        receiptId: `r${index}`,
        callId: "c1",
        seq: index,
        kind: "accepted",
        bodyText: "{}",
        state,
        attempts: 0,
        answerJson: null,
        rejectCode: null,
        createdAtMs: 0,
        updatedAtMs: 0,
      }),
    );
    expect(reportedCallOf(entry("accepting"), receipts)).toEqual({
      call_id: "c1",
      claim_id: "clm",
      state: "pending_delivery",
      receipt_ids: ["r1", "r0"],
    });
    expect(reportedCallOf(entry("running"), [])?.state).toBe("pending_reconciliation");
    expect(reportedCallOf(entry("running", "read"), [])?.state).toBe("pending_delivery");
    expect(reportedCallOf(entry("reconciling"), [])?.state).toBe("pending_reconciliation");
    expect(reportedCallOf(entry("deferred"), [])).toBeUndefined();
    expect(reportedCallOf(entry("done"), [])).toBeUndefined();
  });
});

describe("backoffDelayMs", () => {
  it("stays within [step/2, step] of an exponential step capped at the maximum", () => {
    fc.assert(
      fc.property(fc.nat(60), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, random) => {
        const bounds = { minMs: 100, maxMs: 10_000 };
        const step = Math.min(bounds.maxMs, bounds.minMs * 2 ** Math.min(attempt, 30));
        const delay = backoffDelayMs(attempt, bounds, random);
        expect(delay).toBeGreaterThanOrEqual(Math.floor(step / 2));
        expect(delay).toBeLessThanOrEqual(step);
      }),
    );
  });
});

describe("draftOfReconcile", () => {
  it("turns each outcome into its terminal receipt and refuses malformed answers", () => {
    expect(draftOfReconcile({ kind: "completed", result: { id: 1 } })).toMatchObject({
      ok: true,
      draft: { kind: "completed" },
    });
    expect(draftOfReconcile({ kind: "completed", result: 1 }, "opaque")).toMatchObject({
      draft: { resultType: "opaque" },
    });
    expect(
      draftOfReconcile({ kind: "failed", error: new BusinessError("not_applied", "never happened") }),
    ).toMatchObject({
      ok: true,
      draft: { kind: "failed" },
    });
    expect(draftOfReconcile({ kind: "cancelled" })).toMatchObject({ ok: true, draft: { kind: "cancelled" } });
    expect(draftOfReconcile({ kind: "failed" } as never)).toMatchObject({ ok: false });
    expect(draftOfReconcile({ kind: "maybe" } as never)).toMatchObject({ ok: false });
  });
});
