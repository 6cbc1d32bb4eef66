/**
 * Kysely's SQLite dialect, changed in two ways the server relies on:
 *
 * - Transactions (the migrator's among them) begin with `BEGIN IMMEDIATE`. A deferred `BEGIN` that
 *   reads and then writes fails at once with SQLITE_BUSY when another process (a second server,
 *   `toolhost migrate`) wrote the file meanwhile; taking the write lock up front makes it wait
 *   `busy_timeout` instead, as the group committer's batches do.
 * - The adapter reports transactional DDL (SQLite has it; Kysely's adapter says no so that
 *   migrations may toggle `foreign_keys`, which ours never do). The migrator then runs all pending
 *   migrations in one immediate transaction: several processes migrating one file at once are
 *   serialised (Kysely's SQLite migration lock is a no-op), and a failing migration leaves nothing
 *   half-applied.
 */

import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  SqliteAdapter,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from "kysely";

class SqliteImmediateDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

class SqliteTransactionalDdlAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** SqliteDialect with immediate transactions and transactional DDL for the migrator. */
export class SqliteServerDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new SqliteImmediateDriver(this.#config);
  }

  override createAdapter(): DialectAdapter {
    return new SqliteTransactionalDdlAdapter();
  }
}
