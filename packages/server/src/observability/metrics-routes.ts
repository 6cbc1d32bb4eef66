/**
 * `GET /metrics`: the server's Prometheus metrics in the text exposition format. It needs a key with
 * `metrics:read` (or `admin`), unless the server runs with `metricsPublic` (then no credential: keep
 * the port off the internet). Outside `/v1` on purpose: it is what Prometheus scrapes by default.
 */

import type { FastifyReply } from "fastify";
import { Type } from "typebox";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import type { RequireScope } from "../http/scope-hook.js";
import type { CompiledServerOptions } from "../options.js";
import type { ServerMetrics } from "./server-metrics.js";

/** What `metricsRoutes` uses of the app's services. */
export interface MetricsRoutesServices {
  readonly metrics: ServerMetrics;
  readonly options: Pick<CompiledServerOptions, "metricsPublic">;
  readonly requireScope: RequireScope;
}

/** Registers the metrics route. */
export const metricsRoutes: RouteModule<MetricsRoutesServices> = (app, { metrics, options, requireScope }) => {
  const access = options.metricsPublic
    ? { config: { public: true, errorCodes: [] } }
    : { config: { errorCodes: [] }, onRequest: requireScope("metrics:read") };
  app.get(
    "/metrics",
    {
      ...access,
      schema: {
        operationId: "getMetrics",
        tags: ["system"],
        summary: "Prometheus metrics",
        description:
          "Calls by status, the oldest pending call's age, claim and wake-up latency, receipts by kind and outcome, " +
          "replays and conflicts, executors online, model input tokens estimated and actual, domain events. " +
          (options.metricsPublic
            ? "This server serves it without a credential (`metricsPublic`)."
            : "Needs `metrics:read` (or `admin`), unless the server runs with `metricsPublic`."),
        ...(options.metricsPublic ? { security: [] } : {}),
        response: {
          200: {
            description: "The metrics in the Prometheus text format (version 0.0.4).",
            content: { "text/plain": { schema: Type.String() } },
          },
          ...ERROR_RESPONSES,
        },
      },
    },
    async (_request, reply) => {
      const text = await metrics.render();
      const untyped: FastifyReply = reply;
      return untyped.code(200).header("content-type", metrics.contentType).send(text);
    },
  );
};
