/** The server's storage: open it from a database URL; the records, store interfaces and migrations. */

export { type DatabaseLocation, parseDatabaseUrl, redactDatabaseUrl } from "./database-url.js";
export { KyselyStorage, type KyselyStorageOptions, type StorageStats } from "./kysely-storage.js";
export { MIGRATION_NAMES, type MigrationName } from "./migrations/migration-list.js";
export { MIGRATION_LOCK_TABLE, MIGRATION_TABLE } from "./migrations/migrator.js";
export { type OpenStorageOptions, openStorage } from "./open-storage.js";
export * from "./records.js";
export * from "./storage.js";
