/**
 * `GET /v1/executors/{executor_id}/pending`: the claimable candidates on the connection's bindings,
 * paged, with a long-poll. When nothing is claimable and `wait_ms > 0`, the request waits for a
 * wake-up (one per new call, given to one waiter that serves it: call-wakeups.ts) and queries again
 * when woken (another executor may have won the call: then it waits on for the rest of `wait_ms`). It answers as soon as a candidate exists, when a new
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
import type { Clock } from "../clock.js";
import type { ExecutorRecord } from "../storage/records.js";
import type { CancellationRecord, PollConnection, Storage } from "../storage/storage.js";
import type { CallWakeups, Woken } from "../wakeups/call-wakeups.js";
import { type CallWakeup, handedOn } from "../wakeups/wakeup.js";
import { CANCELLATIONS_MAX, cancellationWire, candidateWire } from "./executor-wire.js";

type Context = { readonly storage: Storage; readonly clock: Clock; readonly wakeups: CallWakeups };

/** Why a wait stops once its query answered (a fixed reason: the default builds a DOMException and its stack). */
const QUERY_ANSWERED = Symbol("query answered");

/** What a poll answers when the connection it was asked to check is not live (the executor is read then). */
export const CONNECTION_NOT_LIVE = "connection_not_live";

/** A pending answer, and the call wake-up whose call it holds (`?claim=N` claims that call first). */
export interface PolledPending {
  readonly answer: PendingAnswer;
  readonly woken: CallWakeup | undefined;
}

/**
 * The candidates and cancellations for `executor`'s live connection, waiting up to `query.wait_ms` for
 * a candidate. A call wake-up this request cannot use is handed on to the next waiter (`handOn`): one
 * given while its query ran (the query may have missed the call), one for a call its answer leaves out
 * (beyond the page, or out of a restricted agent scope), one whose answer no client will read.
 *
 * `connection`: `executor` was not read for this request (live-connections.ts), so the first query also
 * checks that the connection is live; when it is not, nothing is answered (`CONNECTION_NOT_LIVE`).
 */
export async function pollPending(
  context: Context,
  identity: Identity,
  executor: ExecutorRecord,
  query: PendingQuery,
  clientGone: AbortSignal,
  connection?: PollConnection,
): Promise<PolledPending | typeof CONNECTION_NOT_LIVE> {
  const { storage, clock, wakeups } = context;
  const bindingIds = executor.binding_ids.filter((bindingId) => inIdScope(identity.bindings, bindingId));
  const waitFor = { binding_ids: bindingIds, tool_names: executor.tool_names, executor_id: executor.executor_id };
  const page = { limit: query.limit ?? PAGE_LIMIT_DEFAULT, cursor: query.cursor ?? null };
  const waitMs = query.wait_ms ?? 0;
  const started = performance.now();
  const handOn = (wakeup: CallWakeup | undefined): void => {
    const next = wakeup === undefined ? undefined : handedOn(wakeup);
    if (next !== undefined) wakeups.notify([next]);
  };
  let firstCancellations: ReadonlySet<string> | undefined;
  /** The call wake-up the coming query follows. */
  let woken: CallWakeup | undefined;
  let check = connection;
  for (;;) {
    const remaining = waitMs - (performance.now() - started);
    const stopWaiting = new AbortController();
    /** What the wait below was given while the query ran. */
    let during: Woken | undefined;
    const waiting =
      remaining > 0 && bindingIds.length > 0 && !clientGone.aborted
        ? wakeups.wait(waitFor, remaining, AbortSignal.any([clientGone, stopWaiting.signal])).then((value) => {
            during = value;
            return value;
          })
        : undefined;
    try {
      const nowMs = clock.nowMs();
      // Candidates and cancellations: one statement for the usual poll.
      const polled = await storage.pendingCalls.poll(
        { binding_ids: bindingIds, agents: identity.agents, now_ms: nowMs },
        page,
        { executor_id: executor.executor_id, limit: CANCELLATIONS_MAX },
        check,
      );
      check = undefined;
      if (polled.connection_live === false) {
        // This request answers nothing: a call wake-up given meanwhile is another waiter's.
        if (isCallWakeup(during)) handOn(during);
        return CONNECTION_NOT_LIVE;
      }
      const { candidates, cancellations } = polled;
      firstCancellations ??= new Set(cancellations.map((c) => c.call_id));
      const answer: PendingAnswer = {
        data: candidates.items.map(candidateWire),
        cancellations: cancellations.map(cancellationWire),
        next_cursor: candidates.next_cursor,
      };
      const holds = (wakeup: Woken | undefined): wakeup is CallWakeup =>
        isCallWakeup(wakeup) && answer.data.some((candidate) => candidate.call_id === wakeup.call_id);
      if (answer.data.length > 0 || hasNew(cancellations, firstCancellations) || waiting === undefined) {
        const late = during;
        const used = holds(woken) ? woken : holds(late) ? late : undefined;
        // A wake-up given while the query ran may be for a call it read too early; one it holds but
        // does not follow (it follows the earlier one) is another executor's to claim.
        if (isCallWakeup(late) && late !== used) handOn(late);
        // Not in a complete answer of a `*` key: another executor took it, and nobody else is woken.
        if (woken !== undefined && woken !== used && mayLieOutside(answer, page.cursor, identity)) handOn(woken);
        // Nobody reads this answer: another waiter must see the call.
        if (clientGone.aborted) {
          handOn(used);
          return { answer, woken: undefined };
        }
        return { answer, woken: used };
      }
      // Nothing found after a wake-up: the call was taken — unless this key sees only some agents' runs.
      if (woken !== undefined && mayLieOutside(answer, page.cursor, identity)) handOn(woken);
      // Nothing yet: undefined means timed out, client gone or shutting down — answer what there is.
      const next = await waiting;
      if (next === undefined) return { answer, woken: undefined };
      woken = isCallWakeup(next) ? next : undefined;
    } finally {
      stopWaiting.abort(QUERY_ANSWERED);
    }
  }
}

/**
 * True when a claimable call may be missing from `answer` for this key: beyond its page (before the
 * cursor it started at, or after its last candidate), or outside a key that sees only some agents' runs.
 */
function mayLieOutside(answer: PendingAnswer, cursor: string | null, identity: Identity): boolean {
  return answer.next_cursor !== null || cursor !== null || identity.agents !== "*";
}

/** True for the wake-up of a claimable call. */
function isCallWakeup(woken: Woken | undefined): woken is CallWakeup {
  return woken !== undefined && woken !== "everyone" && woken.kind === "call";
}

/** True when `cancellations` holds a call that was not in `first` (cancellations alone never end a wait otherwise). */
function hasNew(cancellations: readonly CancellationRecord[], first: ReadonlySet<string>): boolean {
  return cancellations.some((cancellation) => !first.has(cancellation.call_id));
}
