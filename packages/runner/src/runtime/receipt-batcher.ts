/**
 * Sending receipts many to a request when the server offers the batch route
 * (`POST /v1/executors/{executor_id}/receipts`). Receipts handed over in the same turn of the event
 * loop — the deliveries of many calls running side by side — go out together (at most the server's
 * `receipts_max` per request); each sender gets back the outcome the per-call route would have given
 * it, read from its item of the batch answer (status and body). Per call, delivery still sends one
 * receipt at a time (the delivery chain waits for its outcome), so a batch never reorders a call's
 * receipts. Without the offer, or when the batch as a whole is refused as malformed (400/413/422: a
 * server that reads batches differently), each receipt goes through the per-call route.
 */

import type { ReceiptAnswer } from "@toolhost/protocol/wire";
import { ANSWER_READERS, answerOutcome } from "../http/answer-reader.js";
import { type HttpOutcome, refusalOf } from "../http/http-outcome.js";
import type { BatchedReceiptText, ServerClient } from "../http/server-client.js";
import type { StatsCounters } from "../stats.js";
import type { ConnectionManager } from "./connection.js";

/** A receipt waiting for the next batch. */
interface Queued extends BatchedReceiptText {
  readonly settle: (outcome: HttpOutcome<ReceiptAnswer>) => void;
}

/** Whole-batch refusals after which the receipts go one by one (the batch itself was not readable). */
const PER_CALL_AFTER: ReadonlySet<number> = new Set([400, 413, 422]);

/** Collects receipts and sends them in batches. */
export class ReceiptBatcher {
  #queue: Queued[] = [];
  #scheduled = false;

  constructor(
    private readonly client: ServerClient,
    private readonly executorId: string,
    private readonly connection: Pick<ConnectionManager, "current">,
    private readonly stats: StatsCounters,
  ) {}

  /** Sends one journaled receipt; answers what the per-call route answers for it. */
  send(runId: string, callId: string, bodyText: string): Promise<HttpOutcome<ReceiptAnswer>> {
    if (this.connection.current?.batch == null) return this.client.receipt(runId, callId, bodyText);
    return new Promise((settle) => {
      this.#queue.push({ runId, callId, bodyText, settle });
      if (this.#scheduled) return;
      this.#scheduled = true;
      // The deliveries woken in this turn join the batch; it leaves on the next.
      setImmediate(() => void this.#flush());
    });
  }

  async #flush(): Promise<void> {
    this.#scheduled = false;
    const max = this.connection.current?.batch?.receiptsMax ?? 1;
    const queue = this.#queue;
    this.#queue = [];
    const batches: Queued[][] = [];
    for (let start = 0; start < queue.length; start += max) batches.push(queue.slice(start, start + max));
    await Promise.all(batches.map((batch) => this.#sendBatch(batch)));
  }

  async #sendBatch(batch: readonly Queued[]): Promise<void> {
    if (this.connection.current?.batch == null) {
      await Promise.all(batch.map(async (r) => r.settle(await this.client.receipt(r.runId, r.callId, r.bodyText))));
      return;
    }
    this.stats.add("receipt_batches");
    const outcome = await this.client.receiptBatch(this.executorId, batch);
    if (outcome.type === "refused" && PER_CALL_AFTER.has(outcome.status)) {
      await Promise.all(batch.map(async (r) => r.settle(await this.client.receipt(r.runId, r.callId, r.bodyText))));
      return;
    }
    for (const [index, queued] of batch.entries()) {
      if (outcome.type !== "answer") {
        queued.settle(outcome);
        continue;
      }
      const item = outcome.body.data[index];
      if (item === undefined || item.call_id !== queued.callId) {
        queued.settle({
          type: "unreachable",
          message: "the batch answer has no answer for this receipt",
          aborted: false,
        });
        continue;
      }
      const text = JSON.stringify(item.body);
      queued.settle(
        item.status >= 200 && item.status < 300
          ? answerOutcome(ANSWER_READERS.receipt, item.status, text, "application/json")
          : refusalOf(item.status, text),
      );
    }
  }
}
