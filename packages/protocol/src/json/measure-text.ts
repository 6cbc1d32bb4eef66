/**
 * The byte measure straight from JSON text, without building a value: one pass that sums what the
 * compact writer would emit. It accepts exactly what `parseJson` accepts and agrees with
 * `measure(parseJson(text))` (property tests hold the two together).
 *
 * Why a separate scanner: measuring is the hot path of every receipt and of `toolhost measure`, and
 * most of `parseJson`'s time goes to allocating what measuring never needs (key strings, Maps,
 * number objects, error paths). So this scanner keeps no path and allocates no key: on any refusal
 * it hands the text to `parseJson`, which throws the precise error with its JSON pointer.
 *
 * Duplicate keys are the one non-local case: Python keeps the last value in the first key's place,
 * so each object remembers where its keys are and what its members cost until it closes.
 */

import { ProtocolError } from "../errors.js";
import { MAX_INTEGER_DIGITS, MAX_JSON_DEPTH } from "./limits.js";
import { ASCII_BYTES } from "./measure.js";
import { floatTextLength } from "./number.js";
import { parseJson } from "./parse.js";

/** The byte measure of a JSON text (docs/projection.md), refusing what the Python reference refuses. */
export function measureText(text: string): number {
  const scanner = new MeasureScanner(text);
  try {
    scanner.skipWhitespace();
    const bytes = scanner.value(0);
    scanner.skipWhitespace();
    if (scanner.pos < text.length) throw REFUSED;
    return bytes;
  } catch (error) {
    if (error !== REFUSED) throw error;
    parseJson(text); // throws the precise refusal (code, message, pointer)
    throw new ProtocolError("invalid_json", "the text is not valid JSON", "");
  }
}

/** Thrown inside the scanner to leave it; never escapes `measureText`. */
const REFUSED = Symbol("refused");

/** Objects with at most this many members look for duplicate keys pairwise; larger ones use a Set. */
const PAIRWISE_LIMIT = 32;

// What each UTF-16 unit is inside a string: 1–3 the UTF-8 bytes of a unit written as itself, or one
// of the classes below. One table load per character instead of a chain of range tests: strings are
// most of what a tool result's text holds.
const QUOTE = 4;
const BACKSLASH = 5;
const CONTROL = 6;
const HIGH_SURROGATE = 7;
const LOW_SURROGATE = 8;

const UNIT_CLASS: Uint8Array = (() => {
  const table = new Uint8Array(0x10000).fill(3);
  table.fill(CONTROL, 0, 0x20);
  table.fill(1, 0x20, 0x80);
  table[0x22] = QUOTE;
  table[0x5c] = BACKSLASH;
  table.fill(2, 0x80, 0x800);
  table.fill(HIGH_SURROGATE, 0xd800, 0xdc00);
  table.fill(LOW_SURROGATE, 0xdc00, 0xe000);
  return table;
})();

class MeasureScanner {
  pos = 0;
  /** Set by `string()`: whether the string just scanned held an escape. */
  escaped = false;
  // A stack of the members of every open object, innermost last: key span, key hash (negative when
  // the key holds an escape), member bytes. Typed arrays, grown by doubling, popped by moving `top`.
  top = 0;
  keyStart = new Int32Array(64);
  keyEnd = new Int32Array(64);
  keyHash = new Int32Array(64);
  memberBytes = new Float64Array(64);

  constructor(readonly text: string) {}

  skipWhitespace(): void {
    const text = this.text;
    let pos = this.pos;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
      else break;
    }
    this.pos = pos;
  }

  value(depth: number): number {
    const text = this.text;
    const c = text.charCodeAt(this.pos);
    switch (c) {
      case 0x22:
        return this.string();
      case 0x7b:
        return this.object(depth + 1);
      case 0x5b:
        return this.array(depth + 1);
      case 0x74:
        if (!text.startsWith("true", this.pos)) throw REFUSED;
        this.pos += 4;
        return 4;
      case 0x66:
        if (!text.startsWith("false", this.pos)) throw REFUSED;
        this.pos += 5;
        return 5;
      case 0x6e:
        if (!text.startsWith("null", this.pos)) throw REFUSED;
        this.pos += 4;
        return 4;
      default:
        return this.number();
    }
  }

  /** Output bytes of the string at `pos` (quotes included), decoding escapes in place. */
  string(): number {
    const text = this.text;
    let pos = this.pos + 1;
    let bytes = 2;
    let escaped = false;
    for (;;) {
      const c = text.charCodeAt(pos);
      const unit = UNIT_CLASS[c] as number; // undefined past the end of the text (c is NaN)
      if (unit <= 3) {
        // Written as itself: its UTF-8 bytes.
        bytes += unit;
        pos++;
        continue;
      }
      if (unit === QUOTE) {
        this.pos = pos + 1;
        this.escaped = escaped;
        return bytes;
      }
      if (unit === BACKSLASH) {
        escaped = true;
        const e = text.charCodeAt(pos + 1);
        if (e === 0x75) {
          const decoded = hex4(text, pos + 2);
          if (decoded < 0) throw REFUSED;
          if (decoded < 0xd800 || decoded > 0xdfff) {
            bytes += decoded < 0x80 ? (ASCII_BYTES[decoded] as number) : decoded < 0x800 ? 2 : 3;
            pos += 6;
          } else if (decoded <= 0xdbff && text.charCodeAt(pos + 6) === 0x5c && text.charCodeAt(pos + 7) === 0x75) {
            const low = hex4(text, pos + 8);
            if (low < 0xdc00 || low > 0xdfff) throw REFUSED;
            bytes += 4;
            pos += 12;
          } else {
            throw REFUSED; // a lone surrogate
          }
        } else {
          // \" \\ \b \f \n \r \t cost 2, \/ is written as /, anything else is not an escape.
          if (e === 0x22 || e === 0x5c || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
            bytes += 2;
          } else if (e === 0x2f) bytes += 1;
          else throw REFUSED;
          pos += 2;
        }
        continue;
      }
      if (unit === HIGH_SURROGATE) {
        const next = text.charCodeAt(pos + 1);
        if (!(next >= 0xdc00 && next <= 0xdfff)) throw REFUSED;
        bytes += 4;
        pos += 2;
        continue;
      }
      // A control character, a lone low surrogate, or the end of the text.
      throw REFUSED;
    }
  }

  number(): number {
    const text = this.text;
    const start = this.pos;
    let pos = start;
    if (text.charCodeAt(pos) === 0x2d) pos++;
    const first = text.charCodeAt(pos);
    if (first === 0x30) pos++;
    else if (first >= 0x31 && first <= 0x39) {
      do pos++;
      while (isDigit(text.charCodeAt(pos)));
    } else throw REFUSED;
    const integerEnd = pos;
    let isInteger = true;
    if (text.charCodeAt(pos) === 0x2e) {
      isInteger = false;
      pos++;
      if (!isDigit(text.charCodeAt(pos))) throw REFUSED;
      do pos++;
      while (isDigit(text.charCodeAt(pos)));
    }
    const e = text.charCodeAt(pos);
    if (e === 0x65 || e === 0x45) {
      isInteger = false;
      pos++;
      const sign = text.charCodeAt(pos);
      if (sign === 0x2b || sign === 0x2d) pos++;
      if (!isDigit(text.charCodeAt(pos))) throw REFUSED;
      do pos++;
      while (isDigit(text.charCodeAt(pos)));
    }
    this.pos = pos;
    if (isInteger) {
      const negative = text.charCodeAt(start) === 0x2d;
      const digits = integerEnd - start - (negative ? 1 : 0);
      if (digits > MAX_INTEGER_DIGITS) throw REFUSED;
      return negative && digits === 1 && first === 0x30 ? 1 : pos - start; // -0 is written 0
    }
    const length = floatTextLength(text, start, pos);
    if (length < 0) throw REFUSED; // outside the double range
    return length;
  }

  array(depth: number): number {
    if (depth > MAX_JSON_DEPTH) throw REFUSED;
    const text = this.text;
    this.pos++;
    this.skipWhitespace();
    if (text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return 2;
    }
    let bytes = 1;
    for (;;) {
      bytes += this.value(depth) + 1; // the value and its ',' or ']'
      this.skipWhitespace();
      const c = text.charCodeAt(this.pos);
      this.pos++;
      if (c === 0x5d) return bytes;
      if (c !== 0x2c) throw REFUSED;
      this.skipWhitespace();
    }
  }

  object(depth: number): number {
    if (depth > MAX_JSON_DEPTH) throw REFUSED;
    const text = this.text;
    this.pos++;
    this.skipWhitespace();
    if (text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return 2;
    }
    const base = this.top;
    let bytes = 1;
    for (;;) {
      if (text.charCodeAt(this.pos) !== 0x22) throw REFUSED;
      const start = this.pos + 1;
      const keyBytes = this.string();
      const end = this.pos - 1;
      // A cheap hash (length, first, middle and last unit): equal keys have equal hashes.
      let hash = (end - start) * 0x9e37 + text.charCodeAt(start) * 0x3f1 + text.charCodeAt((start + end) >> 1) * 31;
      hash = (hash + text.charCodeAt(end - 1)) & 0x3fffffff;
      if (this.escaped) hash = -1 - hash;
      this.skipWhitespace();
      if (text.charCodeAt(this.pos) !== 0x3a) throw REFUSED;
      this.pos++;
      this.skipWhitespace();
      const member = keyBytes + 1 + this.value(depth);
      const slot = this.top++;
      if (slot === this.keyStart.length) this.grow();
      this.keyStart[slot] = start;
      this.keyEnd[slot] = end;
      this.keyHash[slot] = hash;
      this.memberBytes[slot] = member;
      bytes += member + 1; // the member and its ',' or '}'
      this.skipWhitespace();
      const c = text.charCodeAt(this.pos);
      this.pos++;
      if (c === 0x7d) break;
      if (c !== 0x2c) throw REFUSED;
      this.skipWhitespace();
    }
    if (this.top - base > 1 && this.hasDuplicateKeys(base)) bytes = this.collapsedBytes(base);
    this.top = base;
    return bytes;
  }

  /** Doubles the member stack. */
  grow(): void {
    const size = this.keyStart.length * 2;
    const keyStart = new Int32Array(size);
    keyStart.set(this.keyStart);
    this.keyStart = keyStart;
    const keyEnd = new Int32Array(size);
    keyEnd.set(this.keyEnd);
    this.keyEnd = keyEnd;
    const keyHash = new Int32Array(size);
    keyHash.set(this.keyHash);
    this.keyHash = keyHash;
    const memberBytes = new Float64Array(size);
    memberBytes.set(this.memberBytes);
    this.memberBytes = memberBytes;
  }

  /** Whether two members of the object starting at arena index `base` have the same key. */
  hasDuplicateKeys(base: number): boolean {
    const end = this.top;
    if (end - base > PAIRWISE_LIMIT) {
      const seen = new Set<string>();
      for (let i = base; i < end; i++) {
        const key = this.key(i);
        if (seen.has(key)) return true;
        seen.add(key);
      }
      return false;
    }
    const hashes = this.keyHash;
    for (let i = base; i < end; i++) {
      const hash = hashes[i] as number;
      for (let j = i + 1; j < end; j++) {
        const other = hashes[j] as number;
        // Escaped keys (negative hashes) may equal any key: compare them decoded.
        if ((other === hash || hash < 0 || other < 0) && this.sameKey(i, j)) return true;
      }
    }
    return false;
  }

  /** Whether arena keys `i` and `j` decode to the same string. */
  sameKey(i: number, j: number): boolean {
    const { text, keyStart, keyEnd } = this;
    const a = keyStart[i] as number;
    const b = keyStart[j] as number;
    const length = (keyEnd[i] as number) - a;
    if ((this.keyHash[i] as number) < 0 || (this.keyHash[j] as number) < 0) return this.key(i) === this.key(j);
    if ((keyEnd[j] as number) - b !== length) return false;
    for (let k = 0; k < length; k++) if (text.charCodeAt(a + k) !== text.charCodeAt(b + k)) return false;
    return true;
  }

  /** The decoded key at arena index `i`. */
  key(i: number): string {
    const start = this.keyStart[i] as number;
    const end = this.keyEnd[i] as number;
    if ((this.keyHash[i] as number) >= 0) return this.text.slice(start, end);
    return parseJson(this.text.slice(start - 1, end + 1)) as string;
  }

  /** Bytes of the object once duplicate keys collapse to one member holding the last value. */
  collapsedBytes(base: number): number {
    const last = new Map<string, number>();
    for (let i = base; i < this.top; i++) last.set(this.key(i), this.memberBytes[i] as number);
    let bytes = 1 + last.size; // '{', the commas between members and the closing '}'
    for (const member of last.values()) bytes += member;
    return bytes;
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** The value of four hex digits at `at`, or -1. */
function hex4(text: string, at: number): number {
  let unit = 0;
  for (let i = 0; i < 4; i++) {
    const c = text.charCodeAt(at + i);
    let digit: number;
    if (c >= 0x30 && c <= 0x39) digit = c - 0x30;
    else if (c >= 0x61 && c <= 0x66) digit = c - 0x57;
    else if (c >= 0x41 && c <= 0x46) digit = c - 0x37;
    else return -1;
    unit = unit * 16 + digit;
  }
  return unit;
}
