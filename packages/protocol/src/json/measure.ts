/**
 * The byte measure (docs/projection.md): the UTF-8 length of the compact JSON text, equal to
 * `len(json.dumps(v, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False).encode("utf-8"))`.
 * Key order never changes the count, so neither function sorts.
 */

import { ProtocolError } from "../errors.js";
import { formatJsNumber } from "./number.js";
import { JsonNumber, type JsonValue, objectEntries } from "./value.js";

/** UTF-8 bytes of a string literal as the compact writer quotes it, quotes included. */
export function quotedStringBytes(s: string): number {
  let bytes = 2;
  const length = s.length;
  for (let i = 0; i < length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += ASCII_BYTES[c] as number;
    else if (c < 0x800) bytes += 2;
    else if (c < 0xd800 || c > 0xdfff) bytes += 3;
    else {
      const next = s.charCodeAt(i + 1);
      if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) {
        throw new ProtocolError("lone_surrogate", "a string holds a lone surrogate", "");
      }
      bytes += 4;
      i++;
    }
  }
  return bytes;
}

/** Output bytes of each ASCII character inside a string literal (escapes included). */
export const ASCII_BYTES: Uint8Array = (() => {
  const table = new Uint8Array(128).fill(1);
  for (let c = 0; c < 0x20; c++) table[c] = 6; // \u00xx
  for (const c of [0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x22, 0x5c]) table[c] = 2; // \b \t \n \f \r \" \\
  return table;
})();

/** The byte measure of a JSON value (lossless or plain). */
export function measure(value: JsonValue): number {
  if (value === null) return 4;
  switch (typeof value) {
    case "boolean":
      return value ? 4 : 5;
    case "string":
      return quotedStringBytes(value);
    case "number": {
      const text = formatJsNumber(value);
      if (text === undefined) throw new ProtocolError("number_out_of_range", `the number ${value} is not finite`);
      return text.length;
    }
  }
  if (value instanceof JsonNumber) return value.canonical.length;
  if (Array.isArray(value)) {
    let bytes = value.length === 0 ? 2 : value.length + 1; // brackets and commas
    for (const item of value) bytes += measure(item);
    return bytes;
  }
  let bytes = 2;
  let members = 0;
  for (const [key, member] of objectEntries(value)) {
    bytes += quotedStringBytes(key) + 1 + measure(member);
    members++;
  }
  return members === 0 ? bytes : bytes + members - 1;
}
