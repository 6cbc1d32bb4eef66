/**
 * Stable error codes of the toolhost protocol and their HTTP statuses.
 *
 * Codes are part of the wire contract: clients branch on them, so a code is never renamed or
 * reused. Each entry says which HTTP status answers it and, in one line, when it happens.
 */
export const ERROR_CODES = {
  /** The body is not well-formed JSON text (or not UTF-8). */
  invalid_json: { status: 400, description: "The body is not well-formed JSON." },
  /** The HTTP request itself is malformed (bad URL encoding, broken headers), before any JSON is read. */
  bad_request: { status: 400, description: "The HTTP request is malformed." },
  /** An object of the request body names one member twice (readers disagree on which one counts). */
  duplicate_member: { status: 400, description: "An object in the body holds a member name twice." },
  /** A string holds an unpaired UTF-16 surrogate, which UTF-8 cannot encode (Python refuses it too). */
  lone_surrogate: {
    status: 422,
    description: "A string holds a lone surrogate, which UTF-8 cannot encode.",
  },
  /** A number is outside the IEEE-754 double range (Python's `allow_nan=False` refuses infinity). */
  number_out_of_range: {
    status: 422,
    description: "A number is outside the range of a double.",
  },
  /** An integer has more digits than Python's default `int` conversion limit (4,300). */
  integer_too_long: {
    status: 422,
    description: "An integer has more than 4,300 digits.",
  },
  /** Arrays and objects are nested deeper than MAX_JSON_DEPTH. */
  nesting_too_deep: {
    status: 422,
    description: "Arrays and objects are nested too deeply.",
  },
  /** A value does not have the shape the endpoint or schema requires. */
  validation_failed: { status: 422, description: "A value does not have the required shape." },
  /** An object holds a field the protocol does not define (definitions are strict). */
  unknown_field: { status: 422, description: "An object holds a field that is not defined." },
  /** A field that existed in an earlier protocol version was removed, without alias. */
  field_removed: { status: 422, description: "A removed field was sent; the details name its replacement." },
  /** `max_result_context_bytes` is not an integer from 1,024 to 32,768. */
  invalid_budget: {
    status: 422,
    description: "max_result_context_bytes must be an integer from 1,024 to 32,768.",
  },
  /** A tool's `input_schema` is not a valid JSON Schema of type object. */
  invalid_schema: { status: 422, description: "A JSON Schema is invalid." },
  /** A tool's JSON Schema exceeds a size limit (bytes, properties or depth); the details name the limit. */
  schema_too_large: {
    status: 422,
    description: "A JSON Schema exceeds a size limit; the details name the limit, its maximum and the value.",
  },
  /** A toolset version has more tools than MAX_TOOLS_PER_TOOLSET (128). */
  too_many_tools: { status: 422, description: "A toolset version holds more than 128 tools." },
  /** Two tools of one toolset version have the same name. */
  duplicate_tool_name: { status: 422, description: "Two tools have the same name." },
  /** A member names an object that does not exist or lies outside the credential's scope (same answer for both). */
  unknown_reference: {
    status: 422,
    description: "A member names an object that does not exist (or that the credential cannot see).",
  },
  /** A tool result does not match its declared `result_type`. */
  invalid_result: { status: 422, description: "A tool result does not match its result type." },
  /** No valid credential was sent. */
  unauthorized: { status: 401, description: "A valid API key is required." },
  /** The credential lacks the scope the operation needs. */
  forbidden: { status: 403, description: "The API key lacks the required scope." },
  /** The executor named belongs to another API key: the one that opened its current connection. */
  executor_key_mismatch: {
    status: 403,
    description: "The executor's current connection was opened with another API key; only that key may act for it.",
  },
  /** A per-call grant is wrong, foreign or expired. */
  invalid_grant: { status: 403, description: "The grant does not belong to this call and claim." },
  /** The object does not exist or lies outside the credential's agent or binding scope. */
  not_found: { status: 404, description: "Not found." },
  /** The HTTP method is not allowed on this path. */
  method_not_allowed: { status: 405, description: "Method not allowed." },
  /** Another executor holds the claim on this call. */
  already_claimed: { status: 409, description: "Another executor holds the claim on this call." },
  /** A receipt ID was reused with a different body. */
  receipt_conflict: { status: 409, description: "This receipt ID was sent before with another body." },
  /** A final receipt arrived before the `accepted` receipt. */
  accept_required: { status: 409, description: "The call must be accepted first." },
  /** A second, different final receipt arrived for a call that already has one. */
  call_already_final: { status: 409, description: "The call already has a final receipt." },
  /** The call has as many progress receipts as the server's `maxProgressPerCall` allows; nothing was stored. */
  progress_limit_exceeded: {
    status: 409,
    description: "The call has the most progress receipts the server keeps per call; send its final receipt.",
  },
  /** The run has ended; nothing more can start in it. */
  run_terminated: { status: 409, description: "The run has ended." },
  /** A newer connection of the same executor ID fenced this one. */
  connection_superseded: {
    status: 409,
    description: "A newer connection of this executor superseded this one.",
  },
  /** The executor connection is offline (its lease lapsed or it detached): connect again for a new one. */
  connection_offline: {
    status: 409,
    description: "This executor connection is offline (lease lapsed or detached); connect again.",
  },
  /** A generic conflict with stored state. */
  conflict: { status: 409, description: "The request conflicts with stored state." },
  /** Compensation was asked for a call that is not a `completed` call of a `write` tool (nothing to undo). */
  not_compensable: {
    status: 409,
    description: "Only a completed call of a write tool can be compensated.",
  },
  /** The key (or the whole instance) has as many run event streams open as allowed; `Retry-After` says when to try again. */
  too_many_streams: {
    status: 429,
    description: "Too many event streams are open (for this key or on this server); retry after the Retry-After delay.",
  },
  /** The request (headers and body) did not arrive within the server's request or headers timeout. */
  request_timeout: { status: 408, description: "The request did not arrive in time." },
  /** The body is larger than the configured limit. */
  body_too_large: { status: 413, description: "The body is larger than the configured limit." },
  /** A progress receipt's `progress` value is larger (as compact JSON) than the server's `maxProgressBytes`. */
  progress_too_large: {
    status: 413,
    description: "The progress value is larger than the server keeps per progress receipt.",
  },
  /** The body is not `application/json`. */
  unsupported_media_type: { status: 415, description: "The body must be application/json." },
  /** An unexpected failure; the message never carries internal details. */
  internal_error: { status: 500, description: "An internal error occurred." },
  /** The database cannot be reached or cannot store data now; `Retry-After` says when to try again. */
  storage_unavailable: {
    status: 503,
    description: "Storage is unavailable; retry after the Retry-After delay.",
  },
} as const satisfies Record<string, { status: number; description: string }>;

/** One of the stable error codes. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The wire body of every error answer (docs/http-api.md#errors). */
export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    pointer?: string;
    details?: Record<string, unknown>;
    /** The request's ID (its `X-Request-Id`), set by the server that answered; quote it when reporting a problem. */
    request_id?: string;
  };
}

/** An error that is a value: a stable code, its HTTP status, a message and the JSON pointer at fault. */
export class ProtocolError extends Error {
  /** The HTTP status that answers this code. */
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly pointer?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ProtocolError";
    this.status = ERROR_CODES[code].status;
  }

  /** The error body for this error. */
  toBody(): ErrorBody {
    const error: ErrorBody["error"] = { code: this.code, message: this.message };
    if (this.pointer !== undefined) error.pointer = this.pointer;
    if (this.details !== undefined) error.details = this.details;
    return { error };
  }
}

/** True when `value` is a ProtocolError (also across duplicated module copies). */
export function isProtocolError(value: unknown): value is ProtocolError {
  if (value instanceof ProtocolError) return true;
  if (!(value instanceof Error) || value.name !== "ProtocolError") return false;
  const code: unknown = (value as { code?: unknown }).code;
  return typeof code === "string" && Object.hasOwn(ERROR_CODES, code);
}
