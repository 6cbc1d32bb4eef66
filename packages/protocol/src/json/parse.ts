/**
 * The lossless JSON reader for tool results and receipts.
 *
 * It accepts exactly the JSON texts that the Python reference (`json.loads`, then `json.dumps` with
 * `allow_nan=False`, then UTF-8 encoding) accepts, and keeps what `JSON.parse` would lose: each
 * number's lexeme and the sender's key order (see `value.ts`).
 */

import { ProtocolError } from "../errors.js";
import { MAX_INTEGER_DIGITS, MAX_JSON_DEPTH } from "./limits.js";
import { pointerAppend } from "./pointer.js";
import { JsonNumber, type JsonObject, type JsonValue } from "./value.js";

/** Reads a JSON text losslessly; throws a ProtocolError with a stable code and a JSON pointer. */
export function parseJson(text: string): JsonValue {
  const reader = new Reader(text);
  reader.skipWhitespace();
  const value = reader.readValue(0);
  reader.skipWhitespace();
  if (reader.pos < text.length) reader.fail("invalid_json", "unexpected text after the JSON value");
  return value;
}

/** Describes the character at `pos` for error messages (`'x'`, or `end of input`). */
export function describeAt(text: string, pos: number): string {
  if (pos >= text.length) return "end of input";
  const c = text.codePointAt(pos) ?? 0;
  if (c < 0x20 || c === 0x7f) return `U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
  return `'${String.fromCodePoint(c)}'`;
}

/** Codes the reader refuses input with. */
export type ReaderErrorCode =
  | "invalid_json"
  | "lone_surrogate"
  | "number_out_of_range"
  | "integer_too_long"
  | "nesting_too_deep";

/** The shared lexer of the reader and of the streaming measure; `path` makes error pointers lazily. */
export class Reader {
  /** Offset of the next character to read. */
  pos = 0;
  /** Keys and indexes from the root to the value being read. */
  readonly path: (string | number)[] = [];

  constructor(readonly text: string) {}

  /** Throws the ProtocolError for `code` at the current path and offset. */
  fail(code: ReaderErrorCode, message: string): never {
    const where = code === "invalid_json" ? ` at offset ${this.pos}` : "";
    const pointer = this.path.reduce<string>((p, token) => pointerAppend(p, token), "");
    throw new ProtocolError(code, `${message}${where}`, pointer, { offset: this.pos });
  }

  /** Refuses a container that would nest deeper than MAX_JSON_DEPTH. */
  checkDepth(depth: number): void {
    if (depth > MAX_JSON_DEPTH) {
      this.fail("nesting_too_deep", `arrays and objects nest deeper than ${MAX_JSON_DEPTH} levels`);
    }
  }

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

  readValue(depth: number): JsonValue {
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 0x7b: // {
        return this.readObject(depth + 1);
      case 0x5b: // [
        return this.readArray(depth + 1);
      case 0x22: // "
        return this.readString();
      case 0x74: // t
        return this.readLiteral("true", true);
      case 0x66: // f
        return this.readLiteral("false", false);
      case 0x6e: // n
        return this.readLiteral("null", null);
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.readNumber();
        return this.fail("invalid_json", `expected a JSON value, found ${describeAt(this.text, this.pos)}`);
    }
  }

  readLiteral<T extends boolean | null>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) {
      this.fail("invalid_json", `expected a JSON value, found ${describeAt(this.text, this.pos)}`);
    }
    this.pos += word.length;
    return value;
  }

  readObject(depth: number): JsonObject {
    this.checkDepth(depth);
    const object: JsonObject = new Map();
    this.pos++; // {
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return object;
    }
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
      object.set(key, this.readValue(depth));
      this.path.pop();
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x2c) {
        this.pos++;
        this.skipWhitespace();
      } else if (c === 0x7d) {
        this.pos++;
        return object;
      } else {
        this.fail("invalid_json", `expected ',' or '}', found ${describeAt(this.text, this.pos)}`);
      }
    }
  }

  readArray(depth: number): JsonValue[] {
    this.checkDepth(depth);
    const array: JsonValue[] = [];
    this.pos++; // [
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return array;
    }
    const path = this.path;
    const top = path.length;
    path.push(0);
    for (;;) {
      path[top] = array.length;
      array.push(this.readValue(depth));
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x2c) {
        this.pos++;
        this.skipWhitespace();
      } else if (c === 0x5d) {
        this.pos++;
        path.pop();
        return array;
      } else {
        this.fail("invalid_json", `expected ',' or ']', found ${describeAt(this.text, this.pos)}`);
      }
    }
  }

  readString(): string {
    const text = this.text;
    const start = ++this.pos;
    let pos = start;
    // Fast path: no escapes, no surrogates.
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        this.pos = pos + 1;
        return text.slice(start, pos);
      }
      if (c === 0x5c || c < 0x20 || (c >= 0xd800 && c <= 0xdfff) || Number.isNaN(c)) break;
      pos++;
    }
    let out = text.slice(start, pos);
    let chunk = pos;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        this.pos = pos + 1;
        return out + text.slice(chunk, pos);
      }
      if (Number.isNaN(c)) {
        this.pos = pos;
        this.fail("invalid_json", "unterminated string");
      }
      if (c < 0x20) {
        this.pos = pos;
        this.fail("invalid_json", `unescaped control character ${describeAt(text, pos)} in a string`);
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        const next = text.charCodeAt(pos + 1);
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          pos += 2;
          continue;
        }
        this.pos = pos;
        this.fail("lone_surrogate", `a string holds the lone surrogate U+${c.toString(16).toUpperCase()}`);
      }
      if (c !== 0x5c) {
        pos++;
        continue;
      }
      out += text.slice(chunk, pos);
      const e = text.charCodeAt(pos + 1);
      switch (e) {
        case 0x22:
          out += '"';
          break;
        case 0x5c:
          out += "\\";
          break;
        case 0x2f:
          out += "/";
          break;
        case 0x62:
          out += "\b";
          break;
        case 0x66:
          out += "\f";
          break;
        case 0x6e:
          out += "\n";
          break;
        case 0x72:
          out += "\r";
          break;
        case 0x74:
          out += "\t";
          break;
        case 0x75: {
          const unit = this.readHex4(pos + 2);
          if (unit >= 0xd800 && unit <= 0xdbff) {
            // A high surrogate pairs only with an escaped low surrogate right after it (as in Python).
            if (text.charCodeAt(pos + 6) === 0x5c && text.charCodeAt(pos + 7) === 0x75) {
              const low = this.readHex4(pos + 8);
              if (low >= 0xdc00 && low <= 0xdfff) {
                out += String.fromCharCode(unit, low);
                pos += 12;
                chunk = pos;
                continue;
              }
            }
            this.pos = pos;
            this.fail("lone_surrogate", `a string holds the lone surrogate \\u${text.slice(pos + 2, pos + 6)}`);
          }
          if (unit >= 0xdc00 && unit <= 0xdfff) {
            this.pos = pos;
            this.fail("lone_surrogate", `a string holds the lone surrogate \\u${text.slice(pos + 2, pos + 6)}`);
          }
          out += String.fromCharCode(unit);
          pos += 6;
          chunk = pos;
          continue;
        }
        default:
          this.pos = pos;
          this.fail("invalid_json", `invalid escape ${describeAt(text, pos + 1)} in a string`);
      }
      pos += 2;
      chunk = pos;
    }
  }

  readHex4(at: number): number {
    let unit = 0;
    for (let i = 0; i < 4; i++) {
      const c = this.text.charCodeAt(at + i);
      let digit: number;
      if (c >= 0x30 && c <= 0x39) digit = c - 0x30;
      else if (c >= 0x61 && c <= 0x66) digit = c - 0x57;
      else if (c >= 0x41 && c <= 0x46) digit = c - 0x37;
      else {
        this.pos = at + i;
        return this.fail("invalid_json", "invalid \\u escape in a string");
      }
      unit = unit * 16 + digit;
    }
    return unit;
  }

  readNumber(): JsonNumber {
    const start = this.pos;
    const isInteger = this.scanNumber();
    return new JsonNumber(this.text.slice(start, this.pos), isInteger);
  }

  /**
   * Reads past one number, refusing what Python refuses; answers whether it is an integer.
   * Integers are checked against Python's digit limit, other numbers against the double range.
   */
  scanNumber(): boolean {
    const text = this.text;
    const start = this.pos;
    let pos = start;
    let isInteger = true;
    if (text.charCodeAt(pos) === 0x2d) pos++;
    const first = text.charCodeAt(pos);
    if (first === 0x30) {
      pos++;
    } else if (first >= 0x31 && first <= 0x39) {
      do pos++;
      while (isDigit(text.charCodeAt(pos)));
    } else {
      this.pos = pos;
      this.fail("invalid_json", `expected a digit, found ${describeAt(text, pos)}`);
    }
    const digitsEnd = pos;
    if (text.charCodeAt(pos) === 0x2e) {
      isInteger = false;
      pos++;
      if (!isDigit(text.charCodeAt(pos))) {
        this.pos = pos;
        this.fail("invalid_json", `expected a digit after '.', found ${describeAt(text, pos)}`);
      }
      do pos++;
      while (isDigit(text.charCodeAt(pos)));
    }
    const e = text.charCodeAt(pos);
    if (e === 0x65 || e === 0x45) {
      isInteger = false;
      pos++;
      const sign = text.charCodeAt(pos);
      if (sign === 0x2b || sign === 0x2d) pos++;
      if (!isDigit(text.charCodeAt(pos))) {
        this.pos = pos;
        this.fail("invalid_json", `expected an exponent digit, found ${describeAt(text, pos)}`);
      }
      do pos++;
      while (isDigit(text.charCodeAt(pos)));
    }
    if (isInteger) {
      const digits = digitsEnd - start - (text.charCodeAt(start) === 0x2d ? 1 : 0);
      if (digits > MAX_INTEGER_DIGITS) {
        this.fail("integer_too_long", `an integer has ${digits} digits; at most ${MAX_INTEGER_DIGITS} are accepted`);
      }
    } else if (!Number.isFinite(Number(text.slice(start, pos)))) {
      this.fail(
        "number_out_of_range",
        `the number ${abbreviate(text.slice(start, pos))} is outside the range of a double`,
      );
    }
    this.pos = pos;
    return isInteger;
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Shortens a long lexeme for an error message. */
export function abbreviate(lexeme: string): string {
  return lexeme.length <= 40 ? lexeme : `${lexeme.slice(0, 20)}…${lexeme.slice(-10)}`;
}
