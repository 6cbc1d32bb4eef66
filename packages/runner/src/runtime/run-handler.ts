/**
 * Running a handler of a confirmed call (journal state `running`) and journaling its outcome: the
 * final receipt (or `reconciliation_required`) is written to the outbox before anything is sent,
 * then the slot is given back and the receipt delivered until acknowledged. An unknown outcome goes on
 * to the product's resolver.
 */

import { randomUUID } from "node:crypto";
import type { ReceiptKind } from "@toolhost/protocol";
import { decideHandlerOutcome, type HandlerSettlement } from "../decisions/handler-outcome.js";
import { RunnerError } from "../errors.js";
import { HandlerSpan } from "../handler-tracing.js";
import type { JournalEntry } from "../journal/journal-records.js";
import { toJsonValue } from "../json-value.js";
import type { ToolRegistration } from "../registry.js";
import type { RunnerCounter } from "../stats.js";
import { callFromJournal, type ToolCall } from "../tool-call.js";
import type { DeferredHandle, ToolContext } from "../tool-context.js";
import { journalReceipt } from "./journal-receipt.js";
import { reconcileCall } from "./reconcile-call.js";
import type { RunnerRuntime } from "./runner-runtime.js";
import type { ToolSlot } from "./tool-slots.js";

/** The counter of each reported kind (a read tool's exception is a plain failure). */
const OUTCOME_COUNTERS: Readonly<Record<ReceiptKind, RunnerCounter>> = {
  accepted: "handlers_completed",
  progress: "handlers_completed",
  completed: "handlers_completed",
  failed: "handlers_failed",
  cancelled: "handlers_cancelled",
  reconciliation_required: "handlers_unknown",
};

/** Runs `registration`'s handler for `entry` (state `running`), journals and delivers its outcome. */
export async function runHandler(
  rt: RunnerRuntime,
  entry: JournalEntry,
  registration: ToolRegistration,
  slot: ToolSlot,
): Promise<void> {
  const call = callFromJournal(entry.callJson, entry.claimId);
  const signal = rt.cancellations.attach(entry.callId);
  const context = new HandlerContext(rt, entry, call, signal);
  rt.stats.add("handlers_started");
  const startedAt = performance.now();
  const span = HandlerSpan.start(call);
  let settlement: HandlerSettlement;
  try {
    settlement = { type: "returned", value: await span.run(() => registration.handler(call, context)) };
  } catch (error) {
    settlement = { type: "threw", error };
  } finally {
    rt.cancellations.detach(entry.callId);
    context.close();
  }
  rt.events.emit("effect_done", { callId: entry.callId, operationKey: entry.operationKey, settled: settlement.type });
  // The server's effect is authoritative: a read registration never downgrades a write call.
  const effect = entry.effect === "write" || registration.effect === "write" ? "write" : "read";
  const outcome = decideHandlerOutcome(settlement, {
    effect,
    deferred: context.handle !== undefined,
    resultType: registration.resultType,
  });
  const finished = {
    callId: entry.callId,
    runId: call.runId,
    tool: entry.toolName,
    durationMs: Math.round((performance.now() - startedAt) * 10) / 10,
  };
  span.end(
    outcome.type === "deferred" ? "deferred" : outcome.draft.kind,
    settlement.type === "threw" ? settlement : undefined,
  );
  if (outcome.type === "deferred") {
    rt.logger.info("call deferred", { ...finished, outcome: "deferred" });
    rt.stats.add("handlers_deferred");
    slot.release();
    return;
  }
  if (settlement.type === "threw" && outcome.draft.kind !== "failed" && outcome.draft.kind !== "cancelled") {
    rt.logger.error("a handler threw: the outcome is unknown", {
      callId: entry.callId,
      tool: entry.toolName,
      error: settlement.error,
    });
  }
  const receiptId = journalReceipt(rt, entry, outcome.draft, {
    from: ["running", "deferred"],
    to: outcome.state,
    reason: outcome.code,
  });
  slot.release();
  if (receiptId === undefined) {
    // A deferred call finished elsewhere (complete/fail) before its handler returned: that outcome stands.
    rt.logger.warn("the call was finished elsewhere before its handler returned", { callId: entry.callId });
    return;
  }
  // One line per call outcome; a thrown error keeps its stack (the logger writes it).
  rt.logger.info("call finished", {
    ...finished,
    outcome: outcome.draft.kind,
    ...(settlement.type === "threw" ? { error: settlement.error } : {}),
  });
  rt.stats.add(OUTCOME_COUNTERS[outcome.draft.kind]);
  rt.events.emit("result_journaled", { callId: entry.callId, receiptId, kind: outcome.draft.kind });
  if (outcome.state === "reconciling") {
    rt.events.emit("reconciliation_required", {
      callId: entry.callId,
      operationKey: entry.operationKey,
      code: outcome.code,
    });
  }
  await rt.delivery.deliverCall(entry.callId);
  if (outcome.state === "reconciling") await reconcileCall(rt, entry.callId, { sendUnknown: false });
}

/** The `ctx` of one handler invocation. */
class HandlerContext implements ToolContext {
  handle: DeferredHandle | undefined;
  #open = true;

  constructor(
    private readonly rt: RunnerRuntime,
    private readonly entry: JournalEntry,
    private readonly call: ToolCall,
    readonly signal: AbortSignal,
  ) {}

  get operationKey(): string {
    return this.entry.operationKey;
  }

  /** Marks the invocation over: later progress and defer calls are refused. */
  close(): void {
    this.#open = false;
  }

  async progress(data: Record<string, unknown>): Promise<void> {
    const progress = toJsonValue(data);
    const receiptId = journalReceipt(
      this.rt,
      this.entry,
      { kind: "progress", progress },
      { from: ["running", "deferred"] },
    );
    if (receiptId === undefined) {
      throw new RunnerError(
        "call_finished",
        `call ${this.entry.callId} is finished; progress cannot be reported any more`,
      );
    }
    // Journaled: from here on nothing is lost, so a delivery problem never surfaces as a rejection
    // (a handler may fire progress without awaiting it).
    await this.rt.delivery.deliverCall(this.entry.callId).catch((error: unknown) => {
      this.rt.logger.error("delivering progress failed; it stays in the outbox", { callId: this.entry.callId, error });
    });
  }

  defer(): DeferredHandle {
    if (this.handle !== undefined) return this.handle;
    if (!this.#open) throw new RunnerError("call_finished", "defer() must be called while the handler runs");
    const id = `dh_${randomUUID()}`;
    if (!this.rt.journal.defer(this.entry.callId, id)) {
      throw new RunnerError("call_finished", `call ${this.entry.callId} is not running; it cannot be deferred`);
    }
    this.handle = {
      id,
      callId: this.entry.callId,
      runId: this.entry.runId,
      toolName: this.entry.toolName,
      operationKey: this.entry.operationKey,
    };
    this.rt.events.emit("deferred", { callId: this.entry.callId, handleId: id, operationKey: this.entry.operationKey });
    return this.handle;
  }

  log(message: string, fields?: Record<string, unknown>): void {
    this.rt.logger.info(message, {
      ...fields,
      callId: this.call.callId,
      runId: this.call.runId,
      tool: this.call.toolName,
    });
  }
}
