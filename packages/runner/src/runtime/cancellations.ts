/**
 * Business-cancel requests. Heartbeat and pending answers list, every time, the calls this executor
 * holds whose business task was asked to stop; the book turns the first sighting of each into action:
 * a running handler's `ctx.signal` aborts (with a CancelledError as its reason), a call not started
 * yet is confirmed cancelled instead of run, a deferred call is announced with its handle.
 */

import type { CancellationRequest } from "@toolhost/protocol/wire";
import { CancelledError } from "../errors.js";

/** What the book tells the runner about a first sighting. */
export interface CancellationNotice {
  readonly callId: string;
  readonly runId: string;
}

/** Requests seen, and the signals of running handlers. */
export class CancellationBook {
  readonly #running = new Map<string, AbortController>();
  readonly #requested = new Set<string>();

  /** The abort signal for a handler of `callId` (already aborted when a cancel was requested). */
  attach(callId: string): AbortSignal {
    const controller = new AbortController();
    this.#running.set(callId, controller);
    if (this.#requested.has(callId)) controller.abort(cancelReason());
    return controller.signal;
  }

  /** The handler of `callId` settled. */
  detach(callId: string): void {
    this.#running.delete(callId);
  }

  /** True when a cancel was requested for `callId`. */
  isRequested(callId: string): boolean {
    return this.#requested.has(callId);
  }

  /** Drops what the book knows of a finished call. */
  forget(callId: string): void {
    this.#requested.delete(callId);
    this.#running.delete(callId);
  }

  /** Records `requests`; answers the ones seen for the first time (running handlers are aborted). */
  receive(requests: readonly CancellationRequest[]): CancellationNotice[] {
    const fresh: CancellationNotice[] = [];
    for (const request of requests) {
      if (this.#requested.has(request.call_id)) continue;
      this.#requested.add(request.call_id);
      this.#running.get(request.call_id)?.abort(cancelReason());
      fresh.push({ callId: request.call_id, runId: request.run_id });
    }
    return fresh;
  }
}

function cancelReason(): CancelledError {
  return new CancelledError("the business task was asked to stop (business cancel)");
}
