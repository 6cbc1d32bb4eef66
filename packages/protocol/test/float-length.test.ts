// floatTextLength's fast rule (digit count and exponent, no conversion) must agree with formatting
// the converted double, for every lexeme shape the reader accepts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { floatTextLength, formatFloat } from "../src/json/number.js";

function slow(lexeme: string): number {
  const x = Number(lexeme);
  return Number.isFinite(x) ? formatFloat(x).length : -1;
}

const digits = (min: number, max: number) =>
  fc.array(fc.constantFrom(..."0123456789"), { minLength: min, maxLength: max }).map((d) => d.join(""));

/** JSON number lexemes with a fraction or an exponent (or both). */
const floatLexeme = fc
  .record({
    negative: fc.boolean(),
    integer: fc.oneof(
      fc.constant("0"),
      fc.tuple(fc.constantFrom(..."123456789"), digits(0, 20)).map(([a, b]) => a + b),
    ),
    fraction: fc.option(digits(1, 25), { nil: undefined }),
    exponent: fc.option(
      fc.record({
        letter: fc.constantFrom("e", "E"),
        sign: fc.constantFrom("", "+", "-"),
        value: fc.oneof(
          fc.integer({ min: 0, max: 30 }),
          fc.integer({ min: 280, max: 330 }),
          fc.integer({ min: 0, max: 400 }),
        ),
        padding: fc.integer({ min: 0, max: 3 }),
      }),
      { nil: undefined },
    ),
  })
  .filter((r) => r.fraction !== undefined || r.exponent !== undefined)
  .map((r) => {
    let text = `${r.negative ? "-" : ""}${r.integer}`;
    if (r.fraction !== undefined) text += `.${r.fraction}`;
    if (r.exponent !== undefined) {
      text += `${r.exponent.letter}${r.exponent.sign}${"0".repeat(r.exponent.padding)}${r.exponent.value}`;
    }
    return text;
  });

describe("floatTextLength", () => {
  it("agrees with formatFloat(Number(lexeme)).length on generated lexemes", () => {
    fc.assert(
      fc.property(floatLexeme, (lexeme) => {
        expect(floatTextLength(lexeme, 0, lexeme.length)).toBe(slow(lexeme));
      }),
      { numRuns: 20_000 },
    );
  });

  it.each([
    "1.0",
    "1e5",
    "1E+2",
    "1e16",
    "1e15",
    "1.5e-7",
    "0.1",
    "5e-324",
    "1e22",
    "100000000000000000000.0",
    "-0.0",
    "0e5",
    "-0E-0",
    "0.0001",
    "0.00001",
    "1e-400",
    "1e400",
    "-1e309",
    "123456789012345.0",
    "1234567890123456.0",
    "12345678901234567.0",
    "0.000123450",
    "9.99e307",
    "1.7976931348623157e308",
    "1e0000000000000000000005",
    "41911798450481926.5",
    "985658.62572973169861",
  ])("%s", (lexeme) => {
    expect(floatTextLength(`[${lexeme}]`, 1, lexeme.length + 1)).toBe(slow(lexeme));
  });
});
