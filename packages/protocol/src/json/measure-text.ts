/**
 * The byte measure straight from JSON text, without building a value: one pass that sums what the
 * compact writer would emit. It refuses exactly what `parseJson` refuses and agrees with
 * `measure(parseJson(text))` (a property test holds the two together).
 *
 * Duplicate keys are the one non-local case: Python keeps the last value in the first key's place,
 * so each object remembers its members' keys and sizes until it closes.
 */

import { quotedStringBytes } from "./measure.js";
import { formatFloat } from "./number.js";
import { describeAt, Reader } from "./parse.js";

/** The byte measure of a JSON text (SPEC §2), refusing what the Python reference refuses. */
export function measureText(text: string): number {
  const scanner = new MeasureScanner(text);
  scanner.skipWhitespace();
  const bytes = scanner.measureValue(0);
  scanner.skipWhitespace();
  if (scanner.pos < text.length) scanner.fail("invalid_json", "unexpected text after the JSON value");
  return bytes;
}

/** Objects with at most this many members look for duplicate keys pairwise; larger ones use a Set. */
const PAIRWISE_LIMIT = 12;

class MeasureScanner extends Reader {
  /** Keys of the members of every open object, innermost last (an arena shared by all depths). */
  readonly keys: string[] = [];
  /** Bytes of each member in `keys`: key, colon and value. */
  readonly memberBytes: number[] = [];

  measureValue(depth: number): number {
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 0x22:
        return this.measureString();
      case 0x7b:
        return this.measureObject(depth + 1);
      case 0x5b:
        return this.measureArray(depth + 1);
      case 0x74:
        this.readLiteral("true", true);
        return 4;
      case 0x66:
        this.readLiteral("false", false);
        return 5;
      case 0x6e:
        this.readLiteral("null", null);
        return 4;
      default: {
        if (c !== 0x2d && !(c >= 0x30 && c <= 0x39)) {
          this.fail("invalid_json", `expected a JSON value, found ${describeAt(this.text, this.pos)}`);
        }
        const start = this.pos;
        if (this.scanNumber()) {
          const length = this.pos - start;
          // `-0` is written `0`; every other integer keeps its digits.
          return length === 2 && this.text.charCodeAt(start) === 0x2d && this.text.charCodeAt(start + 1) === 0x30
            ? 1
            : length;
        }
        return formatFloat(Number(this.text.slice(start, this.pos))).length;
      }
    }
  }

  /** Output bytes of the string at `pos`, quotes included, without decoding it. */
  measureString(): number {
    const text = this.text;
    let pos = this.pos + 1;
    let bytes = 2;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c < 0x80) {
        if (c === 0x22) {
          this.pos = pos + 1;
          return bytes;
        }
        if (c === 0x5c) {
          // Escapes are rare: decode this string the slow way and measure what it holds.
          return quotedStringBytes(this.readString());
        }
        if (c < 0x20) {
          this.pos = pos;
          this.fail("invalid_json", `unescaped control character ${describeAt(text, pos)} in a string`);
        }
        bytes++;
        pos++;
      } else if (c < 0x800) {
        bytes += 2;
        pos++;
      } else if (c < 0xd800 || c > 0xdfff) {
        bytes += 3;
        pos++;
      } else {
        if (Number.isNaN(c)) {
          // charCodeAt past the end: every comparison above was false.
          this.pos = pos;
          this.fail("invalid_json", "unterminated string");
        }
        const next = text.charCodeAt(pos + 1);
        if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) {
          this.pos = pos;
          this.fail("lone_surrogate", `a string holds the lone surrogate U+${c.toString(16).toUpperCase()}`);
        }
        bytes += 4;
        pos += 2;
      }
    }
  }

  measureArray(depth: number): number {
    this.checkDepth(depth);
    this.pos++;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return 2;
    }
    const path = this.path;
    const top = path.length;
    path.push(0);
    let bytes = 1;
    let index = 0;
    for (;;) {
      path[top] = index++;
      bytes += this.measureValue(depth) + 1; // the value and its ',' or ']'
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x2c) {
        this.pos++;
        this.skipWhitespace();
      } else if (c === 0x5d) {
        this.pos++;
        path.pop();
        return bytes;
      } else {
        this.fail("invalid_json", `expected ',' or ']', found ${describeAt(this.text, this.pos)}`);
      }
    }
  }

  measureObject(depth: number): number {
    this.checkDepth(depth);
    this.pos++;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return 2;
    }
    const keys = this.keys;
    const memberBytes = this.memberBytes;
    const base = keys.length;
    let bytes = 1;
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== 0x22) {
        this.fail("invalid_json", `expected a key string, found ${describeAt(this.text, this.pos)}`);
      }
      const key = this.readString();
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== 0x3a) {
        this.fail("invalid_json", `expected ':', found ${describeAt(this.text, this.pos)}`);
      }
      this.pos++;
      this.skipWhitespace();
      this.path.push(key);
      const member = quotedStringBytes(key) + 1 + this.measureValue(depth);
      this.path.pop();
      keys.push(key);
      memberBytes.push(member);
      bytes += member + 1; // the member and its ',' or '}'
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x2c) {
        this.pos++;
        this.skipWhitespace();
      } else if (c === 0x7d) {
        this.pos++;
        if (keys.length - base > 1 && hasDuplicateKeys(keys, base))
          bytes = collapsedObjectBytes(keys, memberBytes, base);
        keys.length = base;
        memberBytes.length = base;
        return bytes;
      } else {
        this.fail("invalid_json", `expected ',' or '}', found ${describeAt(this.text, this.pos)}`);
      }
    }
  }
}

function hasDuplicateKeys(keys: string[], base: number): boolean {
  const end = keys.length;
  if (end - base <= PAIRWISE_LIMIT) {
    for (let i = base; i < end; i++) {
      const key = keys[i];
      for (let j = i + 1; j < end; j++) if (keys[j] === key) return true;
    }
    return false;
  }
  const seen = new Set<string>();
  for (let i = base; i < end; i++) {
    const key = keys[i] as string;
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

/** Bytes of an object whose duplicate keys collapse to one member each, holding the last value. */
function collapsedObjectBytes(keys: string[], memberBytes: number[], base: number): number {
  const last = new Map<string, number>();
  for (let i = base; i < keys.length; i++) last.set(keys[i] as string, memberBytes[i] as number);
  let bytes = 1 + last.size; // '{', then ',' between members and the closing '}'
  for (const member of last.values()) bytes += member;
  return bytes;
}
