/**
 * Builds the HTTP app (not listening): strict JSON bodies, schema validation that never changes data,
 * one error shape for every failure, the OpenAPI document, and the route modules.
 */

import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyBaseLogger, LogController } from "fastify";
import type { Logger } from "pino";
import { IdentityCache } from "../auth/identity-cache.js";
import { KeyRevocations } from "../auth/key-revocations.js";
import { createRequireScope } from "../auth/require-scope.js";
import { IN_PROCESS_REVOCATION_RELAY, type RevocationRelay } from "../auth/revocation-relay.js";
import { type Clock, systemClock } from "../clock.js";
import { installApiAnswerHeaders } from "../http/api-answer-headers.js";
import type { App } from "../http/app.js";
import { clientErrorAnswerer } from "../http/client-error.js";
import { closeConnectionsOnShutdown } from "../http/close-connections-on-shutdown.js";
import { closeConnectionsOfUnreadBodies } from "../http/close-unread-bodies.js";
import { installErrorHandling, sendError } from "../http/error-handling.js";
import { registerJsonContentType } from "../http/json-content-type.js";
import { registerOpenApi, registerOpenApiRoute } from "../http/openapi.js";
import { REQUEST_ID_HEADER, requestIdOf } from "../http/request-id.js";
import { installRouteGuard } from "../http/route-guard.js";
import { RouteTable } from "../http/route-table.js";
import { createValidatorCompiler } from "../http/validator-compiler.js";
import { createLogger } from "../logger.js";
import { DomainEvents } from "../observability/domain-events.js";
import { installHttpMetrics } from "../observability/http-metrics.js";
import { installRequestLog } from "../observability/request-log.js";
import { installRequestTracing } from "../observability/request-tracing.js";
import { ServerMetrics } from "../observability/server-metrics.js";
import type { CompiledServerOptions } from "../options.js";
import { IN_PROCESS_MODEL_TURN_RELAY, type ModelTurnRelay } from "../runs/model-turn-relay.js";
import { HistoryRunProgress } from "../runs/record-call-outcome.js";
import { RunDriver } from "../runs/run-driver.js";
import { RunEventTails } from "../runs/run-event-tails.js";
import { InProcessRunEventWakeups, type RunEventWakeups } from "../runs/run-event-wakeups.js";
import { TurnEngine } from "../runs/turn-engine.js";
import { Sweeper } from "../runtime/sweeper.js";
import type { Storage } from "../storage/storage.js";
import { type CallWakeups, InProcessCallWakeups } from "../wakeups/call-wakeups.js";
import { MeasuredCallWakeups } from "../wakeups/measured-wakeups.js";
import { WokenCalls } from "../wakeups/woken-calls.js";
import type { AppContext } from "./app-context.js";
import { ROUTE_MODULES } from "./route-modules.js";
import { SWEEPS } from "./sweeps.js";

/** Longest path parameter accepted: IDs are at most 128 characters; longer ones answer 404. */
const MAX_PARAM_LENGTH = 256;

/** How often Node looks for requests past their headers or request timeout, at most (its default is 30 s). */
const MAX_TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/** What `buildApp` needs. */
export interface BuildAppInput {
  readonly storage: Storage;
  readonly options: CompiledServerOptions;
  /** Default: the wall clock. */
  readonly clock?: Clock;
  /** Default: a logger at `options.logLevel` writing to `options.logDestination`. */
  readonly logger?: Logger;
  /** Default: in-process wake-ups (one server process). The app closes them when it closes. */
  readonly wakeups?: CallWakeups;
  /** Default: an identity cache of `options.identityCacheTtlMs`. */
  readonly identities?: IdentityCache;
  /** Default: none (one server process). It must feed `identities` and `keyRevocations`. The app closes it when it closes. */
  readonly revocationRelay?: RevocationRelay;
  /** Default: a new one; the revocation relay tells it what other instances revoke. */
  readonly keyRevocations?: KeyRevocations;
  /** Default: in-process wake-ups of event streams (one server process). The app closes them when it closes. */
  readonly runEventWakeups?: RunEventWakeups;
  /** Queued model turns told to and heard from other instances (default: in process only). */
  readonly modelTurnRelay?: ModelTurnRelay;
  /** Where the model connections' `api_key_env` is read (default: the process environment). */
  readonly modelEnv?: Readonly<Record<string, string | undefined>>;
}

/** The app with every route registered and ready (call `listen` or `inject` on it). */
export async function buildApp(input: BuildAppInput): Promise<App> {
  const { storage, options } = input;
  const errorContext = { bodyLimitBytes: options.bodyLimitBytes };
  const logger: FastifyBaseLogger = input.logger ?? createLogger(options.logLevel, options.logDestination);
  const app: App = Fastify({
    loggerInstance: logger,
    bodyLimit: options.bodyLimitBytes,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Requests arriving while shutting down are still served (storage closes after the app).
    return503OnClosing: false,
    forceCloseConnections: "idle",
    // Slow clients: the whole request must arrive within requestTimeoutMs (its headers within
    // headersTimeoutMs), else 408 and the connection closes. A request fully received is no longer
    // timed by them, so a long-poll waits its wait_ms; the idle timeout is longer than any wait_ms.
    requestTimeout: options.requestTimeoutMs,
    keepAliveTimeout: options.keepAliveTimeoutMs,
    connectionTimeout: options.connectionIdleTimeoutMs,
    http: {
      headersTimeout: options.headersTimeoutMs,
      connectionsCheckingInterval: Math.max(
        10,
        Math.min(MAX_TIMEOUT_CHECK_INTERVAL_MS, Math.floor(options.headersTimeoutMs / 4)),
      ),
    },
    clientErrorHandler: clientErrorAnswerer(options),
    // The caller's X-Request-Id when acceptable, else a new ID; one line per request (request-log.ts).
    genReqId: requestIdOf,
    logController: new LogController({ requestIdLogLabel: "request_id", disableRequestLogging: true }),
    frameworkErrors: (error, request, reply) => {
      sendError(error, request, reply, errorContext);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(createValidatorCompiler());
  app.decorateRequest("identity", null);
  registerJsonContentType(app);
  closeConnectionsOnShutdown(app);
  closeConnectionsOfUnreadBodies(app);
  const routes = new RouteTable();
  installApiAnswerHeaders(app);
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done(null, payload);
  });
  installRequestTracing(app);
  installRequestLog(app);
  installErrorHandling(app, routes, errorContext);
  await registerOpenApi(app);
  installRouteGuard(app, routes);

  const clock = input.clock ?? systemClock;
  const metrics = new ServerMetrics(storage.callStats, clock, { perBinding: options.metricsPerBinding });
  const events = new DomainEvents(app.log, metrics);
  installHttpMetrics(app, metrics);
  const wakeups = new MeasuredCallWakeups(input.wakeups ?? new InProcessCallWakeups(), metrics);
  const runDriver = new RunDriver({
    storage,
    clock,
    log: app.log,
    env: input.modelEnv ?? process.env,
    connections: options.modelConnections,
    observer: {
      compacted: (runId, turn) => events.compaction(runId, turn),
      // Labelled by provider and the operator's connection ID, never by the tenant's model name.
      answered: (provider, connection, estimated, actual) => {
        metrics.modelTokens.inc({ provider, connection, kind: "estimated" }, estimated);
        if (actual !== null) metrics.modelTokens.inc({ provider, connection, kind: "actual" }, actual);
      },
    },
    options: {
      leaseMs: options.modelLeaseMs,
      pollIntervalMs: options.modelPollIntervalMs,
      concurrency: options.modelConcurrency,
      timeoutMs: options.modelTimeoutMs,
      maxRetries: options.modelMaxRetries,
    },
  });
  const identities = input.identities ?? new IdentityCache(options.identityCacheTtlMs, clock);
  const revocationRelay = input.revocationRelay ?? IN_PROCESS_REVOCATION_RELAY;
  app.addHook("onClose", () => revocationRelay.close());
  const keyRevocations = input.keyRevocations ?? new KeyRevocations();
  const runEventWakeups = input.runEventWakeups ?? new InProcessRunEventWakeups();
  // Every commit that wrote a run's events wakes that run's streams, here and on other instances.
  const stopHearingCommits = storage.onRunEventsCommitted((runIds) => runEventWakeups.notify(runIds));
  // What committed transactions registered (docs/storage.md, "After-commit effects"): executors wake,
  // runs whose turn settled go to the turn engine, and runs whose provider turn was queued are driven
  // now instead of at a driver's next poll — by this instance's driver, or when it has no room, by
  // another instance's (told through the relay).
  const turnEngine = new TurnEngine({ storage, clock, log: app.log });
  const modelTurnRelay = input.modelTurnRelay ?? IN_PROCESS_MODEL_TURN_RELAY;
  modelTurnRelay.onAnnounced(() => runDriver.kick());
  const stopHearingEffects = storage.onCommittedEffects({
    wakeExecutors: (committed) => wakeups.notify(committed),
    runsReady: (runIds) => {
      for (const runId of runIds) void turnEngine.advance(runId);
    },
    modelTurnsQueued: (runIds) => {
      runDriver.kick();
      if (!runDriver.hasRoom) modelTurnRelay.announce(runIds);
    },
  });
  app.addHook("onClose", async () => {
    stopHearingCommits();
    stopHearingEffects();
    await runEventWakeups.close();
    await modelTurnRelay.close();
  });
  const context: AppContext = {
    storage,
    clock,
    options,
    requireScope: createRequireScope(storage.keys, identities),
    keyRevoked: (keyId) => {
      identities.forgetKey(keyId);
      keyRevocations.revoked(keyId);
      return revocationRelay.announce(keyId);
    },
    keyRevocations,
    runEventTails: new RunEventTails(storage, runEventWakeups),
    runProgress: new HistoryRunProgress(turnEngine),
    turnEngine,
    wakeups,
    wokenCalls: new WokenCalls(),
    runDriver,
    metrics,
    events,
  };
  // Pending long-polls answer at once when the app closes instead of holding shutdown up: preClose
  // runs before the server waits for in-flight requests (onClose would run after them).
  app.addHook("preClose", () => context.wakeups.close());
  const sweeper = new Sweeper(SWEEPS, context, app.log);
  // Sweeps stop before storage closes (startServer closes storage after the app).
  app.addHook("onClose", () => sweeper.stop());
  // Model requests in flight are aborted and their turns given back before storage closes.
  app.addHook("onClose", () => runDriver.stop());
  // The engine's batch in flight commits before storage closes; runs still queued keep their marks.
  app.addHook("onClose", () => turnEngine.stop());
  registerOpenApiRoute(app, options.publicUrl);
  for (const register of ROUTE_MODULES) register(app, context);
  await app.ready();
  sweeper.start(options.sweepIntervalMs);
  runDriver.start();
  return app;
}
