/**
 * Routes whose body says nothing (`{}`: run cancel, business cancel) accept no body at all too, as
 * clients commonly send a bare POST. Schema validation runs on the body value, and an absent body is
 * `undefined`, which no object schema accepts; this hook stands an empty object in for it.
 */

import type { preValidationAsyncHookHandler } from "fastify";

/** A `preValidation` hook: an absent body validates (and reads) as `{}`. */
export const absentBodyIsEmpty: preValidationAsyncHookHandler = async (request) => {
  if (request.body === undefined) request.body = {};
};
