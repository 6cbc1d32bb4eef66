/** The wire schema of every error answer (docs/http-api.md#errors), derived from ERROR_CODES so the two never drift. */

import { type Static, Type } from "typebox";
import { ERROR_CODES, type ErrorCode } from "../errors.js";
import { AnyObject, WireObject } from "./common.js";

const codes = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/** The error of an error answer: a stable code, a message, the JSON pointer at fault and details. */
export const ErrorDetail = WireObject("What went wrong.", {
  code: Type.Unsafe<ErrorCode>({
    type: "string",
    enum: codes,
    description: "Stable snake_case error code; clients branch on it.",
  }),
  message: Type.String({ description: "Human-readable explanation; not stable." }),
  pointer: Type.Optional(
    Type.String({ description: "JSON pointer (RFC 6901) to the member of the request at fault." }),
  ),
  details: Type.Optional(AnyObject("Machine-readable details; their members depend on the code.")),
  request_id: Type.Optional(
    Type.String({
      description:
        "The request's ID, the same as the answer's `X-Request-Id` header (the caller's own when it sent an acceptable one); quote it when reporting a problem.",
    }),
  ),
});

/** The error of an error answer. */
export type ErrorDetail = Static<typeof ErrorDetail>;

/** Every error answer: `{"error":{"code","message","pointer"?,"details"?,"request_id"?}}`. */
export const ErrorBody = WireObject("An error answer.", { error: ErrorDetail });

/** Every error answer (the same shape as the protocol's `ErrorBody` interface). */
export type ErrorBody = Static<typeof ErrorBody>;
