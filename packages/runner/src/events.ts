/**
 * Lifecycle events. Products subscribe for metrics and audit logs; the crash harness subscribes to
 * kill its own process at exact points of the protocol. Listeners run synchronously at that point
 * (between two steps, e.g. after the result is journaled and before it is sent); a listener that
 * throws is logged and never breaks the call.
 */

import type { ReceiptKind } from "@toolhost/protocol";
import type { RunnerError, RunnerErrorCode } from "./errors.js";
import type { RunnerLogger } from "./logger.js";

/** Every event and its payload. */
export interface RunnerEventMap {
  /** A connection was made (at start, or a reconnect after the lease lapsed). */
  connected: { readonly executorId: string; readonly connectionId: string; readonly epoch: number };
  /** Another process connected with this executor ID: this one stopped taking calls. */
  fenced: { readonly executorId: string; readonly connectionId: string };
  /** A claim was won (or replayed); nothing is journaled yet. */
  claimed: { readonly callId: string; readonly runId: string; readonly toolName: string; readonly replayed: boolean };
  /** A claimed call is not served here; its claim is left to lapse. */
  declined: { readonly callId: string; readonly code: string };
  /** The operation key and assignment are journaled; `accepted` is about to be sent. */
  assignment_journaled: { readonly callId: string; readonly operationKey: string; readonly receiptId: string };
  /** The server answered the `accepted` receipt; its answer is not journaled yet. */
  accept_sent: { readonly callId: string; readonly confirmed: boolean; readonly replayed: boolean };
  /** `confirmed: true` is journaled (`running`); the handler runs next. */
  confirmed: { readonly callId: string; readonly operationKey: string };
  /** The call will never run here (`confirmed: false`, run ended, claim lost). */
  abandoned: { readonly callId: string; readonly reason: string };
  /** The handler settled (its side effect is done or failed); its outcome is not journaled yet. */
  effect_done: { readonly callId: string; readonly operationKey: string; readonly settled: "returned" | "threw" };
  /** A final receipt (or `reconciliation_required`) is journaled; it is sent next. */
  result_journaled: { readonly callId: string; readonly receiptId: string; readonly kind: ReceiptKind };
  /** Any receipt was journaled (progress and final alike). */
  receipt_journaled: { readonly callId: string; readonly receiptId: string; readonly kind: ReceiptKind };
  /** The server answered a receipt with 200; the journal does not know yet. */
  receipt_sent: {
    readonly callId: string;
    readonly receiptId: string;
    readonly kind: ReceiptKind;
    readonly replayed: boolean;
  };
  /** The journal marked a receipt delivered. */
  receipt_acked: {
    readonly callId: string;
    readonly receiptId: string;
    readonly kind: ReceiptKind;
    readonly replayed: boolean;
  };
  /** The server refused a receipt for good; the journal marked it rejected. */
  receipt_rejected: {
    readonly callId: string;
    readonly receiptId: string;
    readonly kind: ReceiptKind;
    readonly code: string;
  };
  /** A call's outcome is unknown; it waits for the product's resolver. */
  reconciliation_required: { readonly callId: string; readonly operationKey: string; readonly code: string };
  /** The resolver decided; its terminal receipt is journaled. */
  reconciled: { readonly callId: string; readonly operationKey: string; readonly kind: ReceiptKind };
  /** A handler deferred its call under a handle. */
  deferred: { readonly callId: string; readonly handleId: string; readonly operationKey: string };
  /** A business cancel was requested for a call this executor holds (`handleId` when it is deferred). */
  cancel_requested: { readonly callId: string; readonly runId: string; readonly handleId: string | null };
  /** A call has nothing left to do (final receipt delivered, or closed by recovery). */
  call_done: { readonly callId: string; readonly reason: string };
  /** Recovery at start handled the journal. */
  recovered: { readonly reported: number; readonly steps: Readonly<Record<string, number>> };
  /**
   * The runner failed for good (a refusal that lasted `refusalGraceMs`, fenced, a loop that threw); it
   * stops itself now. `start()` (when still starting) and `done()` reject with `error`.
   */
  failed: { readonly code: RunnerErrorCode; readonly message: string; readonly error: RunnerError };
}

/** One event name. */
export type RunnerEventName = keyof RunnerEventMap;

/** A listener of `event`. */
export type RunnerListener<E extends RunnerEventName> = (payload: RunnerEventMap[E]) => void;

/** A typed, synchronous event emitter that isolates listener failures. */
export class RunnerEvents {
  readonly #listeners = new Map<RunnerEventName, Set<(payload: never) => void>>();

  constructor(private readonly logger: RunnerLogger) {}

  /** Adds a listener. */
  on<E extends RunnerEventName>(event: E, listener: RunnerListener<E>): void {
    let set = this.#listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener as (payload: never) => void);
  }

  /** Removes a listener. */
  off<E extends RunnerEventName>(event: E, listener: RunnerListener<E>): void {
    this.#listeners.get(event)?.delete(listener as (payload: never) => void);
  }

  /** Calls every listener of `event` now, in subscription order. */
  emit<E extends RunnerEventName>(event: E, payload: RunnerEventMap[E]): void {
    const set = this.#listeners.get(event);
    if (set === undefined) return;
    for (const listener of [...set]) {
      try {
        (listener as RunnerListener<E>)(payload);
      } catch (error) {
        this.logger.error("an event listener threw", { event, error });
      }
    }
  }
}
