/**
 * A mixed batch of the protocol model through `POST /v1/executors/{executor_id}/receipts`
 * (docs/executors.md, Batched executors): a new receipt under a claim that can take it (and maybe
 * another under a second such claim of another call: two outcomes of one run side by side), a replay
 * (an earlier receipt of the executor, or the batch's own new one again, maybe spelled differently),
 * optionally a new receipt under a claim that lost its call or whose call or run ended, and
 * optionally one naming the other executor (422 for that item alone), in a generated order. Each
 * item must answer what the per-call route answers for it on the model.
 *
 * One call's receipts are recorded in request order, different calls' side by side: the server may
 * record them in any order that keeps each call's own order (each receipt is its own transaction,
 * those of one run serialized by the run's lock). The answers must be those of one such order;
 * the model then takes that order's changes.
 */

import { compact, parseJson } from "@toolhost/protocol";
import type fc from "fast-check";
import { checkConfirmedAnswer, checkWorld } from "./protocol-model-checks.js";
import { predictReceipt, type ReceiptKind } from "./protocol-model-predictions.js";
import {
  callOf,
  type ExecName,
  isFinal,
  type KeyName,
  type KnownClaim,
  otherExec,
  type ProtocolModel,
  runActiveFor,
} from "./protocol-model-state.js";
import { fail, type ModelReal, note, send } from "./protocol-model-world.js";
import { receiptText } from "./protocol-receipt-bodies.js";

type Command = fc.AsyncCommand<ProtocolModel, ModelReal>;

/** What a batch item is there for. */
type Role = "new" | "second" | "replay" | "stale" | "foreign";

/** One receipt of the batch. */
interface BatchItem {
  readonly role: Role;
  /** The position of its claim in `model.claims` (the same in a copy of the model). */
  readonly claimAt: number;
  readonly receiptId: string;
  readonly kind: ReceiptKind;
  /** The receipt's text as it goes into the batch. */
  readonly text: string;
}

/** What one item must answer: a status with a code, or 200 with a receipt answer. */
interface ItemAnswer {
  readonly status: number;
  readonly code?: string;
  /** The 200 body as text (member order matters). */
  readonly body?: string;
}

/** The choices of one generated mixed batch. */
export interface BatchShape {
  /** Picks the claim the new receipt goes under (a fitting one when there is one). */
  readonly claimIndex: number;
  readonly kind: ReceiptKind;
  readonly flavor: number;
  /** Picks another claim of the executor that can take the same kind, for a second new receipt (none: no such item). */
  readonly secondIndex: number | null;
  /** The replay: one of the executor's earlier receipts (`sent`), or the batch's new receipt again (`own`). */
  readonly replay: "sent" | "own";
  readonly replayIndex: number;
  readonly respell: boolean;
  /** Picks a claim that lost its call or whose call or run ended, for a new receipt (none: no such item). */
  readonly staleIndex: number | null;
  readonly staleKind: ReceiptKind;
  /** Whether an item names the other executor. */
  readonly foreign: boolean;
  /** Picks the order of the items in the request. */
  readonly order: number;
}

/** The `index`-th member of `list` counted from its newest, cycling. */
function pick<T>(list: readonly T[], index: number): T | undefined {
  return list[list.length - 1 - (index % Math.max(list.length, 1))];
}

/** The `order`-th permutation of `items` (any number; taken modulo the count of permutations). */
function permute<T>(items: readonly T[], order: number): T[] {
  const rest = [...items];
  const out: T[] = [];
  let code = order;
  while (rest.length > 0) {
    const [taken] = rest.splice(code % rest.length, 1) as [T];
    code = Math.floor(code / (rest.length + 1));
    out.push(taken);
  }
  return out;
}

/** Every order of `0 … count-1` that keeps the relative order of items sharing a group. */
function serialOrders(groups: readonly string[]): number[][] {
  const orders: number[][] = [];
  const extend = (prefix: number[], left: number[]): void => {
    if (left.length === 0) orders.push(prefix);
    for (const index of left) {
      // Only the first of its group still left may go next.
      if (left.find((other) => groups[other] === groups[index]) !== index) continue;
      extend(
        [...prefix, index],
        left.filter((other) => other !== index),
      );
    }
  };
  extend(
    [],
    groups.map((_, index) => index),
  );
  return orders;
}

/**
 * Plays `items` on `model` in `order` as the per-call route would take them from `key` (changing
 * `model`); answers each item's answer by request position. `onAnswer` sees each after its change.
 */
function play(
  model: ProtocolModel,
  key: KeyName,
  exec: ExecName,
  items: readonly BatchItem[],
  order: readonly number[],
  onAnswer?: (item: BatchItem, answer: ItemAnswer) => void,
): ItemAnswer[] {
  const answers: ItemAnswer[] = new Array(items.length);
  for (const index of order) {
    const item = items[index] as BatchItem;
    const claim = model.claims[item.claimAt] as KnownClaim;
    let answer: ItemAnswer;
    if (claim.exec !== exec) {
      answer = { status: 422, code: "validation_failed" };
    } else {
      const prediction = predictReceipt(model, claim, key, item.kind, item.receiptId, true, item.text);
      if (prediction.type === "refuse") {
        answer = { status: prediction.status, code: prediction.code };
      } else {
        if (prediction.type === "store") {
          prediction.apply();
          model.stored.push({
            callId: claim.callId,
            claimId: claim.claimId,
            exec: claim.exec,
            receiptId: item.receiptId,
            text: compact(parseJson(item.text)),
            answer: prediction.answer,
          });
        }
        answer = { status: 200, body: JSON.stringify(prediction.answer) };
      }
    }
    answers[index] = answer;
    onAnswer?.(item, answer);
  }
  return answers;
}

/** The answer of one item as the server gave it, in the shape of a prediction. */
function readItem(item: { status: number; body: unknown }): ItemAnswer {
  const body = item.body as { error?: { code?: string } };
  if (item.status === 200) return { status: 200, body: JSON.stringify(body) };
  return { status: item.status, ...(body.error?.code === undefined ? {} : { code: body.error.code }) };
}

/** A mixed batch of one executor's receipts, sent by the process holding its claims. */
export class ReceiptBatchCommand implements Command {
  constructor(readonly shape: BatchShape) {}

  check(model: Readonly<ProtocolModel>): boolean {
    return model.claims.length > 0;
  }

  async run(model: ProtocolModel, real: ModelReal): Promise<void> {
    const { items, exec, key } = this.compose(model);
    const executorId = model.executors[exec].id;
    note(real, `${this} → ${items.map((item) => `${item.role} ${item.receiptId}`).join(", ")}`);
    const entries = items.map((item) => {
      const claim = model.claims[item.claimAt] as KnownClaim;
      return `{"run_id":${JSON.stringify(claim.runId)},"call_id":${JSON.stringify(claim.callId)},"receipt":${item.text}}`;
    });
    const answer = await send(
      real,
      "POST",
      `/v1/executors/${executorId}/receipts`,
      real.keys[key],
      `{"receipts":[${entries.join(",")}]}`,
    );
    const what = `batch of ${items.length} receipts for executor ${exec} with key ${key}`;
    if (key !== model.executors[exec].owner) {
      // The whole request is refused: nothing recorded.
      if (answer.status < 300) fail(real, `${what} came with a key that does not own the executor, and succeeded`);
      if (answer.status !== 403 || answer.body?.error?.code !== "executor_key_mismatch") {
        fail(real, `${what}: expected 403 executor_key_mismatch, got ${answer.status} ${answer.text}`);
      }
      await checkWorld(model, real);
      return;
    }
    if (answer.status !== 200 || !Array.isArray(answer.body?.data) || answer.body.data.length !== items.length) {
      fail(real, `${what}: expected 200 with ${items.length} answers, got ${answer.status} ${answer.text}`);
    }
    const data: Array<{ run_id: string; call_id: string; status: number; body: unknown }> = answer.body.data;
    for (const [index, item] of data.entries()) {
      const claim = model.claims[(items[index] as BatchItem).claimAt] as KnownClaim;
      if (item.run_id !== claim.runId || item.call_id !== claim.callId) {
        fail(real, `${what}: answer ${index} names ${item.run_id}/${item.call_id}, not ${claim.runId}/${claim.callId}`);
      }
      const pointer = (item.body as { error?: { pointer?: string } }).error?.pointer;
      if (claim.exec !== exec && pointer !== `/receipts/${index}/receipt/executor_id`) {
        fail(real, `${what}: the item naming the other executor answered ${JSON.stringify(item)}`);
      }
    }
    const got = data.map(readItem);
    const groups = items.map((item) => (model.claims[item.claimAt] as KnownClaim).callId);
    const orders = serialOrders(groups);
    const matching = orders.find(
      (order) => JSON.stringify(play(structuredClone(model), key, exec, items, order)) === JSON.stringify(got),
    );
    if (matching === undefined) {
      const inOrder = play(structuredClone(model), key, exec, items, orders[0] as number[]);
      fail(
        real,
        `${what}: the answers are those of no order that keeps each call's receipts in request order; ` +
          `in request order the per-call route answers ${JSON.stringify(inOrder)}, got ${JSON.stringify(got)}`,
      );
    }
    play(model, key, exec, items, matching, (item, itemAnswer) => {
      const claim = model.claims[item.claimAt] as KnownClaim;
      const confirmed = itemAnswer.body !== undefined && JSON.parse(itemAnswer.body).confirmed === true;
      if (confirmed) checkConfirmedAnswer(model, real, claim.callId, claim.claimId, `${what}: ${item.receiptId}`);
    });
    await checkWorld(model, real);
  }

  /** The batch's items on the model as it is now, in request order, with the process sending them. */
  private compose(model: ProtocolModel): { items: BatchItem[]; exec: ExecName; key: KeyName } {
    const shape = this.shape;
    const fitting = model.claims.filter((claim) => {
      const call = callOf(model, claim.callId);
      if (call.claim?.claimId !== claim.claimId) return false;
      return shape.kind === "accepted"
        ? call.status === "claimed"
        : call.status === "accepted" || call.status === "reconciliation_required";
    });
    const primary = pick(fitting.length > 0 ? fitting : model.claims, shape.claimIndex) as KnownClaim;
    const { exec, key } = primary;
    const newItem = (role: Role, claim: KnownClaim, kind: ReceiptKind): BatchItem => {
      const receiptId = `r${model.nextReceipt++}`;
      const { text, respelled } = receiptText(claim, model.executors[claim.exec].id, receiptId, kind, shape.flavor);
      if (role !== "foreign") {
        model.sent.push({ callId: claim.callId, runId: claim.runId, receiptId, kind, text, respelled, claim });
      }
      return { role, claimAt: model.claims.indexOf(claim), receiptId, kind, text };
    };
    const fresh = newItem("new", primary, shape.kind);
    const items = [fresh];
    const others = fitting.filter(
      (claim) => claim !== primary && claim.exec === exec && claim.callId !== primary.callId,
    );
    const second = shape.secondIndex === null ? undefined : pick(others, shape.secondIndex);
    if (second !== undefined) items.push(newItem("second", second, shape.kind));
    const earlier = model.sent.slice(0, -items.length).filter((sent) => sent.claim.exec === exec);
    const sent = shape.replay === "sent" ? pick(earlier, shape.replayIndex) : undefined;
    const again = sent ?? (model.sent.at(-items.length) as (typeof model.sent)[number]);
    items.push({
      role: "replay",
      claimAt: model.claims.indexOf(again.claim),
      receiptId: again.receiptId,
      kind: again.kind as ReceiptKind,
      text: shape.respell ? again.respelled : again.text,
    });
    if (shape.staleIndex !== null) {
      const stale = model.claims.filter((claim) => {
        const call = callOf(model, claim.callId);
        return (
          claim.exec === exec && (call.claim?.claimId !== claim.claimId || isFinal(call) || !runActiveFor(model, call))
        );
      });
      const claim = pick(stale, shape.staleIndex);
      if (claim !== undefined) items.push(newItem("stale", claim, shape.staleKind));
    }
    if (shape.foreign) {
      const claim = pick(
        model.claims.filter((other) => other.exec === otherExec(exec)),
        shape.claimIndex,
      );
      if (claim !== undefined) items.push(newItem("foreign", claim, "progress"));
    }
    return { items: permute(items, shape.order), exec, key };
  }

  toString(): string {
    const s = this.shape;
    const parts = [
      `claim#${s.claimIndex} ${s.kind} flavor ${s.flavor}`,
      ...(s.secondIndex === null ? [] : [`another claim#${s.secondIndex}`]),
      `replay ${s.replay === "sent" ? `sent#${s.replayIndex}` : "own"}${s.respell ? " respelled" : ""}`,
      ...(s.staleIndex === null ? [] : [`stale claim#${s.staleIndex} ${s.staleKind}`]),
      ...(s.foreign ? ["one for the other executor"] : []),
      `order ${s.order}`,
    ];
    return `receipt_batch(${parts.join(", ")})`;
  }
}
