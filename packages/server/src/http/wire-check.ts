/**
 * Checking a value against a wire schema exactly as a route checks its body (same Ajv options, same
 * 422 errors), for callers outside HTTP: `toolhost keys create` builds a `POST /v1/keys` body from
 * its options and refuses it with the error the route would answer.
 */

import type { Static, TSchema } from "typebox";
import { type SchemaError, validationProblem } from "./validation-problem.js";
import { BODY_AJV_OPTIONS, newAjv } from "./validator-compiler.js";

/** A checker for `schema`: answers the value typed when it matches, throws the route's ProtocolError otherwise. */
export function wireCheck<Schema extends TSchema>(schema: Schema): (value: unknown) => Static<Schema> {
  const validate = newAjv(BODY_AJV_OPTIONS).compile(schema as object);
  return (value) => {
    if (validate(value) === true) return value as Static<Schema>;
    throw validationProblem((validate.errors ?? []) as SchemaError[], "body");
  };
}
