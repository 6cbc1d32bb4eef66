/**
 * The receipt flow: read the body losslessly, verify the grant's signature for the sending key, then
 * in ONE transaction load the call (locking its run and the call on PostgreSQL), check that the
 * sending key owns the receipt's executor (404 / 403 `executor_key_mismatch`), decide
 * (`decideReceipt`), store the receipt with its first answer, make the status change — its UPDATE
 * holds the claim and the owning key in its WHERE — and for a settling change let the run learn the
 * outcome (`RunProgress.callSettled`, which projects a result once into the history and, when the
 * turn settled, marks the run ready). What must follow is registered with the transaction and runs
 * only after its commit (docs/storage.md, "After-commit effects"): the turn engine makes the next turn
 * in its own transaction, and the receipt is answered after it, with the run's status then.
 */

import { trace } from "@opentelemetry/api";
import { FINAL_RECEIPT_KINDS, ProtocolError } from "@toolhost/protocol";
import { ownershipProblem } from "../auth/executor-access.js";
import { inAgentScope, inBindingScope, notFoundError } from "../auth/id-scope.js";
import type { Identity } from "../auth/identity.js";
import type { Clock } from "../clock.js";
import { linkActiveSpansToCall } from "../observability/call-tracing.js";
import { inSpan } from "../observability/request-tracing.js";
import type { HistoryResultText, RunProgress } from "../runs/run-progress.js";
import type { ReceiptResultReference } from "../storage/records.js";
import type { Storage, Stores } from "../storage/storage.js";
import { isStoredStateChangedError } from "../storage/stored-state-changed.js";
import { answerRebuildable, decideReceipt, type ReceiptAnswer, receiptAnswerJson } from "./decide-receipt.js";
import { secretsEqual, signGrant } from "./grant.js";
import { grantKey } from "./grant-keys.js";
import { readReceiptBody } from "./receipt-body.js";

/** What the receipt flow needs. */
export interface ReceiptDeps {
  readonly storage: Storage;
  /** The progress limits (server options `maxProgressPerCall`, `maxProgressBytes`). */
  readonly progressLimits: { readonly maxPerCall: number; readonly maxBytes: number };
  readonly clock: Clock;
  readonly runProgress: RunProgress;
}

/** The progress limits of `options` (the server's `maxProgressPerCall` and `maxProgressBytes`). */
export function progressLimitsOf(options: {
  readonly maxProgressPerCall: number;
  readonly maxProgressBytes: number;
}): ReceiptDeps["progressLimits"] {
  return { maxPerCall: options.maxProgressPerCall, maxBytes: options.maxProgressBytes };
}

/** Records the receipt whose exact body is `bodyText` on call `callId` of run `runId`; answers the 200 body text. */
export function recordReceipt(
  deps: ReceiptDeps,
  identity: Identity,
  runId: string,
  callId: string,
  bodyText: string,
): Promise<string> {
  const attributes = { "toolhost.run_id": runId, "toolhost.call_id": callId };
  return inSpan("toolhost.receipt", attributes, () => recordReceiptOnce(deps, identity, runId, callId, bodyText));
}

async function recordReceiptOnce(
  deps: ReceiptDeps,
  identity: Identity,
  runId: string,
  callId: string,
  bodyText: string,
): Promise<string> {
  const incoming = readReceiptBody(bodyText);
  const key = await grantKey(deps.storage.secrets, deps.clock);
  const expected = signGrant(key, {
    claimId: incoming.claim_id,
    callId,
    executorId: incoming.executor_id,
    keyId: identity.keyId,
  });
  const verified = { ...incoming, grant_authentic: secretsEqual(expected, incoming.grant) };
  const nowMs = deps.clock.nowMs();

  const recorded = await inTransactionOrConflict(deps.storage, async (stores): Promise<Recorded> => {
    // The call and its run (locked on PostgreSQL), the executor and a receipt stored under the same
    // ID, in one statement.
    // A settling receipt loads the whole run too (the run's progress needs it).
    const { target, executor, existing, run, progress_receipts } = await stores.callClaims.context({
      run_id: runId,
      call_id: callId,
      executor_id: incoming.executor_id,
      claim_id: incoming.claim_id,
      receipt_id: incoming.receipt_id,
      receipt: true,
      whole_run: FINAL_RECEIPT_KINDS.has(incoming.kind),
    });
    if (
      target === undefined ||
      !inAgentScope(identity, target.run.agent_id) ||
      !inBindingScope(identity, target.call.binding_id)
    ) {
      throw notFoundError("tool call", callId);
    }
    const ownership = ownershipProblem(identity, incoming.executor_id, executor);
    if (ownership !== undefined) throw ownership;
    // The receipt request is in the executor's trace; the call in the run's (docs/operations.md#traces).
    linkActiveSpansToCall(target.call);
    const progress = { ...deps.progressLimits, stored: progress_receipts ?? 0 };
    const decision = decideReceipt(target.call, target.run.status, existing, verified, nowMs, progress);
    trace.getActiveSpan()?.setAttributes({
      "toolhost.receipt_kind": incoming.kind,
      "toolhost.call_status": decision.type === "store" ? decision.call_status : target.call.status,
    });
    if (decision.type === "replay") return { text: decision.answer_json };
    if (decision.type === "refuse") throw decision.error;

    let applied = decision.applied;
    let runStatus = target.run.status;
    let ready = false;
    let resultReference: ReceiptResultReference | undefined;
    const change = decision.change;
    const holder = { call_id: callId, claim_id: incoming.claim_id, key_id: identity.keyId };
    if (change?.type === "settle") {
      const settled = await stores.callClaims.settle(holder, change.from, change.to, nowMs);
      if (settled === undefined) throw changedMeanwhile();
      // The run was locked by the context statement, before the call settled (see LockedRunFacts).
      const locked = run === undefined ? undefined : { run, others_unsettled: settled.others_unsettled };
      const progress = await deps.runProgress.callSettled(stores, settled.call, change.outcome, nowMs, locked);
      // (For a compensation call the run answers applied whenever the call changed.)
      applied = progress.applied;
      runStatus = progress.run_status;
      ready = progress.ready === true;
      if (incoming.kind === "completed") resultReference = storedOnce(incoming.body_text, progress.result_text);
    }
    const answer: ReceiptAnswer = {
      receipt_id: incoming.receipt_id,
      kind: incoming.kind,
      replayed: false,
      ...(decision.confirmed === undefined ? {} : { confirmed: decision.confirmed }),
      applied,
      call_status: decision.call_status,
      run_status: runStatus,
    };
    const answerJson = receiptAnswerJson(answer);
    const receipt = {
      call_id: callId,
      receipt_id: incoming.receipt_id,
      run_id: runId,
      kind: incoming.kind,
      executor_id: incoming.executor_id,
      claim_id: incoming.claim_id,
      body_text: incoming.body_text,
      body_digest: incoming.body_digest,
      // A replay rebuilds an answer of the usual members from the columns (and the facts of then).
      answer_json: answerRebuildable(incoming.kind, decision.confirmed) ? null : answerJson,
      applied,
      created_at_ms: nowMs,
      ...(resultReference === undefined ? {} : { result_reference: resultReference }),
    };
    // An accepting receipt changes the call and is stored in one step (one statement on PostgreSQL).
    // Either fails the transaction when the call changed meanwhile (on PostgreSQL at the commit: both
    // are sent with it unanswered, under the lock the context statement took).
    if (change?.type === "accept") await stores.callClaims.acceptRecorded(holder, nowMs, receipt);
    else await stores.receipts.insertNext(receipt);
    return ready ? { text: answerJson, answer } : { text: answerJson };
  });
  if (recorded.answer === undefined) return recorded.text;
  // The receipt settled the turn: the engine makes the next one after the commit, and the answer
  // tells the run's status after it (docs/protocol.md). A replay answers the present anyway.
  const status = await deps.runProgress.advanced(runId);
  return status === undefined ? recorded.text : receiptAnswerJson({ ...recorded.answer, run_status: status });
}

/** What the receipt's transaction answers: the answer's text, and the answer itself when the run became ready. */
interface Recorded {
  readonly text: string;
  readonly answer?: ReceiptAnswer;
}

/** Shortest result text stored once rather than twice (below, the reference costs about as much). */
const MIN_SHARED_RESULT_CHARS = 64;

/**
 * Where the body's result text is stored already, when the history item holds it byte for byte (a
 * result within the tool's budget, sent as compact JSON): the body is then stored without it.
 */
function storedOnce(body: string, item: HistoryResultText | undefined): ReceiptResultReference | undefined {
  if (item === undefined || item.text.length < MIN_SHARED_RESULT_CHARS) return undefined;
  const at = body.indexOf(item.text);
  if (at < 0) return undefined;
  return { seq: item.seq, at, from: item.from, length: item.text.length };
}

/**
 * The receipt's transaction; its writes fail it with a StoredStateChangedError when the call changed
 * meanwhile (stored-state-changed.ts): 409 `conflict`, send the receipt again.
 */
async function inTransactionOrConflict<T>(storage: Storage, work: (stores: Stores) => Promise<T>): Promise<T> {
  try {
    return await storage.transaction(work);
  } catch (error) {
    if (isStoredStateChangedError(error)) throw changedMeanwhile();
    throw error;
  }
}

function changedMeanwhile(): ProtocolError {
  return new ProtocolError("conflict", "the call changed while this receipt was recorded; send it again");
}
