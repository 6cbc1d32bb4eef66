/**
 * The wake-ups a server needs for its database: in process for SQLite (one server process per file),
 * relayed through NOTIFY/LISTEN for PostgreSQL (several instances on one database).
 */

import type { FastifyBaseLogger } from "fastify";
import { parseDatabaseUrl } from "../storage/database-url.js";
import { type DatabaseTimeouts, NO_DATABASE_TIMEOUTS } from "../storage/engine/connect-database.js";
import { type CallWakeups, InProcessCallWakeups } from "./call-wakeups.js";
import { PostgresCallWakeups } from "./postgres-call-wakeups.js";

/** Wake-ups for the database at `databaseUrl`; rejects when a PostgreSQL listener cannot connect. */
export async function createCallWakeups(
  databaseUrl: string,
  log: FastifyBaseLogger,
  timeouts: DatabaseTimeouts = NO_DATABASE_TIMEOUTS,
): Promise<CallWakeups> {
  const location = parseDatabaseUrl(databaseUrl);
  if (location.dialect === "sqlite") return new InProcessCallWakeups();
  const { connectionString, options } = location;
  return PostgresCallWakeups.start({ connectionString, options, timeouts }, log);
}
