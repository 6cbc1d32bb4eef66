/**
 * Compact JSON text exactly as the Python reference writes it (docs/projection.md):
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

/** Escapes of the ASCII characters that need one (`"`, `\\` and controls); empty for the rest. */
const ASCII_ESCAPES: readonly string[] = (() => {
  const table = new Array<string>(128).fill("");
  for (let c = 0; c < 0x20; c++) table[c] = `\\u00${c.toString(16).padStart(2, "0")}`;
  table[0x08] = "\\b";
  table[0x09] = "\\t";
  table[0x0a] = "\\n";
  table[0x0c] = "\\f";
  table[0x0d] = "\\r";
  table[0x22] = '\\"';
  table[0x5c] = "\\\\";
  return table;
})();

/** A JSON string literal for `s`, escaped as Python's `ensure_ascii=False` encoder does. */
export function quoteString(s: string, pointer = ""): string {
  if (!s.isWellFormed()) {
    throw new ProtocolError("lone_surrogate", "a string holds a lone surrogate", pointer);
  }
  return quoteWellFormed(s);
}

/** `quoteString` for a string already known to be well-formed: copies runs, escapes the rest. */
function quoteWellFormed(s: string): string {
  let out = '"';
  let chunk = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80 || (c >= 0x20 && c !== 0x22 && c !== 0x5c)) continue;
    out += s.slice(chunk, i) + (ASCII_ESCAPES[c] as string);
    chunk = i + 1;
  }
  return chunk === 0 ? `"${s}"` : `${out}${s.slice(chunk)}"`;
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
      return quoteWellFormed(value);
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
    const quotedKey = key.isWellFormed() ? quoteWellFormed(key) : quoteString(key, pointerOf(path));
    path.push(key);
    out += `${quotedKey}:${write(member, sortKeys, path)}`;
    path.pop();
  }
  return `${out}}`;
}
