/**
 * What the error handler learned about an answer that the metrics hook needs later: the error code
 * (the body is serialised by then). Kept beside the request, never on the wire.
 */

import type { FastifyRequest } from "fastify";

const codes = new WeakMap<FastifyRequest, string>();

/** Notes that `request` is answered with the error `code`. */
export function noteErrorCode(request: FastifyRequest, code: string): void {
  codes.set(request, code);
}

/** The error code `request` was answered with, if it was an error answer. */
export function errorCodeOf(request: FastifyRequest): string | undefined {
  return codes.get(request);
}
