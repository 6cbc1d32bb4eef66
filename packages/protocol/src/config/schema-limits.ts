/**
 * Size limits on a tool's JSON Schemas, checked before Ajv sees them.
 *
 * Compiling a schema is synchronous work on the server's one event loop, roughly linear in the
 * schema's size (Ajv generates and parses code for every subschema): a 5,000-property schema held
 * the loop for seconds. The limits keep every accepted schema's compile well under 100 ms while
 * real tool schemas (a few KiB, tens of properties) fit many times over; see docs/configuration.md.
 */

import { ProtocolError } from "../errors.js";
import { measure } from "../json/measure.js";
import { pointerAppend } from "../json/pointer.js";
import type { JsonValue } from "../json/value.js";
import { isPlainObject, type PlainObject } from "./plain-json.js";
import { forEachSubschema } from "./schema-walk.js";

/** The limits on one schema (`input_schema` or `output_schema`); each refusal names its limit. */
export const SCHEMA_LIMITS = {
  /** Nesting of arrays and objects in the schema's JSON (`{"type":"object"}` is depth 1). */
  depth: 32,
  /** Members of all `properties` objects in the schema, counted together. */
  properties: 400,
  /** Subschema objects in all (the schema itself, every property's schema, `items`, `anyOf` members, …). */
  subschemas: 500,
  /** `pattern` keywords and `patternProperties` keys in all: each compiles to an automaton. */
  patterns: 50,
  /** Bytes of the schema's compact JSON text. */
  bytes: 32_768,
} as const;

/** One of the schema limits, as named in `schema_too_large` details. */
export type SchemaLimit = keyof typeof SCHEMA_LIMITS;

/** Throws `schema_too_large` naming the first limit `schema` exceeds, in SCHEMA_LIMITS order. */
export function checkSchemaLimits(schema: PlainObject, pointer: string, field: string): void {
  const deepest = { depth: 0, pointer };
  findDeepest(schema, pointer, 1, deepest);
  if (deepest.depth > SCHEMA_LIMITS.depth) {
    throw tooLarge(
      field,
      deepest.pointer,
      "depth",
      deepest.depth,
      `arrays and objects nested ${deepest.depth} levels deep`,
    );
  }
  const counts = { properties: 0, subschemas: 0, patterns: 0 };
  let over: { limit: "properties" | "subschemas" | "patterns"; pointer: string } | undefined;
  forEachSubschema(schema, pointer, (subschema, at) => {
    counts.subschemas += 1;
    if (isPlainObject(subschema.properties)) counts.properties += Object.keys(subschema.properties).length;
    if (typeof subschema.pattern === "string") counts.patterns += 1;
    if (isPlainObject(subschema.patternProperties)) counts.patterns += Object.keys(subschema.patternProperties).length;
    if (over !== undefined) return;
    if (counts.properties > SCHEMA_LIMITS.properties) over = { limit: "properties", pointer: `${at}/properties` };
    else if (counts.subschemas > SCHEMA_LIMITS.subschemas) over = { limit: "subschemas", pointer: at };
    else if (counts.patterns > SCHEMA_LIMITS.patterns) {
      const keyword = isPlainObject(subschema.patternProperties) ? "patternProperties" : "pattern";
      over = { limit: "patterns", pointer: `${at}/${keyword}` };
    }
  });
  if (over !== undefined) {
    const { limit } = over;
    const what = { properties: 'members of "properties"', subschemas: "subschemas", patterns: "patterns" }[limit];
    throw tooLarge(field, over.pointer, limit, counts[limit], `${counts[limit]} ${what} in all`);
  }
  const bytes = measure(schema as JsonValue);
  if (bytes > SCHEMA_LIMITS.bytes) throw tooLarge(field, pointer, "bytes", bytes, `${bytes} bytes of compact JSON`);
}

function tooLarge(field: string, pointer: string, limit: SchemaLimit, value: number, what: string): ProtocolError {
  const max = SCHEMA_LIMITS[limit];
  return new ProtocolError("schema_too_large", `${field} exceeds the ${limit} limit of ${max}: ${what}`, pointer, {
    field,
    limit,
    max,
    value,
  });
}

/** Records in `deepest` the deepest container under `value` (the first of equals) and its pointer. */
function findDeepest(
  value: unknown,
  pointer: string,
  depth: number,
  deepest: { depth: number; pointer: string },
): void {
  if (typeof value !== "object" || value === null) return;
  if (depth > deepest.depth) {
    deepest.depth = depth;
    deepest.pointer = pointer;
  }
  const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
  for (const [key, member] of entries) findDeepest(member, pointerAppend(pointer, key), depth + 1, deepest);
}
