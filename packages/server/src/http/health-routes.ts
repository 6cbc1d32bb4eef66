/**
 * `GET /v1/health`: liveness, and `GET /v1/ready`: readiness, both without a credential. Liveness never
 * touches storage (a database outage must not get a live process restarted); readiness makes one round
 * trip to the database and looks at its write path, so a load balancer can route around an instance
 * that cannot serve — also one whose database answers reads but would refuse every write.
 */

import { ErrorBody, Health, Readiness } from "@toolhost/protocol/wire";
import type { Storage } from "../storage/storage.js";
import type { RouteModule } from "./app.js";
import { ERROR_RESPONSES } from "./error-responses.js";

/** What `healthRoutes` uses of the app's services: the storage, for readiness. */
export interface HealthRoutesServices {
  readonly storage: Storage;
}

/** Registers the health and readiness routes. */
export const healthRoutes: RouteModule<HealthRoutesServices> = (app, context) => {
  let lastReason: string | undefined;
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
          'Answers `{"status":"ready","storage":"available"}` when the database answers a round trip and writes ' +
          "can succeed, else 503 `storage_unavailable` with `Retry-After` (within the database connect and query " +
          "timeouts): also while the database is read-only, or SQLite's file has under 1 MiB of room on its disk or " +
          "under `max_page_count`. " +
          "Needs no credential.",
        security: [],
        response: { 200: Readiness, 503: ErrorBody, ...ERROR_RESPONSES },
      },
    },
    async () => {
      try {
        await context.storage.ping();
      } catch (error) {
        // The answer's message is fixed (the cause may name the database's host): the log says why, once per reason.
        const reason = error instanceof Error ? error.message : String(error);
        if (reason !== lastReason) app.log.warn({ reason }, "not ready");
        lastReason = reason;
        throw error;
      }
      if (lastReason !== undefined) app.log.info("ready again");
      lastReason = undefined;
      return { status: "ready" as const, storage: "available" as const };
    },
  );
};
