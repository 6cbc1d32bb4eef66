/**
 * Write guards that fail their statement. A guarded write sent without waiting for its answer
 * (`ReusableQuery.send` on PostgreSQL: it leaves with COMMIT) cannot tell its caller "nothing matched"
 * by a row count, so it checks its guard itself and fails when the guard does not hold: the
 * transaction rolls back, and the storage answers a `StoredStateChangedError` — what the caller would
 * have made of a zero row count (the receipt flow: 409 `conflict`, send it again).
 *
 * The failure is a cast of a text that names the guard's value to an integer: PostgreSQL fails it with
 * SQLSTATE 22P02 and the text in the message, where `GUARD_MARKER` identifies it. The text names a
 * value read by the statement, so the planner cannot fold the cast ahead of time.
 */

import { type RawBuilder, sql } from "kysely";

/** The words every guard's failure carries (22P02's message quotes the text that failed the cast). */
export const GUARD_MARKER = "toolhost write guard";

/** The stored state a guarded write relied on changed before it ran: nothing of its transaction was kept. */
export class StoredStateChangedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StoredStateChangedError";
  }
}

/** True when `value` is a StoredStateChangedError (also across duplicated module copies). */
export function isStoredStateChangedError(value: unknown): value is StoredStateChangedError {
  return (
    value instanceof StoredStateChangedError || (value instanceof Error && value.name === "StoredStateChangedError")
  );
}

/**
 * SQL (PostgreSQL) answering the integer 1 when `holds`, else failing the statement with `what`;
 * `value` (a column or an aggregate of the statement) goes into the failure's text.
 */
export function oneUnlessGuardFails(holds: RawBuilder<unknown>, value: RawBuilder<unknown>, what: string) {
  const text = ` (${GUARD_MARKER}: ${what})`;
  return sql<number>`case when ${holds} then 1 else cast(${value} || ${sql.lit(text)} as integer) end`;
}

/** `error` (a driver's) as a StoredStateChangedError when a write guard failed it, else undefined. */
export function guardFailureOf(error: unknown): StoredStateChangedError | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (code !== "22P02" || !error.message.includes(GUARD_MARKER)) return undefined;
  const at = error.message.indexOf(`${GUARD_MARKER}: `);
  const what = error.message.slice(at + GUARD_MARKER.length + 2).replace(/\)"?$/, "");
  return new StoredStateChangedError(`the stored state changed meanwhile: ${what}`, { cause: error });
}
