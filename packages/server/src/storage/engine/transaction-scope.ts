/**
 * Marks the code running inside a logical transaction, so that a call to the top-level storage from
 * inside `transaction(work)` fails at once instead of misbehaving. On SQLite such a call would wait for
 * the single connection that the transaction itself holds — a deadlock; on PostgreSQL it would run
 * outside the transaction and miss its writes. The rule on both dialects: inside `work`, use only the
 * stores passed to it.
 *
 * The guard costs an AsyncLocalStorage context per transaction and a lookup per storage call (measured
 * at several percent of the server's CPU on the tool-call cycle), so it is on only where mistakes are
 * made: under the test runner, or with `TOOLHOST_TRANSACTION_GUARD=on` (`off` turns it off anywhere).
 */

import { AsyncLocalStorage } from "node:async_hooks";

interface ScopeMarker {
  active: boolean;
}

const scope = new AsyncLocalStorage<ScopeMarker>();

/** The variable that turns the guard on (`on`) or off (`off`); unset: on under vitest only. */
export const TRANSACTION_GUARD_VARIABLE = "TOOLHOST_TRANSACTION_GUARD";

const setting = process.env[TRANSACTION_GUARD_VARIABLE];
const guarding = setting === "on" || (setting !== "off" && process.env.VITEST !== undefined);

/** Whether the guard is on in this process. */
export function transactionGuardEnabled(): boolean {
  return guarding;
}

/** Runs `work` marked as inside a transaction; the mark ends when `work` settles. */
export async function runInTransactionScope<T>(work: () => Promise<T>): Promise<T> {
  if (!guarding) return work();
  const marker: ScopeMarker = { active: true };
  try {
    return await scope.run(marker, work);
  } finally {
    marker.active = false;
  }
}

/** Throws when called (synchronously or awaited) from inside a running transaction's work. */
export function assertOutsideTransaction(what: string): void {
  if (!guarding) return;
  if (scope.getStore()?.active === true) {
    throw new Error(
      `${what} was called inside storage.transaction(work): use the stores passed to work (the top-level storage would deadlock on SQLite and miss the transaction's writes on PostgreSQL)`,
    );
  }
}
