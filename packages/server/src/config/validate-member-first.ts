/**
 * Runs a protocol validator on one member of the request body *before* schema validation. The wire
 * schema of that member only documents it (with the same bounds); its rules live in the protocol
 * package (`validateToolset`, `validateModelSettings`), and running them first means their error
 * codes and pointers are what a client sees (`field_removed`, `invalid_budget`, …) rather than the
 * schema's generic `validation_failed`. The normalized value is kept for the handler, so nothing
 * is validated twice.
 */

import type { FastifyRequest, preValidationAsyncHookHandler } from "fastify";

/** A `preValidation` hook and the way a handler reads what it validated. */
export interface MemberValidation<T> {
  /** Validates the member when the body is an object holding it; otherwise leaves it to the schema. */
  readonly preValidation: preValidationAsyncHookHandler;
  /** The normalized member of a request that passed schema validation (where the member is required). */
  resultOf(request: FastifyRequest): T;
}

/** Validates body member `member` with `validate(value, "/member")` (sync or async) before the route's schema runs. */
export function validateMemberFirst<T>(
  member: string,
  validate: (value: unknown, pointer: string) => T | Promise<T>,
): MemberValidation<T> {
  const results = new WeakMap<FastifyRequest, T>();
  return {
    preValidation: async (request) => {
      const body: unknown = request.body;
      if (typeof body !== "object" || body === null || Array.isArray(body) || !Object.hasOwn(body, member)) return;
      results.set(request, await validate((body as Record<string, unknown>)[member], `/${member}`));
    },
    resultOf(request) {
      if (!results.has(request)) {
        throw new Error(`route ${request.routeOptions.url} reads body member ${member} that was never validated`);
      }
      return results.get(request) as T;
    },
  };
}
