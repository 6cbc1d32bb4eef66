/**
 * Metric counters a product can read (`runner.stats()`): monotonic counts since the runner was
 * created, plus gauges read at the time of the call (in-flight handlers per tool, the journal's
 * calls per state and its undelivered receipts).
 */

import type { JournalCounts } from "./journal/journal.js";

/** Every counter, with what it counts. */
export const RUNNER_COUNTERS = {
  claims_attempted: "claims sent",
  claims_won: "claims won (new)",
  claims_batched: "claims the server made with a pending answer (`claim=N`), carried like won claims",
  claims_replayed: "claims answered replayed: true (already held by this executor)",
  claims_lost: "claims another executor won (409 already_claimed) or that were refused",
  claims_declined: "claims not accepted because this executor does not serve the call (left to lapse)",
  verifications_failed: "calls refused before running: arguments digest mismatch",
  authorizations_denied: "calls the product's authorize hook refused",
  accepts_confirmed: "accepted receipts answered confirmed: true",
  accepts_refused: "accepted receipts answered confirmed: false (or refused): never run",
  handlers_started: "handler invocations",
  handlers_completed: "handlers that returned a result",
  handlers_failed: "handlers that threw a BusinessError (or a read tool's exception)",
  handlers_cancelled: "handlers that threw a CancelledError",
  handlers_unknown: "write handlers whose outcome is unknown (threw): reconciliation_required",
  handlers_deferred: "handlers that deferred their call",
  handler_reruns: "read handlers run again after a restart",
  receipts_journaled: "receipts journaled before sending",
  receipt_attempts: "receipt delivery attempts",
  receipt_batches: "batch receipt requests sent (several receipts in one request)",
  receipts_acked: "receipts acknowledged by the server",
  receipts_replayed: "receipts acknowledged with replayed: true",
  receipts_rejected: "receipts refused for good",
  delivery_retries: "receipt deliveries retried after no answer or a server error",
  reconciliations_started: "calls sent to the reconciliation resolver",
  reconciliations_resolved: "reconciliations that journaled a terminal receipt",
  reconciliations_unresolved: "resolver runs that could not decide yet (or threw, or no resolver)",
  deferred_completed: "deferred calls finished with complete()",
  deferred_failed: "deferred calls finished with fail()",
  cancellations_received: "business-cancel requests received (first time per call)",
  heartbeats_sent: "heartbeats answered",
  heartbeat_failures: "heartbeats without an answer or refused",
  polls: "pending polls answered",
  poll_failures: "pending polls without an answer or refused",
  refusals: "requests the server refused for the runner's key or executor (401, 403, 404 of the executor)",
  malformed_answers: "2xx answers the runner could not read (not JSON, or not the route's wire shape); retried",
  candidates_unserved: "pending candidates skipped because no handler is registered for their tool (never claimed)",
  connects: "connections made (first and reconnects)",
  recovered_calls: "journal entries handled by recovery at start",
} as const;

/** One counter name. */
export type RunnerCounter = keyof typeof RUNNER_COUNTERS;

/** What `runner.stats()` answers. */
export interface RunnerStats {
  readonly counters: Readonly<Record<RunnerCounter, number>>;
  /** Handlers running now, per tool. */
  readonly inFlight: Readonly<Record<string, number>>;
  /** The journal's calls per state and receipts waiting for delivery (null before the journal is opened and after shutdown). */
  readonly journal: JournalCounts | null;
  /** The current connection, when connected. */
  readonly connection: { readonly connectionId: string; readonly epoch: number } | null;
}

/** The counters of one runner. */
export class StatsCounters {
  readonly #values: Record<RunnerCounter, number>;

  constructor() {
    this.#values = Object.fromEntries(Object.keys(RUNNER_COUNTERS).map((name) => [name, 0])) as Record<
      RunnerCounter,
      number
    >;
  }

  /** Adds `by` (default 1) to `counter`. */
  add(counter: RunnerCounter, by = 1): void {
    this.#values[counter] += by;
  }

  /** A copy of every counter. */
  snapshot(): Readonly<Record<RunnerCounter, number>> {
    return { ...this.#values };
  }
}
