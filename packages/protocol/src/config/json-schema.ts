/**
 * JSON Schema (draft 2020-12) checking and compilation for tool schemas.
 *
 * A schema is checked against the 2020-12 meta-schema on one shared Ajv instance (that validates the
 * schema as data, so nothing of it stays behind), then compiled on a fresh Ajv instance of its own:
 * schemas of different tools and tenants never share `$id`s or references, and nothing accumulates
 * in Ajv's internal caches. Compiled validators are kept in a bounded cache keyed by the schema's JSON
 * text, so the same text always yields the same validator and the same errors. `$ref`s must resolve
 * inside the schema: nothing is ever loaded (no I/O).
 */

import { Ajv2020, type ErrorObject, type Options, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { ProtocolError } from "../errors.js";
import { isPlainObject, type PlainObject } from "./plain-json.js";

/** The only dialect accepted: `$schema`, when present, must name it (with or without a trailing `#`). */
export const JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** A JSON Schema object; boolean schemas are not accepted in tool definitions. */
export type JsonSchemaObject = PlainObject;

/** How many compiled validators stay cached; the least recently used one is dropped first. */
const VALIDATOR_CACHE_SIZE = 256;

/** How many Ajv errors an `invalid_schema` message quotes (details carry up to 20). */
const QUOTED_SCHEMA_ERRORS = 5;

/** Validation only: no coercion, no defaults and no removal, so validating never changes the data. */
const AJV_OPTIONS: Options = {
  strict: false,
  allErrors: true,
  addUsedSchema: false,
  validateFormats: true,
  logger: false,
};

const metaValidator = withFormats(new Ajv2020({ ...AJV_OPTIONS, validateSchema: true }));
const validators = new Map<string, ValidateFunction>();

/** Checks `schema` is a valid draft 2020-12 schema object and compiles it; `invalid_schema` otherwise. */
export function compileJsonSchema(schema: unknown, pointer: string, field = "schema"): ValidateFunction {
  if (!isPlainObject(schema)) {
    const got = typeof schema === "boolean" ? "a boolean schema" : "not an object";
    throw new ProtocolError("invalid_schema", `${field} must be a JSON Schema object; got ${got}`, pointer, { field });
  }
  const key = JSON.stringify(schema);
  const cached = validators.get(key);
  if (cached !== undefined) {
    validators.delete(key);
    validators.set(key, cached);
    return cached;
  }
  checkDialect(schema, pointer, field);
  checkMetaSchema(schema, pointer, field);
  let validate: ValidateFunction;
  try {
    validate = withFormats(new Ajv2020({ ...AJV_OPTIONS, validateSchema: false })).compile(schema);
  } catch (error) {
    // Unresolvable `$ref`, an invalid `pattern`, an ambiguous `$id`, or a stack too deep to compile.
    const reason = error instanceof Error ? error.message : String(error);
    throw new ProtocolError("invalid_schema", `${field} cannot be compiled: ${reason}`, pointer, { field });
  }
  validators.set(key, validate);
  if (validators.size > VALIDATOR_CACHE_SIZE) {
    const oldest = validators.keys().next();
    if (oldest.done !== true) validators.delete(oldest.value);
  }
  return validate;
}

function checkDialect(schema: JsonSchemaObject, pointer: string, field: string): void {
  if (!Object.hasOwn(schema, "$schema")) return;
  const dialect = schema.$schema;
  if (dialect === JSON_SCHEMA_DIALECT || dialect === `${JSON_SCHEMA_DIALECT}#`) return;
  throw new ProtocolError(
    "invalid_schema",
    `${field} must be JSON Schema draft 2020-12: $schema must be "${JSON_SCHEMA_DIALECT}" or absent; got ${JSON.stringify(dialect)}`,
    `${pointer}/$schema`,
    { field, dialect: JSON_SCHEMA_DIALECT },
  );
}

function checkMetaSchema(schema: JsonSchemaObject, pointer: string, field: string): void {
  let valid: boolean;
  try {
    valid = metaValidator.validateSchema(schema) === true;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ProtocolError("invalid_schema", `${field} cannot be checked: ${reason}`, pointer, { field });
  }
  if (valid) return;
  const errors: ErrorObject[] = metaValidator.errors ?? [];
  const text = metaValidator.errorsText(errors.slice(0, QUOTED_SCHEMA_ERRORS), { dataVar: field });
  throw new ProtocolError(
    "invalid_schema",
    `${field} is not a valid JSON Schema (draft 2020-12): ${text}`,
    `${pointer}${errors[0]?.instancePath ?? ""}`,
    {
      field,
      errors: errors
        .slice(0, 20)
        .map((e) => ({ pointer: `${pointer}${e.instancePath}`, message: e.message ?? e.keyword })),
    },
  );
}

function withFormats(ajv: Ajv2020): Ajv2020 {
  // ajv-formats is CommonJS: under NodeNext its default import is the module, whose `default` is the plugin.
  addFormats.default(ajv);
  return ajv;
}
