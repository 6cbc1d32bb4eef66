/**
 * The server's Fastify instance type and what route modules receive. Later route files follow the
 * same pattern as `auth/key-routes.ts`: a `RouteModule` that registers its routes with TypeBox
 * schemas from `@toolhost/protocol/wire`, `tags`, and either `onRequest: ctx.requireScope(...)` or
 * `config: { public: true }` (the route guard refuses a route that has neither).
 */

import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { ErrorCode } from "@toolhost/protocol";
import type { FastifyBaseLogger, FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import type { Identity } from "../auth/identity.js";
import type { KeyRevocations } from "../auth/key-revocations.js";
import type { Clock } from "../clock.js";
import type { CallWakeups } from "../executors/call-wakeups.js";
import type { WokenCalls } from "../executors/woken-calls.js";
import type { DomainEvents } from "../observability/domain-events.js";
import type { ServerMetrics } from "../observability/server-metrics.js";
import type { CompiledServerOptions } from "../options.js";
import type { RunDriverHandle } from "../runs/run-driver.js";
import type { RunEventTails } from "../runs/run-event-tails.js";
import type { RunProgress } from "../runs/run-progress.js";
import type { Scope } from "../storage/records.js";
import type { Storage } from "../storage/storage.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The request body exactly as received (UTF-8 text), when it had a JSON body; receipts store it. */
    rawBody: string | undefined;
    /** Who sent the request, once a `requireScope` hook authenticated it; null on public routes. */
    identity: Identity | null;
  }
  interface FastifyContextConfig {
    /** True for the few routes that need no credential (health, OpenAPI document). */
    public?: boolean;
    /**
     * The domain error codes the route raises itself; the codes its shape implies (credential,
     * parameters, body) are added by the OpenAPI document (`operation-errors.ts`). Required on
     * every documented route, even empty.
     */
    errorCodes?: readonly ErrorCode[];
    /** True for a route that stores nothing and reports lone surrogates in its answer (dry-run). */
    keepLoneSurrogates?: boolean;
  }
}

/** The server's Fastify instance, typed by TypeBox schemas. */
export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/** An `onRequest` hook that authenticates the caller and checks its scope. */
export type ScopeHook = onRequestAsyncHookHandler;

/** What every route module gets: storage, the clock, the options and the scope guard. */
export interface AppContext {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly options: CompiledServerOptions;
  /** A hook admitting callers holding any one of `scopes` (`admin` satisfies every scope); 401/403 otherwise. */
  readonly requireScope: (...scopes: [Scope, ...Scope[]]) => ScopeHook;
  /** How settled calls reach their runs (history, next model turn); call inside the settling transaction. */
  readonly runProgress: RunProgress;
  /** Wake-ups of long-polling executors; `notify` only after the commit that made calls claimable. */
  readonly wakeups: CallWakeups;
  /** The wake-up each executor's last pending answer used: a claim of another call hands it on. */
  readonly wokenCalls: WokenCalls;
  /**
   * Drops a revoked key from the identity caches of this instance (at once) and of the others
   * (resolves once announced); call after the commit that revoked it.
   */
  readonly keyRevoked: (keyId: string) => Promise<void>;
  /** Revocations as they happen here and on other instances (the event streams of a revoked key end). */
  readonly keyRevocations: KeyRevocations;
  /** The shared readers of the runs followed by event streams, woken by the commits that wrote events. */
  readonly runEventTails: RunEventTails;
  /** The run driver (model requests of HTTP providers); `kick` after a commit that queued a model turn. */
  readonly runDriver: RunDriverHandle;
  /** The server's Prometheus metrics. */
  readonly metrics: ServerMetrics;
  /** Logs and counts domain events (expiries, lapsed leases, released claims, …). */
  readonly events: DomainEvents;
}

/** Registers one area's routes on the app. */
export type RouteModule = (app: App, context: AppContext) => void;
