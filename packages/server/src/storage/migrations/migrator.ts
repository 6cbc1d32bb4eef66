/**
 * Runs the migrations with Kysely's Migrator under toolhost's own table names. Concurrent starts are
 * safe: on PostgreSQL the migrator holds an advisory lock for the whole run (a second instance waits,
 * then finds nothing to do); on SQLite it holds the single connection inside one transaction.
 */

import { type MigrationResultSet, Migrator } from "kysely";
import type { DatabaseConnection } from "../connect-database.js";
import type { MigrationReport } from "../storage.js";
import { migrationProvider } from "./migration-list.js";

/** The table recording applied migrations. */
export const MIGRATION_TABLE = "toolhost_migrations";
/** The migrator's lock table. */
export const MIGRATION_LOCK_TABLE = "toolhost_migrations_lock";

/** A Migrator for the connection's database (on PostgreSQL, its tables live in the connection's schema). */
export function createMigrator(connection: DatabaseConnection): Migrator {
  return new Migrator({
    db: connection.db,
    provider: migrationProvider(connection.dialect),
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
    // Kysely looks for its tables in every schema unless told which one: name it, so another schema's
    // migration table in the same database is never mistaken for ours.
    ...(connection.schema === undefined ? {} : { migrationTableSchema: connection.schema }),
  });
}

/** Runs `run` (default: every pending migration) and reports what it applied; throws on failure. */
export async function applyMigrations(
  migrator: Migrator,
  run: (migrator: Migrator) => Promise<MigrationResultSet> = (m) => m.migrateToLatest(),
): Promise<MigrationReport> {
  const { error, results = [] } = await run(migrator);
  if (error !== undefined) {
    const failed = results.find((result) => result.status === "Error")?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`database migration ${failed ?? "setup"} failed: ${reason}`, { cause: error });
  }
  const applied = results
    .filter((result) => result.status === "Success" && result.direction === "Up")
    .map((result) => result.migrationName);
  const executed = (await migrator.getMigrations()).filter((migration) => migration.executedAt !== undefined);
  return { applied, current: executed[executed.length - 1]?.name ?? null };
}
