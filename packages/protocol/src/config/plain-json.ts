/**
 * Plain copies of configuration JSON, so validation sees one representation.
 *
 * Configuration arrives either from `JSON.parse` (plain objects and numbers) or from the lossless
 * reader (`Map` objects and `JsonNumber`s). Ajv and the stored definition need plain values, and a copy
 * means a caller that later mutates its input cannot change a validated definition.
 */

import { ProtocolError } from "../errors.js";
import { MAX_JSON_DEPTH } from "../json/limits.js";
import { pointerAppend } from "../json/pointer.js";
import { JsonNumber, type JsonObject, objectEntries, type PlainJsonObject } from "../json/value.js";

/** A JSON object copied out of either representation (an own `__proto__` key stays a plain key). */
export type PlainObject = { [key: string]: unknown };

/** True for a JSON object as `JSON.parse` makes it: a non-null, non-array object of plain prototype. */
export function isPlainObject(value: unknown): value is PlainObject {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Deep-copies a JSON value into plain objects, arrays and numbers; refuses what JSON cannot hold. */
export function toPlainJson(value: unknown, pointer = "", depth = 0): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      // JSON.parse reads a lexeme beyond the double range (1e400) as Infinity: say so.
      if (value === Number.POSITIVE_INFINITY || value === Number.NEGATIVE_INFINITY) {
        throw new ProtocolError("number_out_of_range", "the number is outside the range of a double", pointer);
      }
      if (Number.isNaN(value)) throw notJson(value, pointer);
      return value;
    case "object":
      break;
    default:
      throw notJson(value, pointer);
  }
  if (value === null) return null;
  if (value instanceof JsonNumber) {
    const number = Number(value.lexeme);
    if (!Number.isFinite(number)) {
      throw new ProtocolError("number_out_of_range", `${value.lexeme} is outside the range of a double`, pointer);
    }
    return number;
  }
  if (depth >= MAX_JSON_DEPTH) {
    // Checked before descending so a cyclic object from code ends here instead of overflowing the stack.
    throw new ProtocolError(
      "nesting_too_deep",
      `arrays and objects nest deeper than ${MAX_JSON_DEPTH} levels`,
      pointer,
    );
  }
  if (Array.isArray(value)) {
    return value.map((item, index) => toPlainJson(item, pointerAppend(pointer, index), depth + 1));
  }
  if (!(value instanceof Map) && !isPlainObject(value)) throw notJson(value, pointer);
  const copy: PlainObject = {};
  // Members holding `undefined` are skipped, as JSON.stringify skips them.
  for (const [key, member] of objectEntries(value as JsonObject | PlainJsonObject)) {
    const plain = toPlainJson(member, pointerAppend(pointer, key), depth + 1);
    // Assigning `__proto__` would replace the prototype; JSON.parse makes it an own key, so do we.
    if (key === "__proto__")
      Object.defineProperty(copy, key, { value: plain, enumerable: true, writable: true, configurable: true });
    else copy[key] = plain;
  }
  return copy;
}

function notJson(value: unknown, pointer: string): ProtocolError {
  const kind = value === undefined ? "undefined" : typeof value === "object" ? "a non-JSON object" : typeof value;
  return new ProtocolError("validation_failed", `expected a JSON value, got ${kind}`, pointer);
}
