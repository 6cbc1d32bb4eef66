/**
 * Running the server: open (and migrate) storage, ensure the bootstrap key, build the app, listen.
 * `close()` stops accepting connections, lets in-flight requests finish (closing what is still open
 * after `shutdownTimeoutMs`), then closes storage.
 */

import { ensureBootstrapKey } from "../auth/bootstrap-key.js";
import { createRevocationRelay } from "../auth/create-revocation-relay.js";
import { IdentityCache } from "../auth/identity-cache.js";
import { KeyRevocations } from "../auth/key-revocations.js";
import type { RevocationRelay } from "../auth/revocation-relay.js";
import { grantKey } from "../calls/grant-keys.js";
import { type Clock, systemClock } from "../clock.js";
import type { App } from "../http/app.js";
import { createLogger } from "../logger.js";
import { type CompiledServerOptions, compileServerOptions, type ServerOptions } from "../options.js";
import { createRunEventWakeups } from "../runs/create-run-event-wakeups.js";
import { createModelTurnRelay, type ModelTurnRelay } from "../runs/model-turn-relay.js";
import type { RunEventWakeups } from "../runs/run-event-wakeups.js";
import { redactDatabaseUrl } from "../storage/database-url.js";
import { openStorage } from "../storage/index.js";
import type { Storage } from "../storage/storage.js";
import type { CallWakeups } from "../wakeups/call-wakeups.js";
import { createCallWakeups } from "../wakeups/create-call-wakeups.js";
import { buildApp } from "./build-app.js";

/** Bootstrap secrets shorter than this are accepted but logged as weak. */
export const WEAK_BOOTSTRAP_KEY_LENGTH = 16;

/** A listening server. */
export interface RunningServer {
  /** Base URL, such as `http://127.0.0.1:8080` (the real port when 0 was asked for). */
  readonly url: string;
  readonly app: App;
  readonly storage: Storage;
  readonly options: CompiledServerOptions;
  /** The wake-ups of long-polling executors (relayed across instances on PostgreSQL); closed with the app. */
  readonly wakeups: CallWakeups;
  /** How revocations reach the identity caches of other instances (PostgreSQL); closed with the app. */
  readonly revocationRelay: RevocationRelay;
  /** Graceful shutdown; safe to call more than once (every call waits for the same shutdown). */
  close(): Promise<void>;
}

/** Starts the server with `options` (defaults from `env`); rejects when anything fails to start. */
export async function startServer(
  options: ServerOptions = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
  clock: Clock = systemClock,
): Promise<RunningServer> {
  const compiled = compileServerOptions(options, env);
  const logger = createLogger(compiled.logLevel, compiled.logDestination);
  const timeouts = {
    connectTimeoutMs: compiled.databaseConnectTimeoutMs,
    queryTimeoutMs: compiled.databaseQueryTimeoutMs,
  };
  const storage = await openStorage(compiled.databaseUrl, { migrate: true, timeouts });
  let app: App | undefined;
  let wakeups: CallWakeups | undefined;
  let revocationRelay: RevocationRelay | undefined;
  let runEventWakeups: RunEventWakeups | undefined;
  let modelTurnRelay: ModelTurnRelay | undefined;
  try {
    if (compiled.bootstrapKey !== null) {
      const stored = await ensureBootstrapKey(storage, compiled.bootstrapKey, clock);
      logger.info({ stored }, stored ? "bootstrap key stored" : "bootstrap key already present");
      if (compiled.bootstrapKey.length < WEAK_BOOTSTRAP_KEY_LENGTH) {
        logger.warn(
          `the bootstrap key is shorter than ${WEAK_BOOTSTRAP_KEY_LENGTH} characters; use a long random secret`,
        );
      }
    }
    // The grant key is created (or loaded) before serving, so that no request ever writes it: a
    // refused claim or receipt must leave the database as it was.
    await grantKey(storage.secrets, clock);
    wakeups = await createCallWakeups(compiled.databaseUrl, logger, timeouts);
    const identities = new IdentityCache(compiled.identityCacheTtlMs, clock);
    const keyRevocations = new KeyRevocations();
    revocationRelay = await createRevocationRelay(compiled.databaseUrl, identities, logger, timeouts, keyRevocations);
    runEventWakeups = await createRunEventWakeups(compiled.databaseUrl, logger, timeouts);
    modelTurnRelay = await createModelTurnRelay(compiled.databaseUrl, logger, timeouts);
    app = await buildApp({
      storage,
      options: compiled,
      clock,
      logger,
      wakeups,
      identities,
      revocationRelay,
      keyRevocations,
      runEventWakeups,
      modelTurnRelay,
      // The connections' keys are read where their presence was checked.
      modelEnv: env,
    });
    await app.listen({ host: compiled.host, port: compiled.port });
  } catch (error) {
    await app?.close().catch(() => undefined);
    await wakeups?.close().catch(() => undefined);
    await revocationRelay?.close().catch(() => undefined);
    await runEventWakeups?.close().catch(() => undefined);
    await modelTurnRelay?.close().catch(() => undefined);
    await storage.close().catch(() => undefined);
    throw error;
  }
  const url = baseUrlOf(app);
  logger.info({ url, database: redactDatabaseUrl(compiled.databaseUrl) }, `toolhost listening at ${url}`);
  const listening = app;
  const relay = wakeups;
  const revocations = revocationRelay;
  let closing: Promise<void> | undefined;
  return {
    url,
    app: listening,
    storage,
    options: compiled,
    wakeups: relay,
    revocationRelay: revocations,
    close: () => {
      closing ??= shutDown(listening, storage, compiled.shutdownTimeoutMs);
      return closing;
    },
  };
}

async function shutDown(app: App, storage: Storage, timeoutMs: number): Promise<void> {
  const force = setTimeout(() => app.server.closeAllConnections(), timeoutMs);
  force.unref();
  try {
    await app.close();
  } finally {
    clearTimeout(force);
    await storage.close();
  }
  app.log.info("toolhost stopped");
}

function baseUrlOf(app: App): string {
  const address = app.server.address();
  if (address === null || typeof address === "string") throw new Error("the server is not listening on TCP");
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
