/**
 * `GET /v1/health`: liveness, and `GET /v1/ready`: readiness, both without a credential. Liveness never
 * touches storage (a database outage must not get a live process restarted); readiness makes one round
 * trip to the database, so a load balancer can route around an instance that cannot serve.
 */

import { ErrorBody, Health, Readiness } from "@toolhost/protocol/wire";
import type { RouteModule } from "./app.js";
import { ERROR_RESPONSES } from "./error-responses.js";

/** Registers the health and readiness routes. */
export const healthRoutes: RouteModule = (app, context) => {
  app.get(
    "/v1/health",
    {
      config: { public: true, errorCodes: [] },
      schema: {
        operationId: "getHealth",
        tags: ["system"],
        summary: "Liveness",
        description:
          'Answers `{"status":"ok"}` while the server process serves HTTP, whatever the state of its database. ' +
          "Needs no credential.",
        security: [],
        response: { 200: Health, ...ERROR_RESPONSES },
      },
    },
    async () => ({ status: "ok" as const }),
  );
  app.get(
    "/v1/ready",
    {
      config: { public: true, errorCodes: ["storage_unavailable"] },
      schema: {
        operationId: "getReadiness",
        tags: ["system"],
        summary: "Readiness",
        description:
          'Answers `{"status":"ready","storage":"available"}` when the database answers a round trip, else 503 ' +
          "`storage_unavailable` with `Retry-After` (within the database connect and query timeouts). " +
          "Needs no credential.",
        security: [],
        response: { 200: Readiness, 503: ErrorBody, ...ERROR_RESPONSES },
      },
    },
    async () => {
      await context.storage.ping();
      return { status: "ready" as const, storage: "available" as const };
    },
  );
};
