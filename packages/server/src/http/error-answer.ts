/**
 * The one mapping from anything thrown while handling a request to its error answer (pure; shape in docs/http-api.md#errors).
 * ProtocolErrors answer themselves; Fastify's own errors map to their protocol codes; anything else
 * is a 500 `internal_error` whose message says nothing about the cause (the caller logs it).
 */

import { ERROR_CODES, type ErrorBody, type ErrorCode, isProtocolError, ProtocolError } from "@toolhost/protocol";
import { isStorageUnavailableError } from "../storage/storage-unavailable.js";
import { type SchemaError, validationProblem } from "./validation-problem.js";

/** An HTTP error answer: status, headers and the error body. */
export interface ErrorAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: ErrorBody;
  /** True when the cause is unexpected: log it with its stack. */
  readonly internal: boolean;
}

/** What the mapping needs to know about the server. */
export interface ErrorAnswerContext {
  readonly bodyLimitBytes: number;
}

/** The message of every 500: the cause is logged, never sent. */
export const INTERNAL_ERROR_MESSAGE = "an internal error occurred; it has been logged";

/** The `Retry-After` (seconds) of a 503 `storage_unavailable`: soon, without hammering a recovering database. */
export const STORAGE_RETRY_AFTER_SECONDS = 2;

/** Fastify error codes and the protocol error each one is. */
const FASTIFY_CODES: Readonly<Record<string, (context: ErrorAnswerContext) => ProtocolError>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ({ bodyLimitBytes }) =>
    new ProtocolError("body_too_large", `the body is larger than the limit of ${bodyLimitBytes} bytes`, undefined, {
      limit_bytes: bodyLimitBytes,
    }),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => unsupportedMediaType(),
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: () => unsupportedMediaType(),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new ProtocolError("invalid_json", "the body does not match its Content-Length"),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new ProtocolError("invalid_json", "the body is empty"),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new ProtocolError("invalid_json", "the body is not well-formed JSON"),
  FST_ERR_BAD_URL: () => new ProtocolError("bad_request", "the URL is not valid (bad percent-encoding)"),
  FST_ERR_MAX_PARAM_LENGTH: () => new ProtocolError("not_found", "no such resource"),
  FST_ERR_NOT_FOUND: () => new ProtocolError("not_found", "no such resource"),
};

/** The code a foreign error with an HTTP 4xx status maps to, by status. */
const CODE_BY_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "body_too_large",
  415: "unsupported_media_type",
  422: "validation_failed",
};

/** The 415 answer. */
export function unsupportedMediaType(): ProtocolError {
  return new ProtocolError("unsupported_media_type", "the body must be application/json (UTF-8)");
}

/** The answer for `error`. */
export function errorAnswer(error: unknown, context: ErrorAnswerContext): ErrorAnswer {
  if (isStorageUnavailableError(error)) {
    // An outage, not a bug: no stack per request (the sweeper logs the outage once). The cause may
    // name the database's host, so the client gets a fixed message.
    const unavailable = new ProtocolError("storage_unavailable", "storage is unavailable; retry later");
    const headers = { "retry-after": String(STORAGE_RETRY_AFTER_SECONDS) };
    return { status: unavailable.status, headers, body: unavailable.toBody(), internal: false };
  }
  const known = asProtocolError(error, context);
  if (known === undefined) {
    return {
      status: ERROR_CODES.internal_error.status,
      headers: {},
      body: { error: { code: "internal_error", message: INTERNAL_ERROR_MESSAGE } },
      internal: true,
    };
  }
  const headers: Record<string, string> = {};
  if (known.code === "unauthorized") headers["www-authenticate"] = 'Bearer realm="toolhost"';
  const allowed = known.details?.allowed_methods;
  if (known.code === "method_not_allowed" && Array.isArray(allowed)) headers.allow = allowed.join(", ");
  const retryAfter = known.details?.retry_after_seconds;
  if (known.code === "too_many_streams" && typeof retryAfter === "number") headers["retry-after"] = String(retryAfter);
  return { status: known.status, headers, body: known.toBody(), internal: known.status >= 500 };
}

function asProtocolError(error: unknown, context: ErrorAnswerContext): ProtocolError | undefined {
  if (isProtocolError(error)) return error;
  if (!(error instanceof Error)) return undefined;
  const fields = error as Error & {
    code?: unknown;
    statusCode?: unknown;
    validation?: unknown;
    validationContext?: unknown;
  };
  if (Array.isArray(fields.validation) && fields.validation.length > 0) {
    const part = typeof fields.validationContext === "string" ? fields.validationContext : "body";
    return validationProblem(fields.validation as SchemaError[], part);
  }
  const byCode = typeof fields.code === "string" ? FASTIFY_CODES[fields.code] : undefined;
  if (byCode !== undefined) return byCode(context);
  // Other client errors raised by Fastify or its plugins: their messages are written for clients.
  const status = typeof fields.statusCode === "number" ? fields.statusCode : undefined;
  const code = status === undefined ? undefined : CODE_BY_STATUS[status];
  if (code !== undefined && typeof fields.code === "string" && fields.code.startsWith("FST_")) {
    return new ProtocolError(code, error.message);
  }
  return undefined;
}
