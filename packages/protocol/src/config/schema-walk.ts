/**
 * A walk over every subschema of a JSON Schema (draft 2020-12), for the checks Ajv does not make:
 * size limits, patterns on the linear-time engine, and the work meter's cost marks.
 *
 * A value is a subschema when a keyword says so (`items`, `anyOf`'s members, `properties`' values,
 * …). Values of unknown keywords are walked as subschemas too: Ajv ignores them, but a `$ref` may
 * point into them, and then Ajv compiles them as schemas. Only the keywords whose values are data
 * (`enum`, `const`, `required`, …) are never walked.
 */

import { pointerAppend } from "../json/pointer.js";
import { isPlainObject, type PlainObject } from "./plain-json.js";

/** Keywords whose value is an object mapping names (or patterns) to subschemas. */
export const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "dependencies",
  "$defs",
  "definitions",
]);

/** Keywords whose value is data, never a subschema (an object there is a value to compare, not a schema). */
export const DATA_KEYWORDS: ReadonlySet<string> = new Set([
  "enum",
  "const",
  "default",
  "examples",
  "required",
  "dependentRequired",
  "$vocabulary",
]);

/** Called once per subschema object, with its JSON pointer (booleans schemas hold nothing to visit). */
export type SubschemaVisitor = (schema: PlainObject, pointer: string) => void;

/** Visits `schema` and every subschema object in it, parents before children, in key order. */
export function forEachSubschema(schema: PlainObject, pointer: string, visit: SubschemaVisitor): void {
  visit(schema, pointer);
  for (const [keyword, value] of Object.entries(schema)) {
    if (DATA_KEYWORDS.has(keyword)) continue;
    const at = pointerAppend(pointer, keyword);
    if (SCHEMA_MAP_KEYWORDS.has(keyword) && isPlainObject(value)) {
      for (const [name, member] of Object.entries(value)) {
        // `dependencies` maps to a schema or to a list of property names (data).
        if (isPlainObject(member)) forEachSubschema(member, pointerAppend(at, name), visit);
      }
    } else {
      walkValue(value, at, visit);
    }
  }
}

function walkValue(value: unknown, pointer: string, visit: SubschemaVisitor): void {
  if (isPlainObject(value)) {
    forEachSubschema(value, pointer, visit);
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => {
      walkValue(item, pointerAppend(pointer, index), visit);
    });
  }
}
