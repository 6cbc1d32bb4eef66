/**
 * The metrics read off answered requests: receipts by kind and outcome (`recorded`, `replayed`, or
 * the error code), replays, and 409 conflicts by code. The receipt answer is the exact text the
 * route sent, so `replayed` is read from it before it leaves.
 */

import type { FastifyReply, FastifyRequest } from "fastify";
import type { App } from "../http/app.js";
import { errorCodeOf } from "./answer-facts.js";
import type { ServerMetrics } from "./server-metrics.js";

/** The receipt route's pattern. */
export const RECEIPT_ROUTE = "/v1/runs/:run_id/tool-calls/:call_id/receipts";

/** Receipt kinds counted by name; anything else (a refused body) counts as `invalid`. */
const RECEIPT_KINDS: ReadonlySet<string> = new Set([
  "accepted",
  "progress",
  "completed",
  "failed",
  "cancelled",
  "reconciliation_required",
]);

const replayed = new WeakSet<FastifyRequest>();

/** Counts receipts, replays and conflicts on every answered request. */
export function installHttpMetrics(app: App, metrics: ServerMetrics): void {
  app.addHook("onSend", async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (
      request.routeOptions.url === RECEIPT_ROUTE &&
      reply.statusCode === 200 &&
      typeof payload === "string" &&
      /"replayed":true/.test(payload)
    ) {
      replayed.add(request);
    }
    return payload;
  });
  app.addHook("onResponse", async (request: FastifyRequest, reply: FastifyReply) => {
    const code = errorCodeOf(request);
    if (reply.statusCode === 409 && code !== undefined) metrics.conflicts.inc({ code });
    if (request.routeOptions.url !== RECEIPT_ROUTE || request.method !== "POST") return;
    const sent = (request.body as { kind?: unknown } | undefined)?.kind;
    const kind = typeof sent === "string" && RECEIPT_KINDS.has(sent) ? sent : "invalid";
    const isReplay = replayed.has(request);
    if (isReplay) metrics.replays.inc();
    const outcome =
      reply.statusCode === 200 ? (isReplay ? "replayed" : "recorded") : (code ?? `http_${reply.statusCode}`);
    metrics.receipts.inc({ kind, outcome });
  });
}
