/**
 * Request IDs: a caller's `X-Request-Id` is kept when it is short printable ASCII (so it can be logged
 * and echoed safely), otherwise the server makes one. Every answer carries it back in `X-Request-Id`,
 * every error body in `error.request_id`, every log line of the request in `reqId`.
 */

import type { IncomingMessage } from "node:http";
import { newId } from "../ids.js";

/** The header a request ID travels in, both ways. */
export const REQUEST_ID_HEADER = "x-request-id";

/** Longest caller-chosen request ID kept. */
export const REQUEST_ID_MAX_LENGTH = 128;

const PRINTABLE = /^[\x21-\x7e]+$/;

/** True when `value` is a request ID the server keeps: 1–128 visible ASCII characters. */
export function isAcceptableRequestId(value: unknown): value is string {
  return (
    typeof value === "string" && value.length > 0 && value.length <= REQUEST_ID_MAX_LENGTH && PRINTABLE.test(value)
  );
}

/** A new server-made request ID such as `req_01j9z3k5q8w2x7v4b6n0m1c3d5`. */
export function newRequestId(): string {
  return newId("req", Date.now());
}

/** The ID of `request`: its own `X-Request-Id` when acceptable, else a new one (Fastify's `genReqId`). */
export function requestIdOf(request: IncomingMessage): string {
  const header = request.headers[REQUEST_ID_HEADER];
  return isAcceptableRequestId(header) ? header : newRequestId();
}
