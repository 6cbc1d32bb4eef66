/**
 * How a revocation reaches the identity caches of other server instances. One process (SQLite) has
 * nothing to relay; several instances on one PostgreSQL database relay through NOTIFY/LISTEN
 * (`postgres-revocation-relay.ts`).
 */

/** Tells other instances that a key was revoked. */
export interface RevocationRelay {
  /** Announces that `keyId` is revoked (after the commit); resolves once the announcement is sent. */
  announce(keyId: string): Promise<void>;
  /** Stops listening. */
  close(): Promise<void>;
}

/** The relay of a single process: there is no other instance to tell. */
export const IN_PROCESS_REVOCATION_RELAY: RevocationRelay = {
  announce: () => Promise.resolve(),
  close: () => Promise.resolve(),
};
