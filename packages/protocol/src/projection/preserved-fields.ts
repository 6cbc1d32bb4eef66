/**
 * Preserved fields: short status, identifier and paging fields copied whole out of a result that is
 * cut, so the model keeps them even when the preview loses them (docs/projection.md).
 *
 * Candidates are scalars at depth 1, then at depth 2 (`status`, then `data.next_cursor`), each in
 * document order, keyed by their dotted path; a candidate is added when the object still measures
 * within a quarter of the budget after adding it, and skipped otherwise (a later, shorter one may
 * still fit). A path already taken (a depth-1 key that itself contains a dot) is not overwritten.
 */

import { measure, quotedStringBytes } from "../json/measure.js";
import { utf8Length } from "../json/utf8.js";
import { isJsonObject, JsonNumber, type JsonObject, type JsonValue, objectEntries } from "../json/value.js";

/** Keys that name a status, an identifier or a paging position. */
export const PRESERVED_KEYS: ReadonlySet<string> = new Set([
  "status",
  "state",
  "ok",
  "success",
  "error",
  "code",
  "id",
  "next_cursor",
  "cursor",
  "next_page_token",
  "has_more",
  "total",
  "count",
]);

/** Key endings that name an identifier, a status or a cursor. */
export const PRESERVED_SUFFIXES: readonly string[] = ["_id", "_status", "_cursor"];

/** A preserved string value holds at most this many UTF-8 bytes. */
export const PRESERVED_STRING_MAX_BYTES = 128;

/** True when `key` is a status, identifier or paging key. */
export function isPreservedKey(key: string): boolean {
  return PRESERVED_KEYS.has(key) || PRESERVED_SUFFIXES.some((suffix) => key.endsWith(suffix));
}

/** True for a scalar short enough to preserve: a short string, a number, a boolean or null. */
export function isShortScalar(value: JsonValue): boolean {
  if (value === null || typeof value === "boolean" || typeof value === "number" || value instanceof JsonNumber) {
    return true;
  }
  return typeof value === "string" && utf8Length(value) <= PRESERVED_STRING_MAX_BYTES;
}

/** The preserved fields of `result` that fit in `limitBytes` of compact JSON. */
export function collectPreservedFields(result: JsonValue, limitBytes: number): JsonObject {
  const preserved: JsonObject = new Map();
  if (!isJsonObject(result)) return preserved;
  let bytes = 2; // "{}"
  const offer = (path: string, value: JsonValue): void => {
    if (preserved.has(path)) return;
    const added = quotedStringBytes(path) + 1 + measure(value) + (preserved.size > 0 ? 1 : 0);
    if (bytes + added > limitBytes) return;
    preserved.set(path, value);
    bytes += added;
  };
  const entries = [...objectEntries(result)];
  for (const [key, value] of entries) {
    if (isPreservedKey(key) && isShortScalar(value)) offer(key, value);
  }
  for (const [parent, child] of entries) {
    if (!isJsonObject(child)) continue;
    for (const [key, value] of objectEntries(child)) {
      if (isPreservedKey(key) && isShortScalar(value)) offer(`${parent}.${key}`, value);
    }
  }
  return preserved;
}
