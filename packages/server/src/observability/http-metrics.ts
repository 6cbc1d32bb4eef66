/**
 * The metrics read off answered requests: request duration per route template and status class
 * (RED), receipts of the per-call route by kind and outcome (`recorded`, `replayed`, or the error
 * code), replays, and 409 conflicts by code. The receipt answer is the exact text the route sent, so
 * `replayed` is read from it before it leaves. Batched receipts are counted by their route
 * (`receipt-batch-routes.ts`) through the same `countReceipt`.
 */

import type { FastifyReply, FastifyRequest } from "fastify";
import { errorCodeOf } from "../http/answer-facts.js";
import type { App } from "../http/app.js";
import { routeTemplateOf } from "./route-template.js";
import type { ServerMetrics } from "./server-metrics.js";

/** The receipt route's pattern. */
export const RECEIPT_ROUTE = "/v1/runs/:run_id/tool-calls/:call_id/receipts";

/** Methods counted by name; anything else counts as `other` (the label stays bounded). */
const METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

const replayed = new WeakSet<FastifyRequest>();

/** The `status_class` label of an HTTP status: `2xx` … `5xx`. */
export function statusClassOf(status: number): string {
  return `${Math.min(5, Math.max(1, Math.floor(status / 100)))}xx`;
}

/** Times every answered request and counts receipts, replays and conflicts. */
export function installHttpMetrics(app: App, metrics: ServerMetrics): void {
  app.addHook("onSend", (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    if (
      request.routeOptions.url === RECEIPT_ROUTE &&
      reply.statusCode === 200 &&
      typeof payload === "string" &&
      /"replayed":true/.test(payload)
    ) {
      replayed.add(request);
    }
    done(null, payload);
  });
  app.addHook("onResponse", (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    try {
      countAnswer(metrics, request, reply);
    } finally {
      done();
    }
  });
}

function countAnswer(metrics: ServerMetrics, request: FastifyRequest, reply: FastifyReply): void {
  const route = routeTemplateOf(request);
  const method = METHODS.has(request.method) ? request.method : "other";
  metrics.requestDuration.observe(
    { method, route, status_class: statusClassOf(reply.statusCode) },
    reply.elapsedTime / 1000,
  );
  const code = errorCodeOf(request);
  if (reply.statusCode === 409 && code !== undefined) metrics.conflicts.inc({ code });
  if (request.routeOptions.url !== RECEIPT_ROUTE || request.method !== "POST") return;
  const sent = (request.body as { kind?: unknown } | undefined)?.kind;
  metrics.countReceipt(sent, reply.statusCode, replayed.has(request), code);
}
