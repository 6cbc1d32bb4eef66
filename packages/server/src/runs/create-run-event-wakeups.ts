/** The run event wake-ups a server needs for its database: in process for SQLite, NOTIFY/LISTEN for PostgreSQL. */

import type { FastifyBaseLogger } from "fastify";
import { parseDatabaseUrl } from "../storage/database-url.js";
import { type DatabaseTimeouts, NO_DATABASE_TIMEOUTS } from "../storage/engine/connect-database.js";
import { PostgresRunEventWakeups } from "./postgres-run-event-wakeups.js";
import { InProcessRunEventWakeups, type RunEventWakeups } from "./run-event-wakeups.js";

/** Wake-ups for the database at `databaseUrl`; rejects when a PostgreSQL listener cannot connect. */
export async function createRunEventWakeups(
  databaseUrl: string,
  log: FastifyBaseLogger,
  timeouts: DatabaseTimeouts = NO_DATABASE_TIMEOUTS,
): Promise<RunEventWakeups> {
  const location = parseDatabaseUrl(databaseUrl);
  if (location.dialect === "sqlite") return new InProcessRunEventWakeups();
  const { connectionString, options } = location;
  return PostgresRunEventWakeups.start({ connectionString, options, timeouts }, log);
}
