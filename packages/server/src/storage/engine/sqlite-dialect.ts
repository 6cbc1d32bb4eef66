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
 * - A `limit` or `offset` value is sent as `cast(? as integer)`, not a bare `?`. Since 3.47 SQLite
 *   reads a bare `LIMIT ?`'s bound value while planning, so every bind of it (better-sqlite3 binds on
 *   each run) expires the prepared statement and the next step prepares it again: the pending poll's
 *   candidates query (three limits) cost ~90 µs a run instead of ~5 µs. A cast is not a bare
 *   variable, so the plan stays. The value is always an integer here (page sizes and batch bounds).
 */

import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type LimitNode,
  type OffsetNode,
  type OperationNode,
  type QueryCompiler,
  SqliteAdapter,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  SqliteQueryCompiler,
  ValueNode,
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

/** Compiles `limit ?` and `offset ?` as casts, so binding them never expires the prepared statement. */
export class SqliteServerQueryCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    this.append("limit ");
    this.#visitCount(node.limit);
  }

  protected override visitOffset(node: OffsetNode): void {
    this.append("offset ");
    this.#visitCount(node.offset);
  }

  #visitCount(node: OperationNode): void {
    if (!ValueNode.is(node) || node.immediate === true) {
      this.visitNode(node);
      return;
    }
    this.append("cast(");
    this.visitNode(node);
    this.append(" as integer)");
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

  override createQueryCompiler(): QueryCompiler {
    return new SqliteServerQueryCompiler();
  }

  override createAdapter(): DialectAdapter {
    return new SqliteTransactionalDdlAdapter();
  }
}
