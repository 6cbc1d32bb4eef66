/**
 * The route a request is labelled with in metrics and spans: its route template, never the path (IDs
 * would make a series per call). A request no route matched, or that only the console's catch-all
 * fallback took (any unknown path, `/v1` ones included), is `unmatched`, so a flood of random paths
 * stays one series.
 */

import type { FastifyRequest } from "fastify";

/** The request's route template, or `unmatched`. */
export function routeTemplateOf(request: FastifyRequest): string {
  const { url, config } = request.routeOptions;
  if (url === undefined || (config as { fallback?: unknown } | undefined)?.fallback === true) return "unmatched";
  return url;
}
