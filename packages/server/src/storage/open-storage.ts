/** Opens the server's storage from a database URL (see `database-url.ts` for the URL forms). */

import { parseDatabaseUrl } from "./database-url.js";
import { connectDatabase, type DatabaseTimeouts, NO_DATABASE_TIMEOUTS } from "./engine/connect-database.js";
import { KyselyStorage } from "./kysely-storage.js";

/** Options of openStorage. */
export interface OpenStorageOptions {
  /** Apply pending migrations before answering (default true). */
  migrate?: boolean;
  /** SQLite only: most logical transactions per physical commit (default 256; 1 turns grouping off). */
  maxCommitBatch?: number;
  /** PostgreSQL only: connect and statement timeouts of the storage's connections (default: none). */
  timeouts?: DatabaseTimeouts;
}

/**
 * Opens `sqlite:PATH`, `sqlite::memory:`, `postgres://…` or `postgresql://…` (optionally
 * `?schema=NAME`), applies pending migrations unless `migrate: false`, and answers the storage.
 * An unknown scheme, an unreachable server or a failed migration throws a clear Error.
 */
export async function openStorage(url: string, options: OpenStorageOptions = {}): Promise<KyselyStorage> {
  const timeouts = options.timeouts ?? NO_DATABASE_TIMEOUTS;
  const migrate = options.migrate !== false;
  if (migrate && timeouts.queryTimeoutMs > 0 && parseDatabaseUrl(url).dialect === "postgres") {
    // A migration (or the wait for another instance's migration lock) may run longer than a request's
    // statement: migrate on connections of its own without the statement timeout, then serve.
    const migrating = await open(url, options, { ...timeouts, queryTimeoutMs: 0 }, true);
    await migrating.close();
    return open(url, options, timeouts, false);
  }
  return open(url, options, timeouts, migrate);
}

async function open(
  url: string,
  options: OpenStorageOptions,
  timeouts: DatabaseTimeouts,
  migrate: boolean,
): Promise<KyselyStorage> {
  const connection = await connectDatabase(url, timeouts);
  const storage = new KyselyStorage(
    connection,
    options.maxCommitBatch === undefined ? {} : { maxCommitBatch: options.maxCommitBatch },
  );
  if (migrate) {
    try {
      await storage.migrate();
    } catch (error) {
      await storage.close();
      throw error;
    }
  }
  return storage;
}
