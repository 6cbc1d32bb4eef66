/**
 * Delivering the outbox. A call's pending receipts are sent in journal order, one call's deliveries
 * one at a time (so a final receipt never overtakes its progress), each receipt until the server
 * acknowledges it: same `receipt_id`, same body bytes, exponential backoff with jitter between
 * attempts. A delivered final receipt closes its call in the journal. While the runner stops (or for
 * a runner that only finishes deferred calls) delivery gives up after a bounded time and leaves the
 * receipt pending: the next start redelivers it. Trouble shared by every receipt (the server down, the
 * key refused) goes to the trouble watch: logged once per streak, not once per receipt and attempt.
 */

import type { ReceiptKind } from "@toolhost/protocol";
import { backoffDelayMs } from "../decisions/backoff.js";
import { decideDelivery, type ReceiptAnswerFacts, readReceiptAnswer } from "../decisions/delivery-outcome.js";
import { RESULT_REFUSED, type Refusal, replacementOfRefused } from "../decisions/refused-final-receipt.js";
import type { RunnerEvents } from "../events.js";
import type { ServerClient } from "../http/server-client.js";
import type { Journal } from "../journal/journal.js";
import type { OutboxReceipt } from "../journal/journal-records.js";
import type { RunnerLogger } from "../logger.js";
import type { CompiledRunnerOptions } from "../options.js";
import { newReceiptId, receiptBodyText } from "../receipt-body.js";
import type { StatsCounters } from "../stats.js";
import type { CancellationBook } from "./cancellations.js";
import type { Lifecycle } from "./lifecycle.js";
import type { ReceiptBatcher } from "./receipt-batcher.js";
import { sleep } from "./sleep.js";
import type { TroubleWatch } from "./trouble-watch.js";

/** Where one receipt's delivery ended. */
export type ReceiptResult =
  | { readonly type: "acked"; readonly answer: ReceiptAnswerFacts }
  | { readonly type: "rejected"; readonly code: string }
  /** Still pending (gave up for now); delivered later by the sweep or the next start. */
  | { readonly type: "pending" };

/** Settings of one delivery run. */
export interface DeliverySettings {
  /** Stop retrying after this long and leave the receipt pending (default: only when the runner stops). */
  readonly giveUpAfterMs?: number;
}

/** What delivery needs. */
export interface DeliveryDeps {
  readonly options: CompiledRunnerOptions;
  readonly journal: Journal;
  readonly client: ServerClient;
  readonly logger: RunnerLogger;
  readonly stats: StatsCounters;
  readonly events: RunnerEvents;
  readonly lifecycle: Lifecycle;
  readonly cancellations: CancellationBook;
  readonly watch: TroubleWatch;
  /** Sends receipts in batches when the server offers it (absent: each through the per-call route). */
  readonly batcher?: ReceiptBatcher;
}

/** The outbox sender. */
export class ReceiptDelivery {
  readonly #chains = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: DeliveryDeps) {}

  /** Delivers the call's pending receipts in order; answers each receipt's result by ID. */
  deliverCall(callId: string, settings: DeliverySettings = {}): Promise<Map<string, ReceiptResult>> {
    const previous = this.#chains.get(callId) ?? Promise.resolve();
    const next = previous.then(() => this.#deliverNow(callId, settings));
    const guarded = next.catch(() => undefined);
    this.#chains.set(callId, guarded);
    void guarded.then(() => {
      if (this.#chains.get(callId) === guarded) this.#chains.delete(callId);
    });
    return next;
  }

  /** The result recorded in the journal for a receipt that is no longer pending. */
  static resultOf(receipt: OutboxReceipt): ReceiptResult {
    if (receipt.state === "delivered" && receipt.answerJson !== null) {
      const answer = readReceiptAnswer(receipt.answerJson);
      if (answer !== undefined) return { type: "acked", answer };
    }
    if (receipt.state === "rejected") return { type: "rejected", code: receipt.rejectCode ?? "rejected" };
    if (receipt.state === "obsolete") return { type: "rejected", code: "obsolete" };
    return { type: "pending" };
  }

  async #deliverNow(callId: string, settings: DeliverySettings): Promise<Map<string, ReceiptResult>> {
    const { journal, events, cancellations } = this.deps;
    const results = new Map<string, ReceiptResult>();
    const entry = journal.get(callId);
    if (entry === undefined) return results;
    const startedAtMs = performance.now();
    // Until none is left: a refused final receipt journals its replacement behind it.
    for (let pending = journal.pendingReceipts(callId); pending.length > 0; pending = journal.pendingReceipts(callId)) {
      for (const receipt of pending) {
        const result = await this.#deliverOne(entry.runId, receipt, startedAtMs, settings);
        results.set(receipt.receiptId, result);
        // Later receipts wait: the server must see them in journal order.
        if (result.type === "pending") return results;
      }
    }
    const after = journal.get(callId);
    if (after?.state === "finishing" && journal.pendingReceipts(callId).length === 0) {
      if (journal.transition(callId, { from: ["finishing"], to: "done", reason: "delivered" })) {
        cancellations.forget(callId);
        events.emit("call_done", { callId, reason: "delivered" });
      }
    }
    return results;
  }

  async #deliverOne(
    runId: string,
    receipt: OutboxReceipt,
    startedAtMs: number,
    settings: DeliverySettings,
  ): Promise<ReceiptResult> {
    const { options, journal, client, logger, stats, events, lifecycle, watch } = this.deps;
    const { receiptId, callId, kind } = receipt;
    for (let attempt = 0; ; attempt++) {
      // Another process (or an earlier chain) may have settled it meanwhile.
      const current = journal.receipts(callId).find((r) => r.receiptId === receiptId);
      if (current === undefined || current.state !== "pending") {
        return current === undefined ? { type: "pending" } : ReceiptDelivery.resultOf(current);
      }
      journal.countAttempt(receiptId);
      stats.add("receipt_attempts");
      const sent =
        this.deps.batcher?.send(runId, callId, receipt.bodyText) ?? client.receipt(runId, callId, receipt.bodyText);
      const verdict = decideDelivery(await sent);
      if (verdict.type !== "retry") watch.clear("receipt");
      if (verdict.type === "acked") {
        const replayed = verdict.answer.replayed;
        if (kind === "accepted") {
          events.emit("accept_sent", { callId, confirmed: verdict.answer.confirmed === true, replayed });
        }
        events.emit("receipt_sent", { callId, receiptId, kind, replayed });
        journal.markDelivered(receiptId, verdict.answerText);
        stats.add("receipts_acked");
        if (replayed) stats.add("receipts_replayed");
        events.emit("receipt_acked", { callId, receiptId, kind, replayed });
        return { type: "acked", answer: verdict.answer };
      }
      if (verdict.type === "rejected") {
        journal.markRejected(receiptId, verdict.code);
        stats.add("receipts_rejected");
        logLevelOf(kind, verdict.code)(logger)("the server refused a receipt for good", {
          callId,
          receiptId,
          kind,
          code: verdict.code,
          message: verdict.message,
        });
        events.emit("receipt_rejected", { callId, receiptId, kind, code: verdict.code });
        this.#replaceRefused(receipt, verdict);
        return { type: "rejected", code: verdict.code };
      }
      stats.add("delivery_retries");
      // A refusal that outlasted its grace fails the runner: the receipt stays journaled for the next start.
      if (watch.report("receipt", verdict.trouble).fatal) return { type: "pending" };
      const deadline = giveUpAt(startedAtMs, settings, lifecycle, options);
      const delay = backoffDelayMs(
        attempt,
        { minMs: options.retryBackoffMinMs, maxMs: options.retryBackoffMaxMs },
        options.random(),
      );
      const now = performance.now();
      if (deadline !== null && now + delay > deadline) {
        logger.warn("receipt left in the outbox for later delivery", {
          callId,
          receiptId,
          kind,
          reason: verdict.trouble.detail,
        });
        return { type: "pending" };
      }
      logger.debug("receipt not delivered yet; retrying", { callId, receiptId, kind, attempt, delayMs: delay });
      // While stopping the stop signal is already aborted: sleep the bounded delay plainly.
      await sleep(delay, lifecycle.stopping ? undefined : lifecycle.stopSignal);
    }
  }

  /** Journals the `failed` receipt that settles a call whose final receipt was refused for its body. */
  #replaceRefused(receipt: OutboxReceipt, refusal: Refusal): void {
    const { journal, logger, stats, events } = this.deps;
    const draft = replacementOfRefused(receipt, refusal);
    const entry = journal.get(receipt.callId);
    if (draft === undefined || entry === undefined) return;
    const receiptId = newReceiptId(draft.kind);
    const bodyText = receiptBodyText(
      { receiptId, executorId: entry.executorId, claimId: entry.claimId, grant: entry.grant },
      draft,
    );
    if (!journal.appendReceipt(receipt.callId, { receiptId, kind: draft.kind, bodyText }, { from: ["finishing"] })) {
      return;
    }
    stats.add("receipts_journaled");
    events.emit("receipt_journaled", { callId: receipt.callId, receiptId, kind: draft.kind });
    logger.warn(`the refused receipt is replaced by a failed receipt (${RESULT_REFUSED}) so the call settles`, {
      callId: receipt.callId,
      refusedReceiptId: receipt.receiptId,
      receiptId,
      code: refusal.code,
    });
  }
}

function giveUpAt(
  startedAtMs: number,
  settings: DeliverySettings,
  lifecycle: Lifecycle,
  options: CompiledRunnerOptions,
): number | null {
  const candidates: number[] = [];
  if (settings.giveUpAfterMs !== undefined) candidates.push(startedAtMs + settings.giveUpAfterMs);
  const stoppingSince = lifecycle.stoppingSinceMs;
  if (stoppingSince !== null) candidates.push(stoppingSince + options.stopDeliveryTimeoutMs);
  return candidates.length === 0 ? null : Math.min(...candidates);
}

/** A refused progress receipt is routine (e.g. after the deadline); a refused final receipt is not. */
function logLevelOf(kind: ReceiptKind, code: string) {
  return (logger: RunnerLogger) =>
    kind === "progress" || code === "call_already_final" ? logger.warn.bind(logger) : logger.error.bind(logger);
}
