/** The revocation relay a server needs for its database: none for SQLite, NOTIFY/LISTEN for PostgreSQL. */

import type { FastifyBaseLogger } from "fastify";
import { parseDatabaseUrl } from "../storage/database-url.js";
import { type DatabaseTimeouts, NO_DATABASE_TIMEOUTS } from "../storage/engine/connect-database.js";
import type { IdentityCache } from "./identity-cache.js";
import type { KeyRevocations } from "./key-revocations.js";
import { PostgresRevocationRelay } from "./postgres-revocation-relay.js";
import { IN_PROCESS_REVOCATION_RELAY, type RevocationRelay } from "./revocation-relay.js";

/**
 * The relay feeding `cache` (and `revocations`) for the database at `databaseUrl`; rejects when a
 * PostgreSQL listener cannot connect.
 */
export async function createRevocationRelay(
  databaseUrl: string,
  cache: IdentityCache,
  log: FastifyBaseLogger,
  timeouts: DatabaseTimeouts = NO_DATABASE_TIMEOUTS,
  revocations?: KeyRevocations,
): Promise<RevocationRelay> {
  const location = parseDatabaseUrl(databaseUrl);
  if (location.dialect === "sqlite") return IN_PROCESS_REVOCATION_RELAY;
  const { connectionString, options } = location;
  return PostgresRevocationRelay.start({ connectionString, options, timeouts }, cache, log, revocations);
}
