/**
 * Named prepared statements on PostgreSQL for the hot queries. An unnamed statement is parsed and
 * planned by the server on every run (measured: most of postgres's CPU on the tool-call cycle); a named
 * one is parsed once per connection and then only bound and executed.
 *
 * Which statements: those of fixed SQL text (`ReusableQuery`, compiled once per dialect) register
 * here, so the set of names is bounded by the code, never by the data. Each pooled client's `query`
 * sends a registered text under its name; every other text goes unnamed as before.
 */

import type pg from "pg";

const names = new Map<string, string>();

/** Registers `sqlText` to run as a named prepared statement on every PostgreSQL connection. */
export function registerPreparedStatement(sqlText: string): void {
  if (!names.has(sqlText)) names.set(sqlText, `toolhost_${names.size + 1}`);
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
        const name = names.get(text);
        if (name !== undefined) return query({ name, text, values });
      }
      return query(...args);
    };
  });
}
