/** Opens the server's storage from a database URL (see `database-url.ts` for the URL forms). */

import { connectDatabase } from "./connect-database.js";
import { KyselyStorage } from "./kysely-storage.js";

/** Options of openStorage. */
export interface OpenStorageOptions {
  /** Apply pending migrations before answering (default true). */
  migrate?: boolean;
  /** SQLite only: most logical transactions per physical commit (default 256; 1 turns grouping off). */
  maxCommitBatch?: number;
}

/**
 * Opens `sqlite:PATH`, `sqlite::memory:`, `postgres://…` or `postgresql://…` (optionally
 * `?schema=NAME`), applies pending migrations unless `migrate: false`, and answers the storage.
 * An unknown scheme, an unreachable server or a failed migration throws a clear Error.
 */
export async function openStorage(url: string, options: OpenStorageOptions = {}): Promise<KyselyStorage> {
  const connection = await connectDatabase(url);
  const storage = new KyselyStorage(
    connection,
    options.maxCommitBatch === undefined ? {} : { maxCommitBatch: options.maxCommitBatch },
  );
  if (options.migrate !== false) {
    try {
      await storage.migrate();
    } catch (error) {
      await storage.close();
      throw error;
    }
  }
  return storage;
}
