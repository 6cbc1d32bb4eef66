/**
 * Validation of a tool call's arguments against the tool's input schema, for dry-runs and runs:
 * invalid arguments never reach an executor, and the model gets these errors as the tool result.
 */

import type { ErrorObject } from "ajv/dist/2020.js";
import { isProtocolError } from "../errors.js";
import { pointerAppend } from "../json/pointer.js";
import { compileJsonSchema, type JsonSchemaObject } from "./json-schema.js";
import { toPlainJson } from "./plain-json.js";
import { VALIDATION_WORK_BUDGET } from "./validation-cost.js";

/** The most errors one validation reports, so a huge wrong array cannot flood the model's context. */
export const MAX_ARGUMENT_ERRORS = 50;

/** One reason the arguments fail their schema: the JSON pointer into the arguments and what is wrong. */
export interface ArgumentError {
  pointer: string;
  message: string;
}

/** The outcome of validating arguments: `valid` exactly when `errors` is empty. */
export interface ArgumentsValidation {
  valid: boolean;
  errors: ArgumentError[];
}

/**
 * Validates `args` against `schema`; errors come in Ajv's deterministic order, duplicates removed.
 * Throws `invalid_schema` when the schema itself is invalid (tool definitions are checked before).
 */
export function validateArguments(schema: JsonSchemaObject, args: unknown): ArgumentsValidation {
  const compiled = compileJsonSchema(schema, "", "input_schema");
  let data: unknown;
  try {
    data = toPlainJson(args);
  } catch (error) {
    if (!isProtocolError(error)) throw error;
    return { valid: false, errors: [{ pointer: error.pointer ?? "", message: error.message }] };
  }
  const check = compiled.check(data);
  if (check.valid) return { valid: true, errors: [] };
  if ("exceeded" in check) {
    // Refused, not hung: the same arguments against the same schema always spend the same work.
    const message = `checking these arguments against input_schema needs more work than the limit of ${VALIDATION_WORK_BUDGET} steps allows (branches that multiply at every level, or a $ref cycle); simplify the arguments or the schema`;
    return { valid: false, errors: [{ pointer: "", message }] };
  }
  const errors: ArgumentError[] = [];
  const seen = new Set<string>();
  for (const error of check.errors) {
    const described = describe(error);
    const key = `${described.pointer}\u0000${described.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    errors.push(described);
    if (errors.length === MAX_ARGUMENT_ERRORS) break;
  }
  return { valid: false, errors };
}

/** Points a missing or disallowed property at the property itself, where the fix belongs; messages name it. */
function describe(error: ErrorObject): ArgumentError {
  const params = error.params as Record<string, unknown>;
  const path = error.instancePath;
  const message = error.message ?? `fails ${error.keyword}`;
  if (
    (error.keyword === "required" || error.keyword === "dependentRequired") &&
    typeof params.missingProperty === "string"
  ) {
    return { pointer: pointerAppend(path, params.missingProperty), message };
  }
  const extra = error.keyword === "additionalProperties" ? params.additionalProperty : params.unevaluatedProperty;
  if (
    (error.keyword === "additionalProperties" || error.keyword === "unevaluatedProperties") &&
    typeof extra === "string"
  ) {
    return { pointer: pointerAppend(path, extra), message: `must NOT have property '${extra}' (${error.keyword})` };
  }
  return { pointer: path, message };
}
