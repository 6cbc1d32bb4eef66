/**
 * A receipt's `accepted` change of a call: `claimed` → `accepted` by the claim holding it, while its
 * accept window is open and the sending key owns the claim's executor — ONE conditional UPDATE, so
 * concurrent receipts can never both win. `acceptCallRecorded` also stores the receipt: on PostgreSQL
 * in the same statement (a data-modifying CTE: the receipt goes in only when the call changed, with
 * its `seq` read inside and `ON CONFLICT DO NOTHING` on its ID), one round trip instead of two;
 * SQLite has no data-modifying CTEs and runs the UPDATE and then the INSERT.
 */

import { sql } from "kysely";
import { compilableSql, NamedReusableQuery } from "../engine/reusable-query.js";
import type { Db } from "../engine/store-context.js";
import type { CallRecord } from "../records.js";
import type { Dialect } from "../storage.js";
import { oneUnlessGuardFails, StoredStateChangedError } from "../stored-state-changed.js";
import { callFromRow } from "./call-row.js";
import { ACCEPT_EDGES } from "./call-statuses.js";
import { executorOwnedBy } from "./executor-owned-by.js";
import { insertNextReceipt, type NewReceipt, storedReceiptBody } from "./insert-receipt-query.js";
import { storedDigest } from "./receipt-digest.js";

/** The named inputs of the change. */
export interface AcceptCallInput {
  readonly call_id: string;
  readonly claim_id: string;
  /** The API key the receipt came from: it must own the call's executor. */
  readonly key_id: string;
  readonly now_ms: number;
}

// Compiled once (reusable-query.ts).
const ACCEPT = new NamedReusableQuery<AcceptCallInput, CallRecord>(
  ["now_ms", "call_id", "claim_id", "key_id"],
  (db, input) =>
    db
      .updateTable("tool_calls")
      .set({ status: ACCEPT_EDGES.to, accepted_at_ms: input.now_ms, updated_at_ms: input.now_ms })
      .where("call_id", "=", input.call_id)
      .where("claim_id", "=", input.claim_id)
      .where("status", "in", ACCEPT_EDGES.from)
      .where("accept_deadline_ms", ">=", input.now_ms)
      .where((eb) => executorOwnedBy(eb, input.key_id))
      .returningAll(),
);

/** What PostgreSQL's change-and-record statement stores of the receipt, besides the change's inputs. */
interface AcceptRecordedInput extends AcceptCallInput {
  readonly receipt_id: string;
  readonly run_id: string;
  readonly kind: string;
  readonly executor_id: string;
  readonly body_text: string;
  readonly body_grant: Uint8Array | null;
  readonly body_digest: Uint8Array;
  readonly answer_json: string | null;
  readonly applied: number;
  readonly created_at_ms: number;
}

// PostgreSQL's change and record in one statement, compiled once (reusable-query.ts). The receipt flow
// holds the call's lock and sends it with COMMIT, unanswered: when the call did not change (or the
// receipt ID was taken), it fails, and so does the transaction (stored-state-changed.ts).
const ACCEPT_RECORDED = new NamedReusableQuery<AcceptRecordedInput, { one: number }>(
  [
    "now_ms",
    "call_id",
    "claim_id",
    "key_id",
    "receipt_id",
    "run_id",
    "kind",
    "executor_id",
    "body_text",
    "body_grant",
    "body_digest",
    "answer_json",
    "applied",
    "created_at_ms",
  ],
  (db, input) =>
    compilableSql(
      db,
      sql<{ one: number }>`
    with accepted as (
      update tool_calls set status = ${ACCEPT_EDGES.to}, accepted_at_ms = ${input.now_ms}, updated_at_ms = ${input.now_ms}
      where call_id = ${input.call_id} and claim_id = ${input.claim_id}
        and status in (${sql.join([...ACCEPT_EDGES.from])}) and accept_deadline_ms >= ${input.now_ms}
        and exists (select 1 from executors
          where executors.executor_id = tool_calls.executor_id and executors.key_id = ${input.key_id})
      returning call_id
    ), stored as (
      insert into receipts (call_id, receipt_id, seq, run_id, kind, executor_id, claim_id, body_text, body_grant,
        body_digest, answer_json, applied, created_at_ms)
      select accepted.call_id, ${input.receipt_id}::text,
        (select coalesce(max(last.seq), 0) + 1 from receipts as last where last.call_id = ${input.call_id}),
        ${input.run_id}::text, ${input.kind}::text, ${input.executor_id}::text, ${input.claim_id}::text,
        ${input.body_text}::text, ${input.body_grant}::bytea, ${input.body_digest}::bytea, ${input.answer_json}::text,
        ${input.applied}::integer, ${input.created_at_ms}::bigint
      from accepted
      on conflict (call_id, claim_id, receipt_id) do nothing
      returning seq
    )
    select ${oneUnlessGuardFails(sql`count(*) = 1`, sql`count(*)`, "calls accepted with this receipt, the call changed")} as one
    from stored`,
    ),
);

/** The change alone; the accepted call, or undefined when nothing changed. */
export async function acceptCall(dialect: Dialect, db: Db, input: AcceptCallInput): Promise<CallRecord | undefined> {
  const row = await ACCEPT.takeFirst(dialect, db, input);
  return row === undefined ? undefined : callFromRow(row);
}

/**
 * The change and the receipt that made it (atomic: inside the caller's transaction on SQLite, one
 * statement on PostgreSQL). When either does not happen it fails with a StoredStateChangedError, and
 * so does the caller's transaction, so neither is kept; on PostgreSQL it is sent unanswered and that
 * failure comes at the commit.
 */
export async function acceptCallRecorded(
  dialect: Dialect,
  db: Db,
  input: AcceptCallInput,
  receipt: NewReceipt,
): Promise<void> {
  if (receipt.call_id !== input.call_id || receipt.claim_id !== input.claim_id) {
    throw new Error("the receipt must be the accepting claim's");
  }
  // Only a completed receipt carries a result (accepted ones are stored whole).
  if (receipt.result_reference !== undefined) throw new Error("an accepting receipt carries no result");
  if (dialect === "sqlite") {
    if ((await acceptCall(dialect, db, input)) === undefined) throw callNotAccepted();
    return insertNextReceipt(dialect, db, receipt);
  }
  const stored = storedReceiptBody(receipt);
  await ACCEPT_RECORDED.send(dialect, db, {
    ...input,
    receipt_id: receipt.receipt_id,
    run_id: receipt.run_id,
    kind: receipt.kind,
    executor_id: receipt.executor_id,
    body_text: stored.body_text,
    body_grant: stored.body_grant,
    body_digest: storedDigest(receipt.body_digest),
    answer_json: receipt.answer_json,
    applied: receipt.applied ? 1 : 0,
    created_at_ms: receipt.created_at_ms,
  });
}

function callNotAccepted(): StoredStateChangedError {
  return new StoredStateChangedError("the stored state changed meanwhile: the call was not accepted");
}
