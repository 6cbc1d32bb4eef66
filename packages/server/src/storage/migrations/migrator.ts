/**
 * Runs the migrations with Kysely's Migrator under toolhost's own table names. Concurrent starts are
 * safe: on PostgreSQL the migrator holds an advisory lock for the whole run (a second instance waits,
 * then finds nothing to do); on SQLite it holds the single connection inside one transaction.
 */

import { type MigrationResultSet, Migrator } from "kysely";
import type { DatabaseConnection } from "../engine/connect-database.js";
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

/**
 * PostgreSQL errors Kysely's table introspection can hit when ANOTHER schema of the same database is
 * dropped while it lists every schema's tables (`invalid_schema_name`, `undefined_table`, and
 * `undefined_column` when a table vanishes between listing it and reading its columns): transient
 * for us, so the run is retried. Several servers or test runs sharing one database make it real.
 */
const TRANSIENT_INTROSPECTION_CODES: ReadonlySet<string> = new Set(["3F000", "42P01", "42703"]);

/**
 * Attempts before a transient introspection failure is reported: with schemas dropped all the time
 * (a test suite on one database), five attempts 20–80 ms apart were seen to all hit one.
 */
const MIGRATION_ATTEMPTS = 10;

/** Runs `run` (default: every pending migration) and reports what it applied; throws on failure. */
export async function applyMigrations(
  migrator: Migrator,
  run: (migrator: Migrator) => Promise<MigrationResultSet> = (m) => m.migrateToLatest(),
): Promise<MigrationReport> {
  // Each step retried on its own: once the run succeeded, a transient failure of the read that
  // follows must not run it again (a second run applies nothing and would report nothing applied).
  const results = await retryingIntrospection(async () => {
    const { error, results = [] } = await run(migrator);
    if (error !== undefined) {
      const failed = results.find((result) => result.status === "Error")?.migrationName;
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`database migration ${failed ?? "setup"} failed: ${reason}`, { cause: error });
    }
    return results;
  });
  const applied = results
    .filter((result) => result.status === "Success" && result.direction === "Up")
    .map((result) => result.migrationName);
  const executed = (await retryingIntrospection(() => migrator.getMigrations())).filter(
    (migration) => migration.executedAt !== undefined,
  );
  return { applied, current: executed[executed.length - 1]?.name ?? null };
}

async function retryingIntrospection<T>(step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (attempt >= MIGRATION_ATTEMPTS || !isTransientIntrospectionError(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

function isTransientIntrospectionError(error: unknown): boolean {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && TRANSIENT_INTROSPECTION_CODES.has(code)) return true;
  }
  return false;
}
