// The pure receipt decision, status by kind: what the HTTP scenarios cannot reach cheaply.
import { MeasuredResult, RECEIPT_KINDS, type ReceiptKind, type RunStatus } from "@toolhost/protocol";
import { describe, expect, it } from "vitest";
import { decideReceipt, type ProgressFacts, type VerifiedReceipt } from "../../src/calls/decide-receipt.js";
import { grantHash } from "../../src/calls/grant.js";
import type { CallRecord } from "../../src/storage/records.js";
import { callRecord, receiptRecord } from "../support/call-fixtures.js";

const NOW = 50_000;
const GRANT = "g".repeat(43);

function held(overrides: Partial<CallRecord>): CallRecord {
  return callRecord("r1", "c1", {
    executor_id: "e1",
    claim_id: "clm1",
    grant_hash: grantHash(GRANT),
    claimed_at_ms: 40_000,
    accept_deadline_ms: 70_000,
    ...overrides,
  });
}

function incoming(kind: ReceiptKind, overrides: Partial<VerifiedReceipt> = {}): VerifiedReceipt {
  return {
    receipt_id: `r-${kind}`,
    executor_id: "e1",
    claim_id: "clm1",
    grant: GRANT,
    kind,
    result: kind === "completed" ? MeasuredResult.of({ ok: true }) : undefined,
    result_type: "json",
    error: kind === "failed" ? { code: "x" } : undefined,
    progress_bytes: kind === "progress" ? 14 : undefined,
    body_text: "{}",
    body_digest: `sha256:${kind}`,
    grant_authentic: true,
    ...overrides,
  };
}

/** Progress limits no test receipt reaches. */
const ROOMY: ProgressFacts = { stored: 0, maxPerCall: 100, maxBytes: 65_536 };

/** The outcome of a decision in one word: `store:<status>`, `replay`, or the refusal's code. */
function outcome(
  call: CallRecord,
  kind: ReceiptKind,
  runStatus: "waiting_for_tools" | "cancelled" = "waiting_for_tools",
): string {
  const decision = decideReceipt(call, runStatus, undefined, incoming(kind), NOW, ROOMY);
  if (decision.type === "refuse") return decision.error.code;
  if (decision.type === "replay") return "replay";
  return `store:${decision.call_status}${decision.confirmed === undefined ? "" : decision.confirmed ? "+confirmed" : "+unconfirmed"}`;
}

const PROGRESS_ANSWER =
  '{"receipt_id":"r-progress","kind":"progress","replayed":false,"applied":true,"call_status":"accepted","run_status":"waiting_for_tools"}';
const ACCEPTED_ANSWER =
  '{"receipt_id":"r-accepted","kind":"accepted","replayed":false,"confirmed":true,"applied":true,"call_status":"accepted","run_status":"waiting_for_tools"}';

/** The replay answer of a stored, first-confirmed `accepted` of claim clm1 on `call` (run in `runStatus`) at `nowMs`. */
function acceptedReplay(
  call: CallRecord,
  runStatus: RunStatus = "waiting_for_tools",
  nowMs = NOW,
  overrides: Partial<VerifiedReceipt> = {},
): Record<string, unknown> {
  const existing = receiptRecord("c1", "r-accepted", 1, {
    kind: "accepted",
    body_digest: "sha256:accepted",
    answer_json: ACCEPTED_ANSWER,
  });
  const decision = decideReceipt(call, runStatus, existing, incoming("accepted", overrides), nowMs, ROOMY);
  if (decision.type !== "replay") throw new Error(`expected a replay, got ${JSON.stringify(decision)}`);
  return JSON.parse(decision.answer_json) as Record<string, unknown>;
}

describe("decideReceipt", () => {
  it("answers every kind in every status the claim may hold", () => {
    const kinds = Object.keys(RECEIPT_KINDS) as ReceiptKind[];
    const table = Object.fromEntries(
      (["claimed", "accepted", "reconciliation_required", "completed", "expired"] as const).map((status) => [
        status,
        Object.fromEntries(kinds.map((kind) => [kind, outcome(held({ status }), kind)])),
      ]),
    );
    expect(table).toEqual({
      claimed: {
        accepted: "store:accepted+confirmed",
        progress: "accept_required",
        completed: "accept_required",
        failed: "accept_required",
        cancelled: "accept_required",
        reconciliation_required: "accept_required",
      },
      accepted: {
        accepted: "store:accepted+confirmed",
        progress: "store:accepted",
        completed: "store:completed",
        failed: "store:failed",
        cancelled: "store:cancelled",
        reconciliation_required: "store:reconciliation_required",
      },
      reconciliation_required: {
        accepted: "store:reconciliation_required+unconfirmed",
        progress: "store:reconciliation_required",
        completed: "store:completed",
        failed: "store:failed",
        cancelled: "store:cancelled",
        reconciliation_required: "call_already_final",
      },
      completed: {
        accepted: "store:completed+unconfirmed",
        progress: "call_already_final",
        completed: "call_already_final",
        failed: "call_already_final",
        cancelled: "call_already_final",
        reconciliation_required: "call_already_final",
      },
      expired: {
        accepted: "store:expired+unconfirmed",
        progress: "call_already_final",
        completed: "call_already_final",
        failed: "call_already_final",
        cancelled: "call_already_final",
        reconciliation_required: "call_already_final",
      },
    });
  });

  it("a lapsed accept window, another claim or a released call: accepted is unconfirmed, the rest accept_required", () => {
    expect(outcome(held({ status: "claimed", accept_deadline_ms: NOW - 1 }), "accepted")).toBe(
      "store:claimed+unconfirmed",
    );
    expect(outcome(held({ status: "claimed", accept_deadline_ms: NOW }), "accepted")).toBe("store:accepted+confirmed");
    const other = held({ status: "accepted", claim_id: "clm2" });
    expect(outcome(other, "accepted")).toBe("store:accepted+unconfirmed");
    expect(outcome(other, "completed")).toBe("accept_required");
    const released = callRecord("r1", "c1");
    expect(outcome(released, "accepted")).toBe("store:pending+unconfirmed");
    expect(outcome(released, "progress")).toBe("accept_required");
  });

  it("on an ended run: accepted is unconfirmed, outcomes still move the call but are not applied", () => {
    expect(outcome(held({ status: "claimed" }), "accepted", "cancelled")).toBe("store:claimed+unconfirmed");
    const decision = decideReceipt(
      held({ status: "accepted" }),
      "cancelled",
      undefined,
      incoming("completed"),
      NOW,
      ROOMY,
    );
    expect(decision).toMatchObject({ type: "store", applied: false, call_status: "completed" });
    const compensation = held({ status: "claimed", compensates: "c0" });
    expect(outcome(compensation, "accepted", "cancelled")).toBe("store:accepted+confirmed");
  });

  it("grant checks come first; a replay or conflict is answered even after the deadline", () => {
    const call = held({ status: "accepted" });
    // Not the signature for the sending key, and not the grant the holding claim was issued: refused.
    const foreign = incoming("progress", { grant_authentic: false, grant: "f".repeat(43) });
    expect(decideReceipt(call, "waiting_for_tools", undefined, foreign, NOW, ROOMY)).toMatchObject({
      type: "refuse",
      error: { code: "invalid_grant" },
    });
    const otherClaim = incoming("progress", { grant_authentic: false, claim_id: "clm2" });
    expect(decideReceipt(call, "waiting_for_tools", undefined, otherClaim, NOW, ROOMY)).toMatchObject({
      error: { code: "invalid_grant" },
    });
    // Exactly the grant issued to the holding claim (its hash is on the row) is honoured although it is
    // not this key's signature: issued before the executor's key changed, or in the pre-upgrade format.
    const issued = incoming("progress", { grant_authentic: false });
    expect(decideReceipt(call, "waiting_for_tools", undefined, issued, NOW, ROOMY)).toMatchObject({
      type: "store",
      call_status: "accepted",
    });
    const existing = receiptRecord("c1", "r-progress", 1, {
      body_digest: "sha256:progress",
      answer_json: PROGRESS_ANSWER,
    });
    const late = call.deadline_ms + 1;
    expect(decideReceipt(call, "waiting_for_tools", existing, incoming("progress"), late, ROOMY)).toEqual({
      type: "replay",
      answer_json: PROGRESS_ANSWER.replace('"replayed":false', '"replayed":true'),
    });
    expect(
      decideReceipt(
        call,
        "waiting_for_tools",
        existing,
        incoming("progress", { body_digest: "sha256:other" }),
        late,
        ROOMY,
      ),
    ).toMatchObject({ type: "refuse", error: { code: "receipt_conflict" } });
    expect(decideReceipt(call, "waiting_for_tools", undefined, incoming("progress"), late, ROOMY)).toMatchObject({
      error: { code: "invalid_grant" },
    });
    expect(decideReceipt(call, "waiting_for_tools", undefined, incoming("completed"), late, ROOMY)).toMatchObject({
      type: "store",
      call_status: "completed",
    });
    // A grant whose hash is not the stored one does not hold the call, even with matching IDs.
    const rotated = held({ status: "accepted", grant_hash: grantHash("other") });
    expect(outcome(rotated, "completed")).toBe("accept_required");
  });

  it("a replayed accepted is confirmed only while the claim holds the call accepted, before its deadline, on an active run", () => {
    const accepted = held({ status: "accepted", accepted_at_ms: 45_000 });
    expect(acceptedReplay(accepted)).toEqual({ ...JSON.parse(ACCEPTED_ANSWER), replayed: true });
    // The deadline has come (the sweep has not moved the call yet): no longer a go-ahead.
    expect(acceptedReplay(accepted, "waiting_for_tools", accepted.deadline_ms)).toMatchObject({
      confirmed: false,
      call_status: "accepted",
    });
    expect(acceptedReplay(accepted, "waiting_for_tools", accepted.deadline_ms - 1)).toMatchObject({ confirmed: true });
    // The sweep moved it to reconciliation; the run has ended, been cancelled; the call settled.
    expect(acceptedReplay(held({ status: "reconciliation_required" }), "waiting_for_tools", NOW)).toMatchObject({
      confirmed: false,
      call_status: "reconciliation_required",
    });
    for (const runStatus of ["completed", "cancelled", "failed", "expired"] as const) {
      expect(acceptedReplay(accepted, runStatus)).toMatchObject({ confirmed: false, run_status: runStatus });
    }
    expect(acceptedReplay(held({ status: "completed" }))).toMatchObject({ confirmed: false, call_status: "completed" });
    // Another claim holds the call now (this one lapsed): not this claim's go-ahead, even for the same executor.
    expect(acceptedReplay(held({ status: "accepted", claim_id: "clm2" }))).toMatchObject({ confirmed: false });
    expect(acceptedReplay(callRecord("r1", "c1"))).toMatchObject({ confirmed: false, call_status: "pending" });
    // A compensation call ignores its run's end, as its first delivery does.
    expect(acceptedReplay(held({ status: "accepted", compensates: "c0" }), "completed")).toMatchObject({
      confirmed: true,
      run_status: "completed",
    });
    // The answer keeps its members in their first order; `applied` stays as first decided.
    expect(Object.keys(acceptedReplay(held({ status: "completed" })))).toEqual(
      Object.keys(JSON.parse(ACCEPTED_ANSWER)),
    );
  });

  it("a replay of another kind keeps its first answer but tells the call's and run's statuses as they are now", () => {
    const existing = receiptRecord("c1", "r-progress", 1, {
      body_digest: "sha256:progress",
      answer_json: PROGRESS_ANSWER,
    });
    const decision = decideReceipt(
      held({ status: "completed" }),
      "completed",
      existing,
      incoming("progress"),
      NOW,
      ROOMY,
    );
    expect(decision.type === "replay" ? JSON.parse(decision.answer_json) : decision).toEqual({
      receipt_id: "r-progress",
      kind: "progress",
      replayed: true,
      applied: true,
      call_status: "completed",
      run_status: "completed",
    });
  });
  it("a first answer stored as NULL (0019) replays byte for byte as the answer it stands for", () => {
    const cases = [
      { kind: "accepted", answer: ACCEPTED_ANSWER, receiptId: "r-accepted", applied: true },
      { kind: "progress", answer: PROGRESS_ANSWER, receiptId: "r-progress", applied: true },
      {
        kind: "progress",
        answer: PROGRESS_ANSWER.replace('"applied":true', '"applied":false'),
        receiptId: "r-progress",
        applied: false,
      },
    ] as const;
    for (const { kind, answer, receiptId, applied } of cases) {
      for (const [call, runStatus] of [
        [held({ status: "accepted", accepted_at_ms: 45_000 }), "waiting_for_tools"],
        [held({ status: "completed" }), "completed"],
        [callRecord("r1", "c1"), "cancelled"],
      ] as const) {
        const facts = { kind, body_digest: `sha256:${kind}`, applied };
        const withText = receiptRecord("c1", receiptId, 1, { ...facts, answer_json: answer });
        const withNull = receiptRecord("c1", receiptId, 1, { ...facts, answer_json: null });
        const replay = (existing: typeof withText) =>
          decideReceipt(call, runStatus, existing, incoming(kind), NOW, ROOMY);
        expect(replay(withNull)).toEqual(replay(withText));
        expect(replay(withNull).type).toBe("replay");
      }
    }
  });
});
