/**
 * The receipt commands of the protocol model: a new receipt of any kind under a claim some process
 * holds, a redelivery of any earlier receipt (the exact same body, or the same receipt spelled
 * differently), and a conflicting body under a stored receipt's ID. Each answer is judged against
 * the prediction, then the world is checked.
 */

import { compact, parseJson } from "@toolhost/protocol";
import type fc from "fast-check";
import type { Answer } from "../http/http-harness.js";
import { checkConfirmedAnswer, checkWorld } from "./protocol-model-checks.js";
import { predictReceipt, type ReceiptKind, type ReceiptPrediction } from "./protocol-model-predictions.js";
import {
  callOf,
  type KnownClaim,
  type ProtocolModel,
  type ReceiptAnswer,
  receiptKey,
  type SentReceipt,
} from "./protocol-model-state.js";
import { expectAnswer, fail, type ModelReal, note, send } from "./protocol-model-world.js";
import { conflictingText, receiptText } from "./protocol-receipt-bodies.js";

type Command = fc.AsyncCommand<ProtocolModel, ModelReal>;

/** The `index`-th member of `list` counted from its newest, cycling (small indexes shrink to recent items). */
function pick<T>(list: readonly T[], index: number): T {
  const item = list[list.length - 1 - (index % list.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
}

/**
 * Sends `text` as receipt `receiptId` under `claim` with `claim.key`'s secret, judges the answer, checks
 * the world. With `batched`, the receipt goes alone in a batch of the executor it names
 * (`POST /v1/executors/{id}/receipts`): the prediction is the per-call route's, read from the batch's
 * item (or from the whole answer when the batch is refused whole), and it is stored as its compact text.
 */
async function deliver(
  model: ProtocolModel,
  real: ModelReal,
  claim: KnownClaim,
  receiptId: string,
  text: string,
  prediction: ReceiptPrediction,
  batched = false,
): Promise<void> {
  if (!batched) {
    const path = `/v1/runs/${claim.runId}/tool-calls/${claim.callId}/receipts`;
    const answer = await send(real, "POST", path, real.keys[claim.key], text);
    judgeReceipt(model, real, claim, receiptId, text, prediction, answer);
    await checkWorld(model, real);
    return;
  }
  const executorId = model.executors[claim.exec].id;
  const batch = `{"receipts":[{"run_id":${JSON.stringify(claim.runId)},"call_id":${JSON.stringify(claim.callId)},"receipt":${text}}]}`;
  const whole = await send(real, "POST", `/v1/executors/${executorId}/receipts`, real.keys[claim.key], batch);
  let answer = whole;
  if (whole.status === 200) {
    const item = whole.body?.data?.[0];
    if (item === undefined || whole.body.data.length !== 1) fail(real, `a batch of one answered ${whole.text}`);
    answer = { status: item.status, body: item.body, text: JSON.stringify(item.body) } as Answer;
  }
  judgeReceipt(model, real, claim, receiptId, compact(parseJson(text)), prediction, answer);
  await checkWorld(model, real);
}

/** Judges a receipt's answer against its prediction and records what it changed. */
function judgeReceipt(
  model: ProtocolModel,
  real: ModelReal,
  claim: KnownClaim,
  receiptId: string,
  text: string,
  prediction: ReceiptPrediction,
  answer: Answer,
): void {
  const what = `receipt ${receiptId} (claim ${claim.claimId}, executor ${claim.exec}, key ${claim.key})`;
  if (prediction.type === "refuse") {
    if (prediction.wrongKey === true && answer.status < 300) {
      fail(real, `${what} came with a key that does not own the executor, and succeeded: ${answer.text}`);
    }
    if (answer.status !== prediction.status || answer.body?.error?.code !== prediction.code) {
      fail(real, `${what}: expected ${prediction.status} ${prediction.code}, got ${answer.status} ${answer.text}`);
    }
    return;
  }
  const body = expectAnswer(real, answer, 200, what) as ReceiptAnswer;
  if (prediction.type === "store") prediction.apply();
  if (body.confirmed === true) checkConfirmedAnswer(model, real, claim.callId, claim.claimId, what);
  if (JSON.stringify(body) !== JSON.stringify(prediction.answer)) {
    fail(real, `${what}: expected ${JSON.stringify(prediction.answer)}, got ${answer.text}`);
  }
  if (prediction.type === "store") {
    model.stored.push({
      callId: claim.callId,
      claimId: claim.claimId,
      exec: claim.exec,
      receiptId,
      text,
      answer: body,
    });
  }
}

/**
 * A new receipt of `kind` under a claim a process received (sent with the key that received it):
 * under a claim that can take it (an `accepted` under one holding its call `claimed`, anything else
 * under one holding it `accepted` or `reconciliation_required`) when there is one, or under `any`
 * claim received so far — stale, released or superseded ones included. With `reuse`, the receipt ID
 * is one another claim of the same call already used (receipt IDs count per claim), if there is one.
 */
export class ReceiptCommand implements Command {
  constructor(
    readonly claimIndex: number,
    readonly kind: ReceiptKind,
    readonly flavor: number,
    readonly any: boolean,
    readonly reuse = false,
    readonly batched = false,
  ) {}

  check(model: Readonly<ProtocolModel>): boolean {
    return model.claims.length > 0;
  }

  async run(model: ProtocolModel, real: ModelReal): Promise<void> {
    const fitting = model.claims.filter((claim) => {
      const call = callOf(model, claim.callId);
      if (call.claim?.claimId !== claim.claimId) return false;
      return this.kind === "accepted"
        ? call.status === "claimed"
        : call.status === "accepted" || call.status === "reconciliation_required";
    });
    const claim = pick(this.any || fitting.length === 0 ? model.claims : fitting, this.claimIndex);
    const taken = model.stored.find((other) => other.callId === claim.callId && other.claimId !== claim.claimId);
    const receiptId = this.reuse && taken !== undefined ? taken.receiptId : `r${model.nextReceipt++}`;
    const executorId = model.executors[claim.exec].id;
    const { text, respelled } = receiptText(claim, executorId, receiptId, this.kind, this.flavor);
    note(real, `${this} → ${receiptId} under ${claim.claimId}`);
    const prediction = predictReceipt(model, claim, claim.key, this.kind, receiptId, true, text);
    const sent: SentReceipt = {
      callId: claim.callId,
      runId: claim.runId,
      receiptId,
      kind: this.kind,
      text,
      respelled,
      claim,
    };
    model.sent.push(sent);
    await deliver(model, real, claim, receiptId, text, prediction, this.batched);
  }

  toString(): string {
    const id = this.reuse ? ", another claim's receipt ID" : "";
    const via = this.batched ? ", batched" : "";
    return `receipt(${this.any ? "any " : ""}claim#${this.claimIndex}, ${this.kind}, flavor ${this.flavor}${id}${via})`;
  }
}

/** The same receipt again — a redelivery after a lost answer — as first sent or spelled differently. */
export class RedeliverCommand implements Command {
  constructor(
    readonly sentIndex: number,
    readonly respell: boolean,
    readonly batched = false,
  ) {}

  check(model: Readonly<ProtocolModel>): boolean {
    return model.sent.length > 0;
  }

  async run(model: ProtocolModel, real: ModelReal): Promise<void> {
    const sent = pick(model.sent, this.sentIndex);
    const text = this.respell ? sent.respelled : sent.text;
    note(real, `${this} → ${sent.receiptId} (${sent.kind}) under ${sent.claim.claimId}`);
    const prediction = predictReceipt(
      model,
      sent.claim,
      sent.claim.key,
      sent.kind as ReceiptKind,
      sent.receiptId,
      true,
      text,
    );
    await deliver(model, real, sent.claim, sent.receiptId, text, prediction, this.batched);
  }

  toString(): string {
    return `redeliver(sent#${this.sentIndex}${this.respell ? ", respelled" : ""}${this.batched ? ", batched" : ""})`;
  }
}

/** Another body under a stored receipt's ID: 409 `receipt_conflict`, nothing changes. */
export class ConflictCommand implements Command {
  constructor(readonly storedIndex: number) {}

  check(model: Readonly<ProtocolModel>): boolean {
    return model.stored.length > 0;
  }

  async run(model: ProtocolModel, real: ModelReal): Promise<void> {
    const stored = pick(model.stored, this.storedIndex);
    const key = receiptKey(stored.callId, stored.claimId, stored.receiptId);
    const sent = model.sent.find(
      (candidate) => receiptKey(candidate.callId, candidate.claim.claimId, candidate.receiptId) === key,
    );
    if (sent === undefined) throw new Error(`model: stored receipt ${stored.receiptId} was never sent`);
    note(real, `${this} → ${sent.receiptId} under ${sent.claim.claimId}`);
    const text = conflictingText(sent.claim, model.executors[sent.claim.exec].id, sent.receiptId);
    const prediction = predictReceipt(model, sent.claim, sent.claim.key, "progress", sent.receiptId, false, text);
    await deliver(model, real, sent.claim, sent.receiptId, text, prediction);
  }

  toString(): string {
    return `conflict(stored#${this.storedIndex})`;
  }
}
