/**
 * Glossary of the lossless JSON model.
 *
 * - **lexeme**: a number exactly as the sender wrote it (`1.50`, `12345678901234567890`).
 * - **canonical number text**: what Python's `json.dumps` writes for that number — the integer's
 *   digits (`-0` → `0`), or `repr(float)` for a number with a fraction or exponent.
 * - **JsonObject**: a `Map`, so the sender's key order is kept and a duplicate key keeps the position
 *   of its first occurrence with the value of its last, exactly as a Python `dict` built by
 *   `json.loads` does.
 * - **JsonValue**: what the reader returns and the writer accepts. Plain JS numbers and plain objects
 *   are accepted by the writer too, for envelopes the server builds itself.
 */

import { formatFloat } from "./number.js";

/** A JSON number kept as its lexeme, so big integers and the sender's digits survive. */
export class JsonNumber {
  #canonical: string | undefined;

  constructor(
    /** The number exactly as written in the source text. */
    readonly lexeme: string,
    /** True when the lexeme has no fraction and no exponent (Python reads it as `int`). */
    readonly isInteger: boolean,
  ) {}

  /** The number as Python's `json.dumps` writes it (integers verbatim, floats as `repr`). */
  get canonical(): string {
    if (this.#canonical === undefined) {
      this.#canonical = this.isInteger ? (this.lexeme === "-0" ? "0" : this.lexeme) : formatFloat(Number(this.lexeme));
    }
    return this.#canonical;
  }

  /** The nearest double (may lose digits of big integers). */
  valueOf(): number {
    return Number(this.lexeme);
  }

  /** The canonical text, so template strings and `String()` print it. */
  toString(): string {
    return this.canonical;
  }

  /** JSON.stringify writes the nearest double; use `compact()` for the exact text. */
  toJSON(): number {
    return Number(this.lexeme);
  }
}

/** A JSON object read losslessly: insertion order, last duplicate wins in the first's place. */
export type JsonObject = Map<string, JsonValue>;

/** A plain object the writer accepts (keys in property order; avoid integer-like keys). */
export interface PlainJsonObject {
  [key: string]: JsonValue | undefined;
}

/** Any JSON value the reader returns or the writer accepts. */
export type JsonValue = null | boolean | number | string | JsonNumber | JsonValue[] | JsonObject | PlainJsonObject;

/** True for a JSON object in either representation (Map or plain object). */
export function isJsonObject(value: unknown): value is JsonObject | PlainJsonObject {
  return (
    value instanceof Map ||
    (typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof JsonNumber))
  );
}

/** The entries of a JSON object in order, whichever representation it has. */
export function objectEntries(value: JsonObject | PlainJsonObject): Iterable<[string, JsonValue]> {
  if (value instanceof Map) return value.entries();
  const entries: [string, JsonValue][] = [];
  for (const key of Object.keys(value)) {
    const member = value[key];
    if (member !== undefined) entries.push([key, member]);
  }
  return entries;
}

/** Reads one member of a JSON object in either representation. */
export function objectGet(value: JsonObject | PlainJsonObject, key: string): JsonValue | undefined {
  return value instanceof Map ? value.get(key) : Object.hasOwn(value, key) ? value[key] : undefined;
}
