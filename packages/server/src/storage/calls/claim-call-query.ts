/**
 * A claim of a call: `pending` → `claimed` (or a lapsed claim's `claimed` → `claimed`, released and
 * taken in the same step) — ONE conditional UPDATE, so of concurrent claims only the first changes
 * the row. The claim holds only while the call's deadline is ahead and the executor's current
 * connection is the named one, online, leased, and opened by the claiming key (checked in the SQL).
 */

import { sql } from "kysely";
import { NamedReusableQuery } from "../engine/reusable-query.js";
import type { Db } from "../engine/store-context.js";
import type { Dialect } from "../storage.js";
import { CLAIM_EDGES, RELEASE_EDGES } from "./call-statuses.js";
import type { ClaimInput } from "./contract.js";

// Compiled once (reusable-query.ts).
const CLAIM = new NamedReusableQuery<ClaimInput, unknown>(
  [
    "run_id",
    "call_id",
    "executor_id",
    "connection_id",
    "key_id",
    "claim_id",
    "grant_hash",
    "now_ms",
    "accept_deadline_ms",
  ],
  (db, input) =>
    db
      .updateTable("tool_calls")
      .set({
        status: CLAIM_EDGES.to,
        executor_id: input.executor_id,
        claim_id: input.claim_id,
        grant_hash: input.grant_hash,
        claimed_at_ms: input.now_ms,
        accept_deadline_ms: input.accept_deadline_ms,
        accepted_at_ms: null,
        updated_at_ms: input.now_ms,
      })
      .where("call_id", "=", input.call_id)
      .where("run_id", "=", input.run_id)
      .where("deadline_ms", ">", input.now_ms)
      .where((eb) =>
        eb.or([
          eb("status", "in", CLAIM_EDGES.from),
          eb.and([eb("status", "in", RELEASE_EDGES.from), eb("accept_deadline_ms", "<", input.now_ms)]),
        ]),
      )
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom("executors")
            .select(sql`1`.as("one"))
            .where("executors.executor_id", "=", input.executor_id)
            .where("executors.connection_id", "=", input.connection_id)
            // Only the key that opened the executor's current connection claims for it.
            .where("executors.key_id", "=", input.key_id)
            .where("executors.online", "=", 1)
            .where("executors.lease_expires_ms", ">", input.now_ms),
        ),
      ),
);

/** True when this claim changed the call (it won). */
export async function claimCall(dialect: Dialect, db: Db, input: ClaimInput): Promise<boolean> {
  return (await CLAIM.affected(dialect, db, input)) > 0n;
}
