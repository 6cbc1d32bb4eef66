/**
 * @toolhost/server — the toolhost HTTP service: build the app, start and stop the server, its options.
 */

export type { AppContext } from "./app/app-context.js";
export { type BuildAppInput, buildApp } from "./app/build-app.js";
export { ROUTE_MODULES } from "./app/route-modules.js";
export { type RunningServer, startServer } from "./app/serve.js";
export { announceKeyRevocation } from "./auth/announce-revocation.js";
export { BOOTSTRAP_KEY_NAME, bootstrapKeyRecord, ensureBootstrapKey } from "./auth/bootstrap-key.js";
export { createKey, keyInfoOf, newKeyRecord } from "./auth/create-key.js";
export {
  agentScopeOf,
  assertAgentInScope,
  assertBindingInScope,
  bindingScopeOf,
  inAgentScope,
  inBindingScope,
  inIdScope,
  notFoundError,
} from "./auth/id-scope.js";
export { hasAnyScope, hasScope, type Identity } from "./auth/identity.js";
export {
  decideNewKeyScopes,
  idScopeWithin,
  type KeyReach,
  keyWithinReach,
  OPERATOR_REACH,
} from "./auth/key-reach.js";
export { generateKeySecret, hashKeySecret, KEY_SECRET_PREFIX } from "./auth/key-secret.js";
export { type Clock, systemClock } from "./clock.js";
export type { App, RouteModule } from "./http/app.js";
export { wireCheck } from "./http/wire-check.js";
export { createLogger, REDACTED_LOG_PATHS } from "./logger.js";
export {
  type CompiledServerOptions,
  compileServerOptions,
  LOG_LEVELS,
  type LogLevel,
  SERVER_DEFAULTS,
  SERVER_ENV,
  type ServerOptions,
} from "./options.js";
export { type Closable, closeOnSignals, SHUTDOWN_SIGNALS, type ShutdownLog } from "./shutdown-signals.js";
export { parseDatabaseUrl, redactDatabaseUrl } from "./storage/database-url.js";
export { MIGRATION_NAMES } from "./storage/migrations/migration-list.js";
export { type OpenStorageOptions, openStorage } from "./storage/open-storage.js";
export type { IdScope, IdScopes, KeyRecord, Scope } from "./storage/records.js";
export { SCOPES } from "./storage/records.js";
export type { MigrationReport, Storage } from "./storage/storage.js";
