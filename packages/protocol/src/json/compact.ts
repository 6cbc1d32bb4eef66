/**
 * Compact JSON text exactly as the Python reference writes it (SPEC §2):
 * `json.dumps(v, ensure_ascii=False, separators=(",", ":"), allow_nan=False)`, with
 * `sort_keys=True` when `sortKeys` is set. Non-ASCII is written as itself; only `"`, `\` and
 * characters below U+0020 are escaped (`\b \f \n \r \t` short, the rest as lowercase `\u00xx`).
 */

import { ProtocolError } from "../errors.js";
import { formatJsNumber } from "./number.js";
import { compareCodePoints } from "./order.js";
import { pointerAppend } from "./pointer.js";
import { JsonNumber, type JsonValue, objectEntries } from "./value.js";

/** Options of `compact()`. */
export interface CompactOptions {
  /** Sort object keys by code point (the canonical form used for digests and the reference measure). */
  sortKeys?: boolean;
}

/** The compact JSON text of `value`, in the sender's key order unless `sortKeys` is set. */
export function compact(value: JsonValue, options: CompactOptions = {}): string {
  return write(value, options.sortKeys === true, []);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: escaping control characters is the point.
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: escaping control characters is the point.
const ESCAPABLE = /["\\\u0000-\u001f]/g;
const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

/** A JSON string literal for `s`, escaped as Python's `ensure_ascii=False` encoder does. */
export function quoteString(s: string, pointer = ""): string {
  if (!s.isWellFormed()) {
    throw new ProtocolError("lone_surrogate", "a string holds a lone surrogate", pointer);
  }
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  return `"${s.replace(ESCAPABLE, escapeCharacter)}"`;
}

function escapeCharacter(c: string): string {
  return SHORT_ESCAPES[c] ?? `\\u00${c.charCodeAt(0).toString(16).padStart(2, "0")}`;
}

/** The JSON pointer of a path kept as a stack of tokens (built only when an error needs it). */
function pointerOf(path: readonly (string | number)[]): string {
  return path.reduce<string>((pointer, token) => pointerAppend(pointer, token), "");
}

function write(value: JsonValue, sortKeys: boolean, path: (string | number)[]): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "string":
      if (!value.isWellFormed()) return quoteString(value, pointerOf(path));
      return quoteString(value);
    case "number": {
      const text = formatJsNumber(value);
      if (text === undefined) {
        throw new ProtocolError("number_out_of_range", `the number ${value} is not finite`, pointerOf(path));
      }
      return text;
    }
  }
  if (value instanceof JsonNumber) return value.canonical;
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ",";
      path.push(i);
      out += write(value[i] as JsonValue, sortKeys, path);
      path.pop();
    }
    return `${out}]`;
  }
  let entries = objectEntries(value);
  if (sortKeys) entries = [...entries].sort((a, b) => compareCodePoints(a[0], b[0]));
  let out = "{";
  let first = true;
  for (const [key, member] of entries) {
    if (!first) out += ",";
    first = false;
    const quotedKey = key.isWellFormed() ? quoteString(key) : quoteString(key, pointerOf(path));
    path.push(key);
    out += `${quotedKey}:${write(member, sortKeys, path)}`;
    path.pop();
  }
  return `${out}}`;
}
