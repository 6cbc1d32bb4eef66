// The CLI's own building blocks: strict UTF-8 offsets, ordered bounded reading, indentation and the
// refusal line format.

import { ProtocolError } from "@toolhost/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { displayPointer, firstInvalidUtf8Offset, indentJson, mapInOrder, refusalLine } from "../src/index.js";

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
function decodes(bytes: Uint8Array): boolean {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

describe("firstInvalidUtf8Offset", () => {
  it("agrees with a fatal TextDecoder, and the bytes before the offset decode", () => {
    // Bytes drawn mostly from lead/continuation ranges, so ill-formed and well-formed inputs both occur.
    const byte = fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xff }));
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 24 }), (array) => {
        const bytes = Uint8Array.from(array);
        const offset = firstInvalidUtf8Offset(bytes);
        expect(offset === -1).toBe(decodes(bytes));
        if (offset !== -1) expect(decodes(bytes.subarray(0, offset))).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it("accepts every code point's UTF-8 and finds the classic ill-formed sequences", () => {
    for (const s of ["", "a", "é", "中", "😀", "\u{10ffff}", "\ud7ff\ue000"]) {
      expect(firstInvalidUtf8Offset(Buffer.from(s, "utf8"))).toBe(-1);
    }
    const cases: [number[], number][] = [
      [[0x61, 0xc0, 0x80], 1], // overlong '\0'
      [[0x61, 0x62, 0xed, 0xa0, 0x80], 2], // an encoded surrogate (U+D800)
      [[0xf4, 0x90, 0x80, 0x80], 0], // above U+10FFFF
      [[0x7b, 0xe2, 0x82], 1], // cut short by the end
      [[0x80], 0], // a lone continuation byte
    ];
    for (const [bytes, offset] of cases) expect(firstInvalidUtf8Offset(Uint8Array.from(bytes))).toBe(offset);
  });
});

describe("mapInOrder", () => {
  it("yields results in item order while later items finish first, with at most `limit` in flight", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const items = Array.from({ length: 20 }, (_, i) => i);
    const results: number[] = [];
    for await (const result of mapInOrder(items, 4, async (i) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      // Later items resolve sooner: the order must come from the items, not from completion.
      await new Promise((resolve) => setTimeout(resolve, (20 - i) % 5));
      inFlight--;
      return i * 10;
    })) {
      results.push(result);
    }
    expect(results).toEqual(items.map((i) => i * 10));
    expect(maxInFlight).toBe(4);
  });

  it("surfaces a rejection in its turn, after the results before it", async () => {
    const seen: number[] = [];
    const run = async (): Promise<void> => {
      for await (const result of mapInOrder([0, 1, 2, 3], 3, async (i) => {
        if (i === 2) throw new Error("item 2 failed");
        return i;
      })) {
        seen.push(result);
      }
    };
    await expect(run()).rejects.toThrow("item 2 failed");
    expect(seen).toEqual([0, 1]);
  });
});

describe("indentJson", () => {
  it.each([
    '{"a":[1,2,{"b":null}],"c":{},"d":[],"e":"x"}',
    '["{",",",":","}","[","]"]',
    '{"q":"say \\"hi\\", {ok}: [yes]","back":"\\\\","nested":[[[]],[{}]]}',
    '"just a string"',
    "123",
  ])("indents %s as JSON.stringify(value, null, 2) does", (text) => {
    expect(indentJson(text)).toBe(JSON.stringify(JSON.parse(text), null, 2));
  });
});

describe("refusal lines", () => {
  it("shows the root pointer as (root) and escapes control characters", () => {
    expect(displayPointer("")).toBe("(root)");
    expect(displayPointer("/a~1b/0")).toBe("/a~1b/0");
    expect(displayPointer("/line\nbreak")).toBe("/line\\u000abreak");
  });

  it("formats protocol errors, system errors, and leaves other errors to surface", () => {
    expect(refusalLine("x.json", new ProtocolError("invalid_json", "bad", "/a"))).toBe(
      "toolhost: x.json: invalid_json at /a: bad\n",
    );
    expect(refusalLine("x.json", new ProtocolError("invalid_json", "bad"))).toBe(
      "toolhost: x.json: invalid_json: bad\n",
    );
    const enoent = Object.assign(new Error("ENOENT: no such file or directory, open 'x.json'"), {
      code: "ENOENT",
      syscall: "open",
    });
    expect(refusalLine("x.json", enoent)).toBe("toolhost: x.json: ENOENT: no such file or directory\n");
    expect(refusalLine("x.json", new TypeError("a bug"))).toBeUndefined();
  });
});
