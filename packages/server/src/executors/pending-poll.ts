/**
 * `GET /v1/executors/{executor_id}/pending`: the claimable candidates on the connection's bindings,
 * paged, with a long-poll. When nothing is claimable and `wait_ms > 0`, the request waits on the
 * wake-ups of those bindings and queries again when woken (another executor may have won the call:
 * then it waits on for the rest of `wait_ms`). It answers as soon as a candidate exists, when a new
 * business cancellation for this executor appears, when `wait_ms` ran out (an empty list), when the
 * client went away, or when the server shuts down.
 *
 * The wait is registered BEFORE each query, so a call committed between the query and the wait still
 * wakes it. `wait_ms` is a duration measured on the monotonic clock; the injected clock dates the query.
 */

import type { PendingAnswer, PendingQuery } from "@toolhost/protocol/wire";
import { PAGE_LIMIT_DEFAULT } from "@toolhost/protocol/wire";
import { inIdScope } from "../auth/id-scope.js";
import type { Identity } from "../auth/identity.js";
import type { AppContext } from "../http/app.js";
import type { ExecutorRecord } from "../storage/records.js";
import type { CancellationRecord } from "../storage/storage.js";
import { CANCELLATIONS_MAX, cancellationWire, candidateWire } from "./executor-wire.js";

type Context = Pick<AppContext, "storage" | "clock" | "wakeups">;

/** Why a wait stops once its query answered (a fixed reason: the default builds a DOMException and its stack). */
const QUERY_ANSWERED = Symbol("query answered");

/** The candidates and cancellations for `executor`'s live connection, waiting up to `query.wait_ms` for a candidate. */
export async function pollPending(
  context: Context,
  identity: Identity,
  executor: ExecutorRecord,
  query: PendingQuery,
  clientGone: AbortSignal,
): Promise<PendingAnswer> {
  const { storage, clock, wakeups } = context;
  const bindingIds = executor.binding_ids.filter((bindingId) => inIdScope(identity.bindings, bindingId));
  const page = { limit: query.limit ?? PAGE_LIMIT_DEFAULT, cursor: query.cursor ?? null };
  const waitMs = query.wait_ms ?? 0;
  const started = performance.now();
  let firstCancellations: ReadonlySet<string> | undefined;
  for (;;) {
    const remaining = waitMs - (performance.now() - started);
    const stopWaiting = new AbortController();
    const woken =
      remaining > 0 && bindingIds.length > 0 && !clientGone.aborted
        ? wakeups.wait(bindingIds, remaining, AbortSignal.any([clientGone, stopWaiting.signal]))
        : undefined;
    try {
      const nowMs = clock.nowMs();
      // Candidates and cancellations: one statement for the usual poll.
      const { candidates, cancellations } = await storage.pendingCalls.poll(
        { binding_ids: bindingIds, agents: identity.agents, now_ms: nowMs },
        page,
        { executor_id: executor.executor_id, limit: CANCELLATIONS_MAX },
      );
      firstCancellations ??= new Set(cancellations.map((c) => c.call_id));
      const answer: PendingAnswer = {
        data: candidates.items.map(candidateWire),
        cancellations: cancellations.map(cancellationWire),
        next_cursor: candidates.next_cursor,
      };
      if (answer.data.length > 0 || hasNew(cancellations, firstCancellations) || woken === undefined) return answer;
      // Nothing yet: a `false` means timed out, client gone or shutting down — answer what there is.
      if (!(await woken)) return answer;
    } finally {
      stopWaiting.abort(QUERY_ANSWERED);
    }
  }
}

/** True when `cancellations` holds a call that was not in `first` (cancellations alone never end a wait otherwise). */
function hasNew(cancellations: readonly CancellationRecord[], first: ReadonlySet<string>): boolean {
  return cancellations.some((cancellation) => !first.has(cancellation.call_id));
}
