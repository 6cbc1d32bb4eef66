/**
 * The dry-run body's `arguments` and each of its `mock_receipts`, read losslessly from the exact text
 * of the request (pure). Fastify's `JSON.parse` value is enough to route and validate the envelope,
 * but a mock result must be read the way a real receipt is — big integers, float spellings and key
 * order kept — so its projection is byte-identical to what a run's history would store. The whole body
 * is read in one pass; only when the lossless reader refuses something in it (a lone surrogate,
 * `1e400`) is each part found in the text and read on its own, so the refusal is reported on that part
 * and the others are still checked.
 */

import {
  isJsonObject,
  isProtocolError,
  type JsonValue,
  objectGet,
  type ProtocolError,
  parseJson,
} from "@toolhost/protocol";

/**
 * One part of the body read losslessly, or why the lossless reader refused it (pointer relative to the
 * part) together with the part as `JSON.parse` reads it, so a refused receipt can still be named.
 */
export type LosslessPart =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly error: ProtocolError; readonly plain: unknown };

/** What the dry-run checks, read from the body's text. */
export interface DryRunInput {
  /** The `arguments` member; undefined when the body has none. */
  readonly arguments: LosslessPart | undefined;
  /** Each element of `mock_receipts`, in order (empty when the body has none). */
  readonly mockReceipts: readonly LosslessPart[];
}

/** Reads `arguments` and `mock_receipts` out of a body text that is well-formed JSON (JSON.parse accepted it). */
export function dryRunInput(bodyText: string): DryRunInput {
  // Almost always the whole body reads losslessly: one pass, no scanning.
  const whole = readWhole(bodyText);
  if (whole !== undefined) return whole;
  const scanner = new SpanScanner(bodyText);
  const members = scanner.objectMembers();
  const args = members.get("arguments");
  const receipts = members.get("mock_receipts");
  return {
    arguments: args === undefined ? undefined : readLossless(bodyText.slice(args.start, args.end)),
    mockReceipts:
      receipts === undefined
        ? []
        : new SpanScanner(bodyText, receipts.start)
            .arrayElements()
            .map((span) => readLossless(bodyText.slice(span.start, span.end))),
  };
}

/** The parts of a body the lossless reader accepts whole; undefined when it refuses something in it. */
function readWhole(bodyText: string): DryRunInput | undefined {
  let body: JsonValue;
  try {
    body = parseJson(bodyText);
  } catch (error) {
    if (!isProtocolError(error)) throw error;
    return undefined;
  }
  if (!isJsonObject(body)) return undefined;
  const args = objectGet(body, "arguments");
  const receipts = objectGet(body, "mock_receipts");
  return {
    arguments: args === undefined ? undefined : { ok: true, value: args },
    mockReceipts: Array.isArray(receipts) ? receipts.map((value) => ({ ok: true, value })) : [],
  };
}

/** Reads one JSON text (that JSON.parse accepts) losslessly; a refusal is answered, not thrown. */
export function readLossless(text: string): LosslessPart {
  try {
    return { ok: true, value: parseJson(text) };
  } catch (error) {
    if (!isProtocolError(error)) throw error;
    return { ok: false, error, plain: JSON.parse(text) };
  }
}

/** Where a value lies in the text: `[start, end)`. */
interface Span {
  start: number;
  end: number;
}

/**
 * Finds value boundaries in well-formed JSON text without building values: strings are skipped by
 * jumping to the next unescaped quote, containers by counting brackets outside strings.
 */
class SpanScanner {
  constructor(
    private readonly text: string,
    private pos = 0,
  ) {}

  /** The members of the object starting here (after whitespace), by key; a repeated key keeps its last value. */
  objectMembers(): Map<string, Span> {
    const members = new Map<string, Span>();
    this.skipWhitespace();
    this.expect(0x7b); // {
    this.skipWhitespace();
    if (this.peek() === 0x7d) return members;
    for (;;) {
      const keyStart = this.pos;
      this.skipString();
      const key = JSON.parse(this.text.slice(keyStart, this.pos)) as string;
      this.skipWhitespace();
      this.expect(0x3a); // :
      this.skipWhitespace();
      members.set(key, this.skipValue());
      this.skipWhitespace();
      if (this.peek() === 0x7d) return members;
      this.expect(0x2c); // ,
      this.skipWhitespace();
    }
  }

  /** The elements of the array starting here (after whitespace), in order. */
  arrayElements(): Span[] {
    const elements: Span[] = [];
    this.skipWhitespace();
    this.expect(0x5b); // [
    this.skipWhitespace();
    if (this.peek() === 0x5d) return elements;
    for (;;) {
      elements.push(this.skipValue());
      this.skipWhitespace();
      if (this.peek() === 0x5d) return elements;
      this.expect(0x2c); // ,
      this.skipWhitespace();
    }
  }

  private peek(): number {
    return this.text.charCodeAt(this.pos);
  }

  private expect(code: number): void {
    if (this.peek() !== code) {
      throw new Error(`body scan: expected ${String.fromCharCode(code)} at offset ${this.pos} of well-formed JSON`);
    }
    this.pos++;
  }

  private skipWhitespace(): void {
    for (let c = this.peek(); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = this.peek()) this.pos++;
  }

  /** Skips the string starting at `pos` (its opening quote). */
  private skipString(): void {
    const text = this.text;
    let quote = this.pos;
    for (;;) {
      quote = text.indexOf('"', quote + 1);
      if (quote === -1) throw new Error("body scan: unterminated string in well-formed JSON");
      let backslashes = 0;
      while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
      if (backslashes % 2 === 0) break;
    }
    this.pos = quote + 1;
  }

  /** Skips the value starting at `pos` and answers its span. */
  private skipValue(): Span {
    const start = this.pos;
    const first = this.peek();
    if (first === 0x22) {
      this.skipString();
    } else if (first === 0x7b || first === 0x5b) {
      let depth = 0;
      do {
        const c = this.peek();
        if (c === 0x22) {
          this.skipString();
          continue;
        }
        if (c === 0x7b || c === 0x5b) depth++;
        else if (c === 0x7d || c === 0x5d) depth--;
        this.pos++;
      } while (depth > 0);
    } else {
      // A number or a literal: it ends at a delimiter or whitespace.
      for (
        let c = this.peek();
        !(Number.isNaN(c) || c === 0x2c || c === 0x5d || c === 0x7d || c <= 0x20);
        c = this.peek()
      ) {
        this.pos++;
      }
    }
    return { start, end: this.pos };
  }
}
