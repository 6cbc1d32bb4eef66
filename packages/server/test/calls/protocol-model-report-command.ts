/**
 * The journal report of the protocol model (`POST /v1/executors/{id}/calls/report`): an executor's
 * process reports a call of its journal — the claim it holds it under (or none), pending delivery or
 * reconciliation, the receipt IDs it saved (maybe one the server never got) — and the server must
 * answer what it has (the call's and run's statuses, this executor's receipt IDs of that claim in
 * arrival order) and what to do (docs/executors.md, Reporting the journal). A report changes nothing.
 */

import type fc from "fast-check";
import { checkWorld } from "./protocol-model-checks.js";
import {
  callOf,
  type ExecName,
  isFinal,
  isLive,
  type KnownClaim,
  type ProtocolModel,
  runActiveFor,
  runOf,
} from "./protocol-model-state.js";
import { expectAnswer, fail, type ModelReal, note, send } from "./protocol-model-world.js";

type Command = fc.AsyncCommand<ProtocolModel, ModelReal>;

/** What the executor reports of one call. */
interface Reported {
  readonly callId: string;
  readonly claimId: string | undefined;
  readonly state: "pending_delivery" | "pending_reconciliation";
  readonly receiptIds: readonly string[];
}

/** The answer the server must give for one reported call. */
interface CallReport {
  call_id: string;
  run_id: string;
  status: string;
  run_status: string;
  receipt_ids: string[];
  action: string;
  reason: string;
}

/** What the server must answer about `reported` from executor `exec`. */
export function predictReport(model: ProtocolModel, exec: ExecName, reported: Reported): CallReport {
  const call = callOf(model, reported.callId);
  const named = (claimId: string) => reported.claimId === undefined || reported.claimId === claimId;
  const held = call.claim !== null && call.claim.exec === exec && named(call.claim.claimId);
  // Confirmed to start by this executor, under the reported claim.
  const started = held && call.claim?.accepted === true;
  const has = model.stored
    .filter((receipt) => receipt.callId === call.callId && receipt.exec === exec && named(receipt.claimId))
    .map((receipt) => receipt.receiptId);
  const missing = reported.receiptIds.some((id) => !has.includes(id));
  const facts = {
    call_id: call.callId,
    run_id: call.runId,
    status: call.status,
    run_status: runOf(model, call.runId).status,
    receipt_ids: has,
  };
  const answer = (action: string, reason: string): CallReport => ({ ...facts, action, reason });
  if (!started) {
    if (!runActiveFor(model, call)) return answer("run_terminated", "run_ended");
    if (isFinal(call)) return answer("nothing", "call_closed");
    if (!held || call.status !== "claimed") return answer("nothing", "not_held");
    // Its claim is unconfirmed: what it still has to deliver is its `accepted`.
    return missing || reported.receiptIds.length === 0
      ? answer("redeliver", "missing_receipts")
      : answer("nothing", "up_to_date");
  }
  if (missing) return answer("redeliver", "missing_receipts");
  if (call.status === "reconciliation_required") return answer("reconcile", "reconciliation_open");
  if (call.status === "accepted") {
    if (reported.state === "pending_reconciliation") return answer("reconcile", "reconciliation_open");
    return reported.receiptIds.length === 0 ? answer("redeliver", "missing_receipts") : answer("nothing", "up_to_date");
  }
  return answer("nothing", "settled");
}

/**
 * The executor's process reports a call its journal holds under a claim it received: with or without
 * the claim ID, as pending delivery or reconciliation, listing the receipts it sent under that claim
 * (and, `unsent`, one the server never got).
 */
export class ReportCommand implements Command {
  constructor(
    readonly claimIndex: number,
    readonly reconciliation: boolean,
    readonly namesClaim: boolean,
    readonly unsent: boolean,
  ) {}

  check(model: Readonly<ProtocolModel>): boolean {
    return model.claims.some((claim) => claim.key === model.executors[claim.exec].owner);
  }

  async run(model: ProtocolModel, real: ModelReal): Promise<void> {
    const journal = model.claims.filter((claim) => claim.key === model.executors[claim.exec].owner);
    const claim = journal[journal.length - 1 - (this.claimIndex % journal.length)] as KnownClaim;
    const executor = model.executors[claim.exec];
    const saved = [
      ...new Set(model.sent.filter((sent) => sent.claim.claimId === claim.claimId).map((sent) => sent.receiptId)),
    ];
    const reported: Reported = {
      callId: claim.callId,
      claimId: this.namesClaim ? claim.claimId : undefined,
      state: this.reconciliation ? "pending_reconciliation" : "pending_delivery",
      receiptIds: this.unsent ? [...saved, "never-delivered"] : saved,
    };
    note(real, `${this} → ${claim.callId} under ${claim.claimId}`);
    const body = {
      connection_id: executor.connectionId,
      calls: [
        {
          call_id: reported.callId,
          ...(reported.claimId === undefined ? {} : { claim_id: reported.claimId }),
          state: reported.state,
          receipt_ids: reported.receiptIds,
        },
      ],
    };
    const answer = await send(
      real,
      "POST",
      `/v1/executors/${executor.id}/calls/report`,
      real.keys[executor.owner],
      body,
    );
    if (!isLive(model, claim.exec)) {
      if (answer.status !== 409 || answer.body?.error?.code !== "connection_offline") {
        fail(real, `${this}: expected 409 connection_offline, got ${answer.status} ${answer.text}`);
      }
    } else {
      const got = expectAnswer(real, answer, 200, `${this}`).calls?.[0];
      const expected = predictReport(model, claim.exec, reported);
      if (JSON.stringify(got) !== JSON.stringify(expected)) {
        fail(real, `${this}: expected ${JSON.stringify(expected)}, got ${answer.text}`);
      }
    }
    await checkWorld(model, real);
  }

  toString(): string {
    const how = [this.reconciliation ? "pending reconciliation" : "pending delivery"];
    if (!this.namesClaim) how.push("without its claim ID");
    if (this.unsent) how.push("listing a receipt never delivered");
    return `report(claim#${this.claimIndex}, ${how.join(", ")})`;
  }
}
