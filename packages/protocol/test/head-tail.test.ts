// cutHeadTail on its own: the maximal head/tail cut of a text under an allowance of JSON-escaped
// bytes, shared equally, never splitting a character.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cutHeadTail } from "../src/index.js";
import { growHeadTail } from "../src/projection/head-tail.js";
import { characterAt, characterBefore, utf8 } from "./projection-helpers.js";

/** What a text costs inside a JSON string literal (quotes not counted), computed by JSON.stringify. */
function cost(text: string): number {
  return utf8(JSON.stringify(text)) - 2;
}

/**
 * The documented rule, restated over code points: the head takes up to half, the tail up to what the
 * head left, then the head up to what the tail left.
 */
function referenceCut(text: string, allowance: number): { head: string; tail: string } {
  const chars = Array.from(text);
  const a = Math.max(0, allowance);
  let headEnd = 0;
  let tailStart = chars.length;
  let headCost = 0;
  let tailCost = 0;
  const growHead = (limit: number): void => {
    while (headEnd < tailStart && headCost + cost(chars[headEnd] as string) <= limit) {
      headCost += cost(chars[headEnd] as string);
      headEnd++;
    }
  };
  growHead(Math.floor(a / 2));
  while (tailStart > headEnd && tailCost + cost(chars[tailStart - 1] as string) <= a - headCost) {
    tailCost += cost(chars[tailStart - 1] as string);
    tailStart--;
  }
  growHead(a - tailCost);
  return { head: chars.slice(0, headEnd).join(""), tail: chars.slice(tailStart).join("") };
}

const unit = fc.constantFrom("a", "b", " ", '"', "\\", "\n", "\u0001", "\u007f", "é", "中", "😀", "𝄞", "\u2028");

describe("cutHeadTail", () => {
  it("cuts nothing from an empty text, whatever the allowance", () => {
    for (const allowance of [-10, -1, 0, 1, 2, 1000]) {
      expect(cutHeadTail("", allowance)).toEqual({ head: "", tail: "", escapedBytes: 0, headBytes: 0, rawBytes: 0 });
    }
  });

  it("keeps nothing under an allowance of 0 or less", () => {
    for (const allowance of [0, -1, -1000, Number.NEGATIVE_INFINITY]) {
      expect(cutHeadTail("hello 中文 😀", allowance)).toEqual({
        head: "",
        tail: "",
        escapedBytes: 0,
        headBytes: 0,
        rawBytes: 0,
      });
    }
  });

  it("keeps the whole text (head + tail, no overlap) when it fits", () => {
    for (const text of ["hello", 'a"b\\c\nd', "中文😀é"]) {
      for (const allowance of [cost(text), cost(text) + 1, 10_000]) {
        const cut = cutHeadTail(text, allowance);
        expect(cut.head + cut.tail).toBe(text);
        expect(cut.escapedBytes).toBe(cost(text));
        expect(cut.rawBytes).toBe(utf8(text));
      }
    }
  });

  it("splits plain ASCII exactly: the head gets the floor of half, the tail the rest", () => {
    const text = "abcdefghijklmnopqrstuvwxyz".repeat(4);
    for (let allowance = 1; allowance < 60; allowance++) {
      const cut = cutHeadTail(text, allowance);
      expect(cut.head).toBe(text.slice(0, Math.floor(allowance / 2)));
      expect(cut.tail).toBe(text.slice(text.length - Math.ceil(allowance / 2)));
      expect(cut.escapedBytes).toBe(allowance);
      expect(cut.rawBytes).toBe(allowance);
    }
  });

  it("counts escapes at their escaped size and raw bytes separately", () => {
    const cut = cutHeadTail(`${'"'.repeat(10)}${"\\".repeat(10)}`, 9);
    // 4 bytes each side ("\"" and "\\" cost 2), and the odd byte fits nowhere.
    expect(cut).toEqual({ head: '""', tail: "\\\\", escapedBytes: 8, headBytes: 4, rawBytes: 4 });
    const control = cutHeadTail(`${"\u0001".repeat(10)}${"a".repeat(10)}`, 11);
    // The head cannot use its 5 bytes for a 6-byte \u0001: the tail takes them.
    expect(control).toEqual({ head: "", tail: "a".repeat(10), escapedBytes: 10, headBytes: 0, rawBytes: 10 });
  });

  it("never splits a surrogate pair; what one side cannot use goes to the other", () => {
    expect(cutHeadTail("😀".repeat(10), 10)).toEqual({
      head: "😀",
      tail: "😀",
      escapedBytes: 8,
      headBytes: 4,
      rawBytes: 8,
    });
    expect(cutHeadTail("😀".repeat(10), 12)).toEqual({
      head: "😀",
      tail: "😀😀",
      escapedBytes: 12,
      headBytes: 4,
      rawBytes: 12,
    });
    // Head half is 5: one emoji (4), 1 left over, which the ASCII tail takes.
    expect(cutHeadTail(`${"😀".repeat(5)}${"a".repeat(20)}`, 10)).toMatchObject({ head: "😀", tail: "aaaaaa" });
    // Tail takes 5 of "中" (3 each) = 3, 2 left over, which the ASCII head takes after it.
    expect(cutHeadTail(`${"a".repeat(20)}${"中".repeat(5)}`, 10)).toMatchObject({ head: "aaaaaaa", tail: "中" });
  });

  it("is maximal, within the allowance, and whole characters only (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 60 }), fc.integer({ min: -5, max: 400 }), (text, allowance) => {
        const cut = cutHeadTail(text, allowance);
        const { head, tail } = cut;
        expect(text.startsWith(head)).toBe(true);
        expect(text.endsWith(tail)).toBe(true);
        expect(head.length + tail.length).toBeLessThanOrEqual(text.length);
        expect(head.isWellFormed() && tail.isWellFormed()).toBe(true);
        expect(cut.escapedBytes).toBe(cost(head) + cost(tail));
        expect(cut.headBytes).toBe(cost(head));
        expect(cut.rawBytes).toBe(utf8(head) + utf8(tail));
        expect(cut.escapedBytes).toBeLessThanOrEqual(Math.max(0, allowance));
        if (head.length + tail.length < text.length) {
          const room = allowance - cut.escapedBytes;
          expect(cost(characterAt(text, head.length))).toBeGreaterThan(room);
          expect(cost(characterBefore(text, text.length - tail.length))).toBeGreaterThan(room);
        } else {
          expect(head + tail).toBe(text);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("shares equally as documented: half to the head, the rest to the tail, leftovers back to the head", () => {
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 60 }), fc.integer({ min: -5, max: 400 }), (text, allowance) => {
        const cut = cutHeadTail(text, allowance);
        expect({ head: cut.head, tail: cut.tail }).toEqual(referenceCut(text, allowance));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("growHeadTail", () => {
  const within =
    (limit: number) =>
    (escapedBytes: number): boolean =>
      escapedBytes <= limit;

  it("grows the side with fewer escaped bytes first, the tail on a tie", () => {
    const text = "abcdefghij";
    const empty = cutHeadTail(text, 0);
    expect(growHeadTail(text, empty, within(1))).toMatchObject({ head: "", tail: "j", escapedBytes: 1 });
    expect(growHeadTail(text, empty, within(2))).toMatchObject({ head: "a", tail: "j", escapedBytes: 2 });
    expect(growHeadTail(text, empty, within(5))).toMatchObject({ head: "ab", tail: "hij", escapedBytes: 5 });
    const lopsided = { head: "abcd", tail: "", escapedBytes: 4, headBytes: 4, rawBytes: 4 };
    expect(growHeadTail(text, lopsided, within(7))).toMatchObject({ head: "abcd", tail: "hij", escapedBytes: 7 });
  });

  it("gives the room to the other side when the next character does not fit", () => {
    const text = `ab${"😀".repeat(4)}xyz`;
    const start = { head: "ab", tail: "z", escapedBytes: 3, headBytes: 2, rawBytes: 3 };
    // The tail takes y and x; then an emoji (4 bytes) fits on neither side in the 1 byte left.
    expect(growHeadTail(text, start, within(6))).toMatchObject({ head: "ab", tail: "xyz", escapedBytes: 5 });
    expect(growHeadTail(text, start, within(9))).toMatchObject({ head: "ab😀", tail: "xyz", escapedBytes: 9 });
  });

  it("never splits a surrogate pair, counts escapes, and stops at the whole text", () => {
    const text = '😀"\\😀'; // emoji, quote, backslash, emoji
    const grown = growHeadTail(text, cutHeadTail(text, 0), within(1000));
    expect(grown.head + grown.tail).toBe(text);
    expect(grown.escapedBytes).toBe(cost(text));
    expect(grown.rawBytes).toBe(utf8(text));
    const partial = growHeadTail(text, cutHeadTail(text, 0), within(7));
    expect(partial).toEqual({ head: "", tail: "\\😀", escapedBytes: 6, headBytes: 0, rawBytes: 5 });
  });

  it("passes the raw bytes too, and keeps a cut that already cannot grow", () => {
    const text = "héllo wörld";
    const seen: number[] = [];
    const cut = growHeadTail(text, cutHeadTail(text, 0), (escapedBytes, rawBytes) => {
      seen.push(rawBytes);
      return escapedBytes <= 4;
    });
    expect(cut.rawBytes).toBe(utf8(cut.head) + utf8(cut.tail));
    expect(seen.every((raw) => raw > 0)).toBe(true);
    expect(growHeadTail(text, cut, within(4))).toEqual(cut);
  });
});
