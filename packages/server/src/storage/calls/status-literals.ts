/**
 * Status conditions spelled with literals rather than bound parameters: a partial index
 * (`WHERE status = 'pending'`, migration 0014) serves a query only when the planner can prove the
 * query's condition implies the index's, and it cannot from a parameter (PostgreSQL's generic plans,
 * SQLite always). The literals are the call transition table's statuses, never input.
 */

import type { CallStatus } from "@toolhost/protocol";
import { type RawBuilder, type SqlBool, sql } from "kysely";

/** `column = 'status'` with the status inline. */
export function statusIs(column: string, status: CallStatus): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} = ${sql.lit(status)}`;
}

/** `column in ('a', 'b', …)` with the statuses inline, in the order given (an index predicate lists them so). */
export function statusIn(column: string, statuses: readonly CallStatus[]): RawBuilder<SqlBool> {
  if (statuses.length === 0) return sql<SqlBool>`1 = 0`;
  if (statuses.length === 1) return statusIs(column, statuses[0] as CallStatus);
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join(statuses.map((status) => sql.lit(status)))})`;
}
