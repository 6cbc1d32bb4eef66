/**
 * Builds the HTTP app (not listening): strict JSON bodies, schema validation that never changes data,
 * one error shape for every failure, the OpenAPI document, and the route modules.
 */

import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyBaseLogger } from "fastify";
import type { Logger } from "pino";
import { keyRoutes } from "../auth/key-routes.js";
import { createRequireScope } from "../auth/require-scope.js";
import { type Clock, systemClock } from "../clock.js";
import { createLogger } from "../logger.js";
import type { CompiledServerOptions } from "../options.js";
import type { Storage } from "../storage/storage.js";
import type { App, AppContext, RouteModule } from "./app.js";
import { answerClientError } from "./client-error.js";
import { closeConnectionsOnShutdown } from "./close-connections-on-shutdown.js";
import { installErrorHandling, sendError } from "./error-handling.js";
import { healthRoutes } from "./health-routes.js";
import { registerJsonContentType } from "./json-content-type.js";
import { registerOpenApi, registerOpenApiRoute } from "./openapi.js";
import { installRouteGuard } from "./route-guard.js";
import { RouteTable } from "./route-table.js";
import { createValidatorCompiler } from "./validator-compiler.js";

/** Every route module, in registration order. Later areas append theirs. */
export const ROUTE_MODULES: readonly RouteModule[] = [healthRoutes, keyRoutes];

/** Longest path parameter accepted: IDs are at most 128 characters; longer ones answer 404. */
const MAX_PARAM_LENGTH = 256;

/** What `buildApp` needs. */
export interface BuildAppInput {
  readonly storage: Storage;
  readonly options: CompiledServerOptions;
  /** Default: the wall clock. */
  readonly clock?: Clock;
  /** Default: a logger at `options.logLevel` writing to `options.logDestination`. */
  readonly logger?: Logger;
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
    clientErrorHandler: answerClientError,
    frameworkErrors: (error, request, reply) => {
      sendError(error, request, reply, errorContext);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(createValidatorCompiler());
  app.decorateRequest("identity", null);
  registerJsonContentType(app);
  closeConnectionsOnShutdown(app);
  const routes = new RouteTable();
  installErrorHandling(app, routes, errorContext);
  await registerOpenApi(app);
  installRouteGuard(app, routes);

  const context: AppContext = {
    storage,
    clock: input.clock ?? systemClock,
    options,
    requireScope: createRequireScope(storage.keys),
  };
  registerOpenApiRoute(app);
  for (const register of ROUTE_MODULES) register(app, context);
  await app.ready();
  return app;
}
