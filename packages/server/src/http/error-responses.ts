/** The error responses every documented route lists (the body of each is the ErrorBody). */

import { ErrorBody } from "@toolhost/protocol/wire";

/** `response` entries for client and server errors; spread into a route's `schema.response`. */
export const ERROR_RESPONSES = { "4xx": ErrorBody, "5xx": ErrorBody } as const;
