/**
 * JSON Schema (draft 2020-12) checking and compilation for tool schemas.
 *
 * A schema is first held to the size limits (`schema-limits.ts`), then checked against the 2020-12
 * meta-schema on one shared Ajv instance (that validates the schema as data, so nothing of it stays
 * behind); its patterns must run on RE2 (`schema-pattern.ts`). It is then compiled, with a cost mark
 * on every subschema (`validation-cost.ts`), on a fresh Ajv instance of its own: schemas of
 * different tools and tenants never share `$id`s or references, and nothing accumulates in Ajv's
 * internal caches. Compiled schemas are kept in a bounded cache keyed by the schema's JSON text, so
 * the same text always yields the same validator and the same errors, and a dry-run or a run checks
 * arguments without compiling again. `$ref`s must resolve inside the schema: nothing is ever loaded
 * (no I/O).
 */

import { Ajv2020, type CodeOptions, type ErrorObject, type Options, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { ProtocolError } from "../errors.js";
import { pointerAppend } from "../json/pointer.js";
import { isPlainObject, type PlainObject } from "./plain-json.js";
import { checkSchemaLimits } from "./schema-limits.js";
import { compileTranslation, type LinearPattern, PATTERN_LIMITS, translatePattern } from "./schema-pattern.js";
import { forEachSubschema } from "./schema-walk.js";
import {
  addMeteredKeywords,
  checkCostCoverage,
  meteredRegExp,
  WorkBudgetExceeded,
  WorkMeter,
  withCostMarks,
} from "./validation-cost.js";

/** The only dialect accepted: `$schema`, when present, must name it (with or without a trailing `#`). */
export const JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** A JSON Schema object; boolean schemas are not accepted in tool definitions. */
export type JsonSchemaObject = PlainObject;

/** The outcome of checking data against a compiled schema. */
export type SchemaCheck =
  | { valid: true }
  | { valid: false; errors: readonly ErrorObject[] }
  /** The check spent its work budget (or recursed too deep) before it could decide. */
  | { valid: false; exceeded: true };

/** A compiled schema: checks data within the work budget, synchronously. */
export interface CompiledSchema {
  check(data: unknown): SchemaCheck;
}

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

/** Ajv's code options: patterns on RE2, and no optimizing pass (it roughly doubled compile time). */
function compileCodeOptions(meter: WorkMeter, patterns: ReadonlyMap<string, LinearPattern>): CodeOptions {
  return { regExp: meteredRegExp(meter, patterns), optimize: false };
}

const metaValidator = withFormats(new Ajv2020({ ...AJV_OPTIONS, validateSchema: true }));
const validators = new Map<string, CompiledSchema>();

/** Checks `schema` is a valid draft 2020-12 schema object and compiles it; `invalid_schema` otherwise. */
export function compileJsonSchema(schema: unknown, pointer: string, field = "schema"): CompiledSchema {
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
  checkSchemaLimits(schema, pointer, field);
  checkMetaSchema(schema, pointer, field);
  const patterns = compilePatterns(schema, pointer, field);
  checkCostCoverage(schema, pointer, field);
  const meter = new WorkMeter();
  let validate: ValidateFunction;
  try {
    const ajv = new Ajv2020({ ...AJV_OPTIONS, validateSchema: false, code: compileCodeOptions(meter, patterns) });
    validate = addMeteredKeywords(withFormats(ajv), meter).compile(withCostMarks(schema));
  } catch (error) {
    // Unresolvable `$ref`, an ambiguous `$id`, or a stack too deep to compile.
    const reason = error instanceof Error ? error.message : String(error);
    throw new ProtocolError("invalid_schema", `${field} cannot be compiled: ${reason}`, pointer, { field });
  }
  const compiled: CompiledSchema = { check: (data) => checkWithin(validate, meter, data) };
  validators.set(key, compiled);
  if (validators.size > VALIDATOR_CACHE_SIZE) {
    const oldest = validators.keys().next();
    if (oldest.done !== true) validators.delete(oldest.value);
  }
  return compiled;
}

/** Runs `validate` on a full budget; a spent budget or a stack overflow (a `$ref` cycle) is `exceeded`. */
function checkWithin(validate: ValidateFunction, meter: WorkMeter, data: unknown): SchemaCheck {
  meter.start();
  try {
    if (validate(data) === true) return { valid: true };
  } catch (error) {
    if (error instanceof WorkBudgetExceeded || error instanceof RangeError) return { valid: false, exceeded: true };
    throw error;
  }
  return { valid: false, errors: validate.errors ?? [] };
}

/**
 * Compiles every `pattern` and `patternProperties` key on RE2, once each; refuses one that cannot
 * run there, or whose cost would pass what all the schema's patterns may cost together
 * (PATTERN_LIMITS), at its pointer, saying why. Costs are estimated before anything is compiled.
 */
function compilePatterns(schema: JsonSchemaObject, pointer: string, field: string): Map<string, LinearPattern> {
  const patterns = new Map<string, LinearPattern>();
  const spent = { instructions: 0, propertyEscapes: 0 };
  const add = (pattern: string, at: string): void => {
    if (patterns.has(pattern)) return;
    const translation = translatePattern(pattern);
    if (!translation.ok) throw patternRefused(pattern, translation.reason, at, field);
    spent.instructions += translation.estimatedSize;
    spent.propertyEscapes += translation.propertyEscapes;
    if (spent.instructions > PATTERN_LIMITS.instructionsInAll) {
      const reason = `the schema's patterns would compile to more than ${PATTERN_LIMITS.instructionsInAll} RE2 instructions in all`;
      throw patternRefused(pattern, reason, at, field);
    }
    if (spent.propertyEscapes > PATTERN_LIMITS.propertyEscapesInAll) {
      const reason = `the schema's patterns hold more than ${PATTERN_LIMITS.propertyEscapesInAll} Unicode property escapes in all`;
      throw patternRefused(pattern, reason, at, field);
    }
    const compiled = compileTranslation(pattern, translation.re2);
    if ("reason" in compiled) throw patternRefused(pattern, compiled.reason, at, field);
    patterns.set(pattern, compiled);
  };
  forEachSubschema(schema, pointer, (subschema, at) => {
    if (typeof subschema.pattern === "string") add(subschema.pattern, pointerAppend(at, "pattern"));
    if (isPlainObject(subschema.patternProperties)) {
      const map = pointerAppend(at, "patternProperties");
      for (const key of Object.keys(subschema.patternProperties)) add(key, pointerAppend(map, key));
    }
  });
  return patterns;
}

function patternRefused(pattern: string, reason: string, pointer: string, field: string): ProtocolError {
  return new ProtocolError(
    "invalid_schema",
    `${field}: the pattern ${JSON.stringify(pattern)} cannot be used: ${reason}`,
    pointer,
    { field, pattern, reason },
  );
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
