/**
 * The claim flow: load the call with its run, check the credential's scopes (404 outside them, as if
 * missing), that the credential owns the executor (403 `executor_key_mismatch`) and the executor's
 * connection, decide (`decideClaim`), then try the ONE conditional UPDATE that makes the first claim
 * win — it holds the connection AND the key in its WHERE. A claim that lost the race is decided again
 * on what won: the same executor (a concurrent duplicate) gets the claim replayed, another one gets
 * `already_claimed`. A replay answers the grant the row holds the hash of, when this key may be given
 * it (`reissuedGrant`); a claim made with another key of the executor is 409 `conflict`.
 */

import { compact, ProtocolError, parseJson } from "@toolhost/protocol";
import type { ClaimRequest } from "@toolhost/protocol/wire";
import { connectionProblem } from "../auth/executor-access.js";
import { inAgentScope, inBindingScope, notFoundError } from "../auth/id-scope.js";
import type { Identity } from "../auth/identity.js";
import type { Clock } from "../clock.js";
import { isoTime } from "../http/wire-time.js";
import { newId } from "../ids.js";
import { linkActiveSpansToCall } from "../observability/call-tracing.js";
import { inSpan } from "../observability/request-tracing.js";
import type { CallTarget, Storage } from "../storage/storage.js";
import { decideClaim } from "./decide-claim.js";
import { type GrantSubject, grantHash, reissuedGrant, signGrant } from "./grant.js";
import { grantKey } from "./grant-keys.js";

/** What the claim flow needs. */
export interface ClaimDeps {
  readonly storage: Storage;
  readonly clock: Clock;
  /** How long a claim may wait for its `accepted` receipt. */
  readonly acceptWindowMs: number;
  /** Told how long a call waited from its creation to the claim that won it (the claim latency metric). */
  readonly onClaimed?: (waitedMs: number) => void;
}

/** How often a claim that lost a race is decided again before giving up with `conflict`. */
const MAX_ATTEMPTS = 3;

/** Claims call `callId` of run `runId` for the request's executor; answers the 200 body's exact text. */
export function claimCall(
  deps: ClaimDeps,
  identity: Identity,
  runId: string,
  callId: string,
  request: ClaimRequest,
): Promise<string> {
  const attributes = {
    "toolhost.run_id": runId,
    "toolhost.call_id": callId,
    "toolhost.executor_id": request.executor_id,
  };
  return inSpan("toolhost.claim", attributes, () => claimCallOnce(deps, identity, runId, callId, request));
}

async function claimCallOnce(
  deps: ClaimDeps,
  identity: Identity,
  runId: string,
  callId: string,
  request: ClaimRequest,
): Promise<string> {
  const key = await grantKey(deps.storage.secrets, deps.clock);
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const nowMs = deps.clock.nowMs();
    // The call, its run and the executor in one statement.
    const { target, executor } = await deps.storage.callClaims.context({
      run_id: runId,
      call_id: callId,
      executor_id: request.executor_id,
      receipt: false,
    });
    if (
      target === undefined ||
      !inAgentScope(identity, target.run.agent_id) ||
      !inBindingScope(identity, target.call.binding_id)
    ) {
      throw notFoundError("tool call", callId);
    }
    // The claim request is in the executor's trace; the call in the run's (docs/operations.md#traces).
    if (attempt === 1) linkActiveSpansToCall(target.call);
    const problem = connectionProblem(identity, request.executor_id, executor, request.connection_id, nowMs);
    if (problem !== undefined) throw problem;
    if (executor === undefined) throw new Error("connectionProblem let an unknown executor through");
    const decision = decideClaim(target, executor, nowMs);
    if (decision.type === "refuse") throw decision.error;
    const subject = (claimId: string): GrantSubject => ({
      claimId,
      callId,
      executorId: executor.executor_id,
      keyId: identity.keyId,
    });
    if (decision.type === "replay") {
      const grant = reissuedGrant(key, subject(decision.claim_id), target.call.grant_hash);
      if (grant === undefined) throw claimOfAnotherKey(decision.claim_id);
      return claimAnswerText(target, decision.claim_id, grant, true, decision.accept_deadline_ms);
    }
    const claimId = newId("clm", nowMs);
    const grant = signGrant(key, subject(claimId));
    const acceptDeadlineMs = nowMs + deps.acceptWindowMs;
    const won = await deps.storage.callClaims.claim({
      run_id: runId,
      call_id: callId,
      executor_id: executor.executor_id,
      connection_id: request.connection_id,
      key_id: identity.keyId,
      claim_id: claimId,
      grant_hash: grantHash(grant),
      now_ms: nowMs,
      accept_deadline_ms: acceptDeadlineMs,
    });
    if (won) {
      deps.onClaimed?.(nowMs - target.call.created_at_ms);
      return claimAnswerText(target, claimId, grant, false, acceptDeadlineMs);
    }
  }
  throw new ProtocolError("conflict", "the call changed while it was being claimed; try again");
}

/** The 409 of a claim replay whose grant was issued to another API key of the same executor. */
function claimOfAnotherKey(claimId: string): ProtocolError {
  return new ProtocolError(
    "conflict",
    "this executor's claim on the call was made with another API key; its grant is not issued again (an unaccepted claim lapses at its accept deadline)",
    undefined,
    { claim_id: claimId },
  );
}

/** The claim answer, written with the compact writer so `arguments` come out exactly as stored. */
export function claimAnswerText(
  target: CallTarget,
  claimId: string,
  grant: string,
  replayed: boolean,
  acceptDeadlineMs: number,
): string {
  const { call, run } = target;
  return compact({
    claim_id: claimId,
    grant,
    replayed,
    call: {
      run_id: call.run_id,
      call_id: call.call_id,
      tool_name: call.tool_name,
      binding_id: call.binding_id,
      effect: call.effect,
      arguments: parseJson(call.arguments_json),
      arguments_digest: call.arguments_digest,
      subject: run.subject,
      agent_id: run.agent_id,
      agent_version: run.agent_version,
      toolset_id: run.toolset_id,
      toolset_version: run.toolset_version,
      deadline: isoTime(call.deadline_ms),
      accept_deadline: isoTime(acceptDeadlineMs),
      // The run's trace, for the executor's handler span (docs/operations.md#traces).
      ...(call.trace_context === null ? {} : { traceparent: call.trace_context }),
    },
  });
}
