/**
 * `GET /v1/executors/{executor_id}/pending?claim=N`: the pending answer with up to N of its candidates
 * claimed directly. Each claim goes through the claim route's own flow (`claimCall`: the same scope,
 * ownership, connection, binding and lease checks, the same conditional UPDATE and the same grant), so
 * each entry of `claims` is byte for byte what `POST …/claim` answers. A candidate another executor won
 * meanwhile (or that became unclaimable) is dropped; the candidates not claimed stay in `data` without
 * arguments or grant. A connection that declared `tool_names` is given claims of those tools only.
 * The claims are tried side by side, the woken call first; a lost one is replaced by the next candidate. When some fail for a reason other than the candidate being gone
 * (the connection superseded meanwhile) while others were made, the claims made are answered — a lost
 * answer would leave them to lapse — and the problem shows on the next request. A problem with the executor's connection fails the whole request, as on the
 * claim route.
 */

import { isProtocolError, ProtocolError } from "@toolhost/protocol";
import {
  type ExecutorBatchLimits,
  PENDING_CLAIM_MAX,
  type PendingAnswer,
  RECEIPTS_BATCH_MAX,
} from "@toolhost/protocol/wire";
import type { Identity } from "../auth/identity.js";
import { hasAnyScope } from "../auth/identity.js";
import { type ClaimDeps, claimCall } from "../calls/claim-call.js";
import type { ExecutorRecord } from "../storage/records.js";
import type { CallWakeup } from "../wakeups/wakeup.js";
import type { PolledPending } from "./pending-poll.js";

/** What connect answers as `batch`: the batched routes this server offers and their limits. */
export const EXECUTOR_BATCH_LIMITS: ExecutorBatchLimits = {
  claim_max: PENDING_CLAIM_MAX,
  receipts_max: RECEIPTS_BATCH_MAX,
};

/** Claim refusals that mean "this candidate is gone", not "this request is wrong": skip the candidate. */
const CANDIDATE_GONE: ReadonlySet<string> = new Set(["already_claimed", "conflict", "run_terminated", "not_found"]);

/** The 403 of `claim` asked with a key lacking `tools:execute` (claims need it, as on the claim route). */
export function requireClaimScope(identity: Identity): void {
  if (hasAnyScope(identity, ["tools:execute"])) return;
  throw new ProtocolError("forbidden", "claim needs the scope tools:execute", "/claim", {
    required_scopes: ["tools:execute"],
  });
}

/**
 * Claims up to `claimMax` of the polled answer's candidates for `executor`'s connection `connectionId`
 * — the call whose wake-up ended the wait first (so woken waiters do not all race for the oldest
 * call), then oldest first — and answers the full 200 body text (claims written by the claim route's
 * writer). A candidate lost to another executor is replaced by the next one (a lost race takes the
 * next call rather than coming back empty). When the woken call is left unclaimed here, `handOn` gets
 * its wake-up, so the next waiter takes it.
 */
export async function claimFromPending(
  deps: ClaimDeps,
  identity: Identity,
  executor: ExecutorRecord,
  connectionId: string,
  polled: PolledPending,
  claimMax: number,
  handOn: (wakeup: CallWakeup) => void,
): Promise<string> {
  const { answer, woken } = polled;
  const claims: string[] = [];
  const claimedOrGone = new Set<string>();
  const request = { executor_id: executor.executor_id, connection_id: connectionId };
  // A connection that declared its tools is only given claims of those tools (the rest stay candidates).
  const serves = (tool: string): boolean => executor.tool_names === null || executor.tool_names.includes(tool);
  const first = answer.data.filter((candidate) => candidate.call_id === woken?.call_id);
  const served = [...first, ...answer.data.filter((candidate) => candidate.call_id !== woken?.call_id)].filter(
    (candidate) => serves(candidate.tool_name),
  );
  let tried = 0;
  let problem: unknown;
  // The first `claimMax` served candidates are claimed side by side (their commits can share a disk
  // flush); each one lost is replaced by the next untried candidate, until none is left.
  while (claims.length < claimMax && tried < served.length && problem === undefined) {
    const chosen = served.slice(tried, tried + claimMax - claims.length);
    tried += chosen.length;
    const settled = await Promise.allSettled(
      chosen.map((candidate) => claimCall(deps, identity, candidate.run_id, candidate.call_id, request)),
    );
    for (const [index, result] of settled.entries()) {
      const candidate = chosen[index] as PendingAnswer["data"][number];
      if (result.status === "fulfilled") {
        claims.push(result.value);
        claimedOrGone.add(candidate.call_id);
      } else if (isProtocolError(result.reason) && CANDIDATE_GONE.has(result.reason.code)) {
        claimedOrGone.add(candidate.call_id);
      } else {
        problem ??= result.reason;
      }
    }
  }
  if (woken !== undefined && !claimedOrGone.has(woken.call_id)) handOn(woken);
  // Claims made must reach their executor: answer them; a problem then shows on the next request.
  if (problem !== undefined && claims.length === 0) throw problem;
  const rest = {
    data: answer.data.filter((candidate) => !claimedOrGone.has(candidate.call_id)),
    cancellations: answer.cancellations,
    next_cursor: answer.next_cursor,
  };
  // The claims are spliced in as written so their arguments keep the stored text (big integers, key order).
  const head = JSON.stringify(rest);
  return `${head.slice(0, -1)},"claims":[${claims.join(",")}]}`;
}
