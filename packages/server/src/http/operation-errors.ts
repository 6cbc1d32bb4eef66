/**
 * Which errors one operation can answer (pure): the codes its shape implies (a credential, path
 * parameters, a query, a JSON body) plus the domain codes the route declares in `config.errorCodes`.
 * The OpenAPI document lists exactly these, grouped by HTTP status.
 */

import { ERROR_CODES, type ErrorCode } from "@toolhost/protocol";

/** What the error set of an operation depends on. */
export interface OperationShape {
  /** True for a route that needs no credential. */
  readonly isPublic: boolean;
  readonly hasParams: boolean;
  readonly hasQuery: boolean;
  readonly hasBody: boolean;
  /** The domain codes the route itself raises (`config.errorCodes`). */
  readonly declared: readonly ErrorCode[];
}

/** Every operation: headers that do not arrive in time, an unexpected failure. */
const ANY_OPERATION: readonly ErrorCode[] = ["request_timeout", "internal_error"];

/** A protected operation: the key is checked against storage, then its scope. */
const PROTECTED: readonly ErrorCode[] = ["unauthorized", "forbidden", "storage_unavailable"];

/** Path parameters: a malformed URL, a parameter that is not an ID, a resource that is not there. */
const WITH_PARAMS: readonly ErrorCode[] = ["bad_request", "validation_failed", "not_found"];

/** A query string: values of the wrong shape and unknown parameters. */
const WITH_QUERY: readonly ErrorCode[] = ["validation_failed", "unknown_field"];

/** A JSON body: how it is read (strict, lossless) and checked against its schema (a removed member, anywhere, is `field_removed`). */
const WITH_BODY: readonly ErrorCode[] = [
  "invalid_json",
  "duplicate_member",
  "body_too_large",
  "unsupported_media_type",
  "validation_failed",
  "unknown_field",
  "field_removed",
  "lone_surrogate",
  "number_out_of_range",
  "integer_too_long",
  "nesting_too_deep",
];

/** The codes `shape` can answer, in ERROR_CODES order. */
export function operationErrorCodes(shape: OperationShape): ErrorCode[] {
  const codes = new Set<ErrorCode>([...ANY_OPERATION, ...shape.declared]);
  if (!shape.isPublic) for (const code of PROTECTED) codes.add(code);
  if (shape.hasParams) for (const code of WITH_PARAMS) codes.add(code);
  if (shape.hasQuery) for (const code of WITH_QUERY) codes.add(code);
  if (shape.hasBody) for (const code of WITH_BODY) codes.add(code);
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => codes.has(code));
}

/** `codes` grouped by their HTTP status, statuses ascending. */
export function codesByStatus(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const groups = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    groups.set(status, [...(groups.get(status) ?? []), code]);
  }
  return new Map([...groups.entries()].sort(([a], [b]) => a - b));
}
