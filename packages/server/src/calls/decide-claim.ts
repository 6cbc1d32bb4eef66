/**
 * Whether a claim may be tried (pure). The caller has already checked the credential's scopes and the
 * executor's connection; this decides on the call itself: the connection must serve the call's
 * binding (else 404, as if the call did not exist), the run must be active unless the call is a
 * compensation call (409 `run_terminated`), and then — the same executor already holding the claim
 * gets it again (`replayed`), a pending call (or one whose claim lapsed) may be claimed, a call held by
 * another executor is 409 `already_claimed`, and a call nobody can claim any more is 409 `conflict`.
 */

import { ProtocolError, runFreezesCall } from "@toolhost/protocol";
import { notFoundError } from "../auth/id-scope.js";
import type { ExecutorRecord } from "../storage/records.js";
import type { CallTarget } from "../storage/storage.js";

/** What a claim request leads to. */
export type ClaimDecision =
  /** Try the conditional UPDATE (the first claim wins). */
  | { readonly type: "claim" }
  /** This executor holds the claim already: answer it again. */
  | { readonly type: "replay"; readonly claim_id: string; readonly accept_deadline_ms: number }
  /** Refused. */
  | { readonly type: "refuse"; readonly error: ProtocolError };

/** Decides a claim of `target` by `executor` (its connection already checked live) at `nowMs`. */
export function decideClaim(target: CallTarget, executor: ExecutorRecord, nowMs: number): ClaimDecision {
  const { call, run } = target;
  if (!executor.binding_ids.includes(call.binding_id))
    return { type: "refuse", error: notFoundError("tool call", call.call_id) };
  if (runFreezesCall(run.status, call)) {
    return refuse(
      "run_terminated",
      `run ${JSON.stringify(call.run_id)} has ended (${run.status}); its calls cannot be claimed`,
      {
        run_status: run.status,
      },
    );
  }
  const lapsed = call.status === "claimed" && call.accept_deadline_ms !== null && call.accept_deadline_ms < nowMs;
  if (call.executor_id === executor.executor_id && call.claim_id !== null && !lapsed) {
    return { type: "replay", claim_id: call.claim_id, accept_deadline_ms: call.accept_deadline_ms ?? call.deadline_ms };
  }
  if ((call.status === "pending" || lapsed) && nowMs < call.deadline_ms) return { type: "claim" };
  if (call.claim_id !== null && !lapsed) {
    return refuse("already_claimed", "another executor holds the claim on this call", { call_status: call.status });
  }
  return refuse(
    "conflict",
    `the call is ${call.status}${nowMs >= call.deadline_ms ? " and past its deadline" : ""}; it cannot be claimed`,
    {
      call_status: call.status,
    },
  );
}

function refuse(code: ProtocolError["code"], message: string, details: Record<string, unknown>): ClaimDecision {
  return { type: "refuse", error: new ProtocolError(code, message, undefined, details) };
}
