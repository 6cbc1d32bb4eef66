/**
 * The server's Fastify instance type and the shape of a route module. Route files follow the same
 * pattern as `auth/key-routes.ts`: a `RouteModule` that registers its routes with TypeBox schemas from
 * `@toolhost/protocol/wire`, `tags`, and either `onRequest: requireScope(...)` or
 * `config: { public: true }` (the route guard refuses a route that has neither).
 */

import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { ErrorCode } from "@toolhost/protocol";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";

declare module "fastify" {
  interface FastifyRequest {
    /** The request body exactly as received (UTF-8 text), when it had a JSON body; receipts store it. */
    rawBody: string | undefined;
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

/**
 * Registers one area's routes on the app. `Services` names only what those routes use; the app hands
 * every module the same object holding all of them (`app/app-context.ts`).
 */
export type RouteModule<Services> = (app: App, services: Services) => void;
