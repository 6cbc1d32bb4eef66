/**
 * A revocation made outside any server (`toolhost keys revoke`, straight on the database), announced
 * to the servers running on that database. On PostgreSQL they drop the key from their identity caches
 * and confirm before this resolves, so their next request with it is refused; SQLite has no channel
 * between processes, so there servers refuse it once their cached entry expires (`identityCacheTtlMs`).
 */

import { systemClock } from "../clock.js";
import { createLogger } from "../logger.js";
import { parseDatabaseUrl } from "../storage/database-url.js";
import type { DatabaseTimeouts } from "../storage/engine/connect-database.js";
import { IdentityCache } from "./identity-cache.js";
import { PostgresRevocationRelay } from "./postgres-revocation-relay.js";

/** Timeouts of the announcing connections: a database that does not answer fails the announcement, not the revoke. */
const ANNOUNCE_TIMEOUTS: DatabaseTimeouts = { connectTimeoutMs: 5_000, queryTimeoutMs: 5_000 };

/**
 * Announces that `keyId` was revoked to the servers on `databaseUrl`; answers false on SQLite, where
 * there is nothing to announce through. Rejects when PostgreSQL cannot be reached.
 */
export async function announceKeyRevocation(databaseUrl: string, keyId: string): Promise<boolean> {
  const location = parseDatabaseUrl(databaseUrl);
  if (location.dialect === "sqlite") return false;
  const { connectionString, options } = location;
  const relay = await PostgresRevocationRelay.start(
    { connectionString, options, timeouts: ANNOUNCE_TIMEOUTS },
    // This process caches nothing; the relay only needs somewhere to drop what it hears.
    new IdentityCache(0, systemClock),
    createLogger("silent"),
  );
  try {
    await relay.announce(keyId);
  } finally {
    await relay.close();
  }
  return true;
}
