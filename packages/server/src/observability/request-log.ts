/**
 * One log line per answered request, at a level that says how much it matters: 5xx at `error`, 4xx at
 * `warn`, the frequent, expected requests (long-polls, the run event stream, health, readiness,
 * metrics) at `debug`, everything else at `info`. Fastify's own two lines per request are off, so a
 * long-poll no longer fills the log at `info`. Every line carries the request ID (`reqId`).
 */

import type { FastifyReply, FastifyRequest } from "fastify";
import type { App } from "../http/app.js";

/** Route patterns answered at `debug` when they succeed: long-polls, streams and probes. */
export const QUIET_ROUTES: ReadonlySet<string> = new Set([
  "/v1/health",
  "/v1/ready",
  "/metrics",
  "/v1/executors/:executor_id/pending",
  "/v1/runs/:run_id/events",
]);

/** The level a request's line is logged at (pure). */
export function requestLogLevel(status: number, route: string | undefined): "error" | "warn" | "info" | "debug" {
  if (status >= 500) return "error";
  if (status >= 400) return "warn";
  if (route !== undefined && QUIET_ROUTES.has(route)) return "debug";
  return "info";
}

/** Logs every request at `debug` when it arrives and once, at its level, when it was answered. */
export function installRequestLog(app: App): void {
  // Callback hooks, not async ones: a hook per phase of every request, without a promise each.
  app.addHook("onRequest", (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    request.log.debug({ method: request.method, url: request.url }, "request received");
    done();
  });
  app.addHook("onResponse", (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const route = request.routeOptions.url;
    const status = reply.statusCode;
    const level = requestLogLevel(status, route);
    request.log[level](
      {
        method: request.method,
        url: request.url,
        route,
        status,
        duration_ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      "request answered",
    );
    done();
  });
}
