/**
 * Named prepared statements on PostgreSQL for the hot queries. An unnamed statement is parsed and
 * planned by the server on every run (measured: most of postgres's CPU on the tool-call cycle); a named
 * one is parsed once per connection and then only bound and executed.
 *
 * Which statements: those of fixed SQL text (`ReusableQuery`, compiled once per dialect) register
 * here up front; any other text is registered once it has been sent `REPEATS_BEFORE_NAMING` times (the
 * builder-made hot statements: inserts of runs and calls, the candidates query). The names are capped
 * at `MAX_NAMED` per process, so texts that vary with the data (IN lists of every length) cannot grow
 * the server's or PostgreSQL's memory without bound. Each pooled client's `query` sends a registered
 * text under its name; every other text goes unnamed.
 */

import type pg from "pg";

/** Most statement texts named per process. */
export const MAX_NAMED = 512;
/** Sends of an unregistered text after which it is named. */
export const REPEATS_BEFORE_NAMING = 3;
/** Most unregistered texts whose sends are counted at a time (the counts restart when full). */
const MAX_COUNTED = 4_096;

const names = new Map<string, string>();
const sends = new Map<string, number>();

/** Registers `sqlText` to run as a named prepared statement on every PostgreSQL connection. */
export function registerPreparedStatement(sqlText: string): void {
  if (!names.has(sqlText) && names.size < MAX_NAMED) names.set(sqlText, `toolhost_${names.size + 1}`);
}

/** The name `sqlText` runs under, counting a send of an unregistered text. */
function nameOf(sqlText: string): string | undefined {
  const name = names.get(sqlText);
  if (name !== undefined || names.size >= MAX_NAMED) return name;
  const count = (sends.get(sqlText) ?? 0) + 1;
  if (count < REPEATS_BEFORE_NAMING) {
    if (sends.size >= MAX_COUNTED) sends.clear();
    sends.set(sqlText, count);
    return undefined;
  }
  sends.delete(sqlText);
  registerPreparedStatement(sqlText);
  return names.get(sqlText);
}

/** How many statements are registered (for tests). */
export function preparedStatementCount(): number {
  return names.size;
}

type Query = (...args: unknown[]) => unknown;

/** Makes every client of `pool` send registered statement texts by name. */
export function usePreparedStatements(pool: pg.Pool): void {
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as Query;
    // Kysely calls `query(text, values)`; only that form is rewritten.
    (client as unknown as { query: Query }).query = (...args: unknown[]) => {
      const [text, values, callback] = args;
      if (typeof text === "string" && Array.isArray(values) && callback === undefined) {
        const name = nameOf(text);
        if (name !== undefined) return query({ name, text, values });
      }
      return query(...args);
    };
  });
}
