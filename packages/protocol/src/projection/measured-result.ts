/**
 * A result measured once: its value, its compact text in the sender's key order and its byte
 * measure. The server computes it when a receipt arrives and projects from it without measuring
 * again, so a projection costs time in proportion to the budget, not to the result.
 */

import { compact } from "../json/compact.js";
import { utf8Length } from "../json/utf8.js";
import type { JsonValue } from "../json/value.js";

/** A result with its compact text and byte measure known. */
export class MeasuredResult {
  private constructor(
    /** The result value (lossless). */
    readonly value: JsonValue,
    /** `json.dumps(value, ensure_ascii=False, separators=(",", ":"))`: the sender's key order. */
    readonly compactText: string,
    /** UTF-8 bytes of `compactText`, equal to the reference measure (key order does not count). */
    readonly bytes: number,
  ) {}

  /** Measures `value` once. */
  static of(value: JsonValue): MeasuredResult {
    const text = compact(value);
    return new MeasuredResult(value, text, utf8Length(text));
  }

  /** Wraps a value whose compact text and size are already stored (trusted, not re-checked). */
  static fromStored(value: JsonValue, compactText: string, bytes: number): MeasuredResult {
    return new MeasuredResult(value, compactText, bytes);
  }
}
