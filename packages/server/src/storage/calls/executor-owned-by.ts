/** The ownership condition of every receipt's change of a call, in SQL. */

import { type ExpressionBuilder, sql } from "kysely";
import type { Database } from "../database-schema.js";

/** The call's executor belongs to `keyId` (its current connection was opened with that key). */
export function executorOwnedBy(eb: ExpressionBuilder<Database, "tool_calls">, keyId: string) {
  return eb.exists(
    eb
      .selectFrom("executors")
      .select(sql`1`.as("one"))
      .whereRef("executors.executor_id", "=", "tool_calls.executor_id")
      .where("executors.key_id", "=", keyId),
  );
}
