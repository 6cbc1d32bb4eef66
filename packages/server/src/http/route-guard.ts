/**
 * Refuses, at registration, a route that forgot its access rule or its documentation: every route
 * must be `config: { public: true }` or carry a `requireScope(...)` hook (fail closed), and every
 * documented route must have tags, a camelCase `operationId` and its `config.errorCodes`. Also records each route but a fallback in the RouteTable (for 405 answers).
 */

import type { RouteOptions } from "fastify";
import type { App } from "./app.js";
import { OPERATION_ID_PATTERN } from "./openapi.js";
import type { RouteTable } from "./route-table.js";
import { isScopeHook } from "./scope-hook.js";

/** The problem with a route's declaration, or undefined when it is complete (pure). */
export function routeDeclarationProblem(route: RouteOptions): string | undefined {
  const hooks =
    route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
  const guarded = hooks.some((hook) => isScopeHook(hook));
  const isPublic = route.config?.public === true;
  if (guarded === isPublic) {
    return guarded
      ? "is public and also requires a scope"
      : "needs onRequest: requireScope(...) or config: { public: true }";
  }
  const schema = route.schema as { hide?: boolean; tags?: unknown; operationId?: unknown } | undefined;
  if (schema?.hide === true) return undefined;
  if (!(Array.isArray(schema?.tags) && schema.tags.length > 0)) {
    return "needs schema.tags (or schema.hide) for the OpenAPI document";
  }
  if (typeof schema?.operationId !== "string" || !OPERATION_ID_PATTERN.test(schema.operationId)) {
    return "needs a camelCase schema.operationId for the OpenAPI document";
  }
  if (!Array.isArray(route.config?.errorCodes)) {
    return "needs config.errorCodes (the domain error codes it answers; [] for none)";
  }
  return undefined;
}

/** Checks every route added to `app` from now on and records it in `table`. */
export function installRouteGuard(app: App, table: RouteTable): void {
  app.addHook("onRoute", (route) => {
    const problem = routeDeclarationProblem(route as RouteOptions);
    if (problem !== undefined) throw new Error(`route ${String(route.method)} ${route.url} ${problem}`);
    // A fallback (the console's catch-all page) answers only paths no other route has: recording it
    // would make every path "exist", turning each unknown API path with another method into a 405.
    if ((route.config as { fallback?: unknown } | undefined)?.fallback !== true) table.add(route.url, route.method);
  });
}
