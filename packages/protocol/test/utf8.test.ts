// utf8Length: the encoder's count, for short strings (a loop) and long ones (the encoder, in chunks
// that never cut a surrogate pair), lone surrogates included.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { utf8Length } from "../src/index.js";

/** What Node's own encoder writes (a lone surrogate becomes the 3-byte replacement character). */
const encoded = (s: string): number => Buffer.byteLength(s, "utf8");

const unit = fc.constantFrom(
  "a",
  "\u0000",
  "\u007f",
  "é",
  "\u07ff",
  "\u0800",
  "中",
  "\uffff",
  "😀",
  "𝄞",
  "\ud800",
  "\udfff",
);

describe("utf8Length", () => {
  it("counts each range: 1, 2, 3 and 4 bytes, and 3 for a lone surrogate", () => {
    expect(utf8Length("")).toBe(0);
    expect(utf8Length("a\u007f")).toBe(2);
    expect(utf8Length("é\u07ff")).toBe(4);
    expect(utf8Length("中\uffff")).toBe(6);
    expect(utf8Length("😀")).toBe(4);
    expect(utf8Length("\ud800")).toBe(3);
    expect(utf8Length("\udc00\ud800")).toBe(6);
  });

  it("equals the encoder's count for short and long strings (property)", () => {
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 300 }), fc.nat({ max: 40_000 }), (units, padding) => {
        const short = units.join("");
        expect(utf8Length(short)).toBe(encoded(short));
        // Long enough for several encoder chunks, with pairs and lone surrogates around the cuts.
        const long = "x".repeat(padding) + short + "中".repeat(padding % 997) + short;
        expect(utf8Length(long)).toBe(encoded(long));
      }),
      { numRuns: 300 },
    );
  });

  it("never cuts a surrogate pair at a chunk boundary", () => {
    for (let offset = 16_370; offset < 16_390; offset++) {
      const text = `${"a".repeat(offset)}${"😀".repeat(20)}`;
      expect(utf8Length(text)).toBe(offset + 80);
    }
  });
});
