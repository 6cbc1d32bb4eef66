/**
 * A receipt's settling change of a call: ONE conditional UPDATE from the one status it was decided
 * on, by the claim holding the call and while the sending key owns the claim's executor. It answers
 * the changed call and how many other calls of its turn are still unsettled — counted by the same
 * statement, so the run learns whether the turn is over without listing the turn's calls. The count
 * is only meaningful when the caller locked the run first (the receipt flow does: every flow that
 * settles calls takes the run's lock before deciding on the turn, so siblings settled meanwhile are
 * committed and seen).
 */

import { type CallStatus, SETTLED_CALL_STATUSES } from "@toolhost/protocol";
import { sql } from "kysely";
import { NamedReusableQuery } from "../engine/reusable-query.js";
import type { Db } from "../engine/store-context.js";
import type { CallRecord } from "../records.js";
import type { Dialect } from "../storage.js";
import { CALL_COLUMNS, callFromRow } from "./call-row.js";
import type { SettledCall } from "./contract.js";
import { executorOwnedBy } from "./executor-owned-by.js";

/** The named inputs of the statement. */
export interface SettleCallInput {
  readonly call_id: string;
  readonly claim_id: string;
  /** The API key the receipt came from: it must own the call's executor. */
  readonly key_id: string;
  readonly from: CallStatus;
  readonly to: CallStatus;
  readonly now_ms: number;
}

const SETTLED = [...SETTLED_CALL_STATUSES];

// Compiled once (reusable-query.ts).
const SETTLE_CALL = new NamedReusableQuery<SettleCallInput, CallRecord & { others_unsettled: number | string }>(
  ["to", "now_ms", "call_id", "claim_id", "from", "key_id"],
  (db, input) =>
    db
      .updateTable("tool_calls")
      .set((eb) => ({
        status: input.to,
        settled_at_ms: eb.fn.coalesce("settled_at_ms", eb.val(input.now_ms)),
        updated_at_ms: input.now_ms,
      }))
      .where("call_id", "=", input.call_id)
      .where("claim_id", "=", input.claim_id)
      .where("status", "=", input.from)
      .where((eb) => executorOwnedBy(eb, input.key_id))
      .returning([
        ...CALL_COLUMNS,
        // The call itself is left out, so whether the statement sees its own change does not matter.
        sql<number | string>`(select count(*) from tool_calls as other
          where other.run_id = tool_calls.run_id and other.turn = tool_calls.turn
          and other.call_id <> tool_calls.call_id and other.compensates is null
          and other.status not in (${sql.join(SETTLED)}))`.as("others_unsettled"),
      ]),
);

/** Runs the statement on `db`; undefined when the call did not change. */
export async function settleCall(dialect: Dialect, db: Db, input: SettleCallInput): Promise<SettledCall | undefined> {
  const row = await SETTLE_CALL.takeFirst(dialect, db, input);
  if (row === undefined) return undefined;
  const { others_unsettled, ...call } = row;
  return { call: callFromRow(call), others_unsettled: Number(others_unsettled) };
}
