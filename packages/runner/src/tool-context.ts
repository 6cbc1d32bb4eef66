/**
 * What a handler is given besides the call: the operation key to make its side effect idempotent in
 * the product's own store, progress reporting, the business-cancel signal and deferral for work that
 * outlives the handler.
 */

import type { LogFields } from "./logger.js";

/** A call handed over to long-running work: any process sharing the journal can finish it by `id`. */
export interface DeferredHandle {
  /** The handle's ID (store it with the job; `runner.complete(id, result)` finishes the call). */
  readonly id: string;
  readonly callId: string;
  readonly runId: string;
  readonly toolName: string;
  readonly operationKey: string;
}

/** The second argument of every handler. */
export interface ToolContext {
  /**
   * The call's operation key, journaled before `accepted` was sent and stable across restarts: store
   * it with the side effect (a unique column) so the product can tell later whether it happened.
   */
  readonly operationKey: string;
  /**
   * Aborted when the call's business task is asked to stop (a business cancel, delivered through
   * heartbeat and pending). Stop the work, then throw `CancelledError` to confirm — or finish and
   * return normally if the work was already done.
   */
  readonly signal: AbortSignal;
  /**
   * Reports interim progress: journaled at once, then delivered in order before the final receipt.
   * Resolves once the server acknowledged it (or the runner left it in the outbox for later).
   */
  progress(data: Record<string, unknown>): Promise<void>;
  /**
   * Hands the call over to long-running work: the handle is journaled before this returns, the
   * handler's return value is then ignored, and the call stays open until `runner.complete(handle,
   * result)` or `runner.fail(handle, error)` — from this process or any other sharing the journal.
   */
  defer(): DeferredHandle;
  /** Logs with the call's IDs attached. */
  log(message: string, fields?: LogFields): void;
}
