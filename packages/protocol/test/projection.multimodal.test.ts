// docs/projection.md, multimodal results: only text blocks are cut (head and tail around an omission marker);
// image, audio and file blocks stay byte for byte and do not count against the budget.
import { describe, expect, it } from "vitest";
import {
  compact,
  type JsonObject,
  type JsonValue,
  measure,
  projectResult,
  TEXT_OMISSION_MARKER,
} from "../src/index.js";
import { characterAt, characterBefore, escapedCost, obj, ones, refusal } from "./projection-helpers.js";

describe("multimodal", () => {
  const image = obj(["type", "image"], ["mime_type", "image/png"], ["data", "iVBORw0KGgo".repeat(5000)]);
  const audio = obj(["type", "audio"], ["mime_type", "audio/wav"], ["data", "UklGR".repeat(3000)]);
  const file = obj(["type", "file"], ["mime_type", "application/pdf"], ["data", "JVBERi0".repeat(2000)]);
  const text = (t: string): JsonObject => obj(["type", "text"], ["text", t]);
  const nonTextBytes = (result: JsonObject): number =>
    (result.get("content") as JsonObject[])
      .filter((block) => block.get("type") !== "text")
      .reduce((sum, block) => sum + measure(block), 0);

  it("a result whose text fits is unchanged, though the images make it larger than the budget", () => {
    const result = obj(["content", [text("hello"), image, audio, file]]);
    const preview = projectResult(result, 1024, "multimodal");
    expect(preview.truncated).toBe(false);
    expect(preview.result).toBe(result);
    expect(preview.original_bytes).toBe(measure(result));
    expect(preview.retained_bytes).toBe(measure(result));
    expect(preview.retained_bytes).toBeGreaterThan(1024);
  });

  it("cuts only text blocks, with the marker inside; other blocks stay byte for byte, in order", () => {
    const long = `START ${'中文 text "quoted" 😀 '.repeat(400)} END`;
    const short = "a short caption";
    const result = obj(
      ["content", [text(long), image, text(short), audio, text(long.toUpperCase()), file]],
      ["meta", obj(["page", 1])],
    );
    for (const budget of [1024, 2000, 4096]) {
      const preview = projectResult(result, budget, "multimodal");
      expect(preview.truncated).toBe(true);
      const projected = preview.result as JsonObject;
      expect([...projected.keys()]).toEqual(["content", "meta"]);
      expect(compact(projected.get("meta") as JsonValue)).toBe('{"page":1}');
      const blocks = projected.get("content") as JsonObject[];
      expect(blocks.map((b) => b.get("type"))).toEqual(["text", "image", "text", "audio", "text", "file"]);
      expect(compact(blocks[1] as JsonObject)).toBe(compact(image));
      expect(compact(blocks[3] as JsonObject)).toBe(compact(audio));
      expect(compact(blocks[5] as JsonObject)).toBe(compact(file));
      expect(blocks[2]?.get("text")).toBe(short);
      for (const [index, source] of [
        [0, long],
        [4, long.toUpperCase()],
      ] as const) {
        const cut = blocks[index]?.get("text") as string;
        const at = cut.indexOf(TEXT_OMISSION_MARKER);
        expect(at).toBeGreaterThanOrEqual(0);
        expect(cut.indexOf(TEXT_OMISSION_MARKER, at + 1)).toBe(-1);
        const head = cut.slice(0, at);
        const tail = cut.slice(at + TEXT_OMISSION_MARKER.length);
        expect(source.startsWith(head) && source.endsWith(tail)).toBe(true);
        expect(head.length + tail.length).toBeLessThan(source.length);
        expect(head.isWellFormed() && tail.isWellFormed()).toBe(true);
        expect([...(blocks[index] as JsonObject).keys()]).toEqual(["type", "text"]);
      }
      expect(preview.retained_bytes).toBe(measure(projected));
      expect(preview.retained_bytes).toBeGreaterThan(budget);
      const counted = preview.retained_bytes - nonTextBytes(projected);
      expect(counted).toBeLessThanOrEqual(budget);
      // Nothing to spare: no cut text could keep one more character.
      for (const [index, source] of [
        [0, long],
        [4, long.toUpperCase()],
      ] as const) {
        const cut = blocks[index]?.get("text") as string;
        const at = cut.indexOf(TEXT_OMISSION_MARKER);
        const tailLength = cut.length - at - TEXT_OMISSION_MARKER.length;
        expect(counted + escapedCost(characterAt(source, at))).toBeGreaterThan(budget);
        expect(counted + escapedCost(characterBefore(source, source.length - tailLength))).toBeGreaterThan(budget);
      }
    }
  });

  it("counts only what is not an image, audio or file block", () => {
    const result = obj(["content", [image, text("x".repeat(1000)), file]]);
    const counted = measure(result) - measure(image) - measure(file);
    expect(counted).toBeLessThanOrEqual(1100);
    expect(projectResult(result, Math.max(1024, counted), "multimodal").truncated).toBe(false);
    const bigger = obj(["content", [image, text("x".repeat(1100)), file]]);
    expect(projectResult(bigger, 1024, "multimodal").truncated).toBe(true);
  });

  it("a text no longer than the marker is never replaced by it; if only such texts are over, nothing is cut", () => {
    const marker = escapedCost(TEXT_OMISSION_MARKER);
    const meta = obj(["note", "n".repeat(1200)]);
    const short = obj(["content", [text(""), text("x".repeat(marker)), image]], ["meta", meta]);
    const preview = projectResult(short, 1024, "multimodal");
    expect(preview.truncated).toBe(false);
    expect(preview.result).toBe(short);
    const mixed = obj(
      ["content", [text(""), text("ok"), text("y".repeat(5000))]],
      ["meta", obj(["note", "n".repeat(800)])],
    );
    const cut = projectResult(mixed, 1024, "multimodal");
    expect(cut.truncated).toBe(true);
    const blocks = (cut.result as JsonObject).get("content") as JsonObject[];
    expect(blocks.map((b) => b.get("text"))).toEqual(["", "ok", expect.stringContaining(TEXT_OMISSION_MARKER)]);
  });

  it("space left by character boundaries goes to the texts a character at a time (stays maximal)", () => {
    // Found by the property test: re-cutting a later text with the spare used to keep fewer bytes,
    // leaving a byte an earlier text could have used.
    const texts = [
      "😀\u0001\u0001\u0001中a😀\u0001\\😀中\\😀\\\\\u0001中😀\u0001😀\\😀\u0001\\中中中\u0001😀aa中\u0001\\\u0001中中\\\u0001\u0001\u0001\\a\u0001\\中a中😀\u0001\\\\a\\\\😀中\\😀a\\中a中\u0001\\中中\\😀😀中中😀中中\\😀😀\\a\u0001中aa\u0001\u0001",
      "aa\u0001\\a中😀\\\\a\\\u0001\\\\😀\u0001a😀中中\u0001😀\u0001\\\\😀中\u0001中\u0001😀\u0001\\😀中\\😀a😀中a😀😀\u0001中aa中a中\u0001中\u0001\\中中\u0001a\u0001\u0001\u0001\u0001中😀\u0001😀\u0001😀\\\u0001中\\a\u0001中😀中中\\\\中\u0001中😀\u0001中aa\u0001\u0001😀\\",
      "a中中\\\u0001中a中\u0001\u0001😀\u0001\u0001\\\u0001\u0001😀😀😀\\中😀a\\\\\u0001a\\\u0001中中\\\\😀😀😀\u0001aaaaaaa😀a\u0001😀\u0001中aa😀😀\u0001中\u0001\\\u0001\u0001\\aa\u0001😀\u0001\u0001😀\u0001中\\😀\u0001😀😀\u0001\u0001😀\\\u0001中\u0001\u0001😀\u0001😀\u0001",
    ];
    const result = obj(["content", texts.map(text)]);
    const preview = projectResult(result, 1024, "multimodal");
    const counted = preview.retained_bytes;
    expect(counted).toBeLessThanOrEqual(1024);
    const blocks = (preview.result as JsonObject).get("content") as JsonObject[];
    let cutTexts = 0;
    texts.forEach((source, i) => {
      const now = blocks[i]?.get("text") as string;
      const at = now.indexOf(TEXT_OMISSION_MARKER);
      if (at === -1) {
        expect(now).toBe(source);
        return;
      }
      cutTexts++;
      // A cut costs less than the whole text would.
      expect(escapedCost(now)).toBeLessThan(escapedCost(source));
      const tailLength = now.length - at - TEXT_OMISSION_MARKER.length;
      expect(counted + escapedCost(characterAt(source, at))).toBeGreaterThan(1024);
      expect(counted + escapedCost(characterBefore(source, source.length - tailLength))).toBeGreaterThan(1024);
    });
    expect(cutTexts).toBeGreaterThan(0);
  });

  it("a result with no text block is never cut", () => {
    const result = obj(["content", [image, audio, file]]);
    const preview = projectResult(result, 1024, "multimodal");
    expect(preview.truncated).toBe(false);
    expect(preview.result).toBe(result);
  });

  it("an invalid multimodal shape is invalid_result", () => {
    const cases: [JsonValue, string][] = [
      ["just text", ""],
      [ones(3), ""],
      [obj(["blocks", []]), "/content"],
      [obj(["content", obj()]), "/content"],
      [obj(["content", "text"]), "/content"],
      [obj(["content", [text("ok"), 5]]), "/content/1"],
      [obj(["content", [null]]), "/content/0"],
      [obj(["content", [obj(["type", "video"], ["mime_type", "video/mp4"], ["data", "AAAA"])]]), "/content/0/type"],
      [obj(["content", [obj(["text", "no type"])]]), "/content/0/type"],
      [obj(["content", [obj(["type", "text"], ["text", ["not", "a", "string"]])]]), "/content/0/text"],
      [obj(["content", [obj(["type", "text"])]]), "/content/0/text"],
      [obj(["content", [text("ok"), obj(["type", "image"], ["data", "AAAA"])]]), "/content/1/mime_type"],
      [obj(["content", [obj(["type", "file"], ["mime_type", "a/b"], ["data", 12])]]), "/content/0/data"],
    ];
    for (const [result, pointer] of cases) {
      for (const budget of [1024, 32768]) {
        const error = refusal(() => projectResult(result, budget, "multimodal"));
        expect(error.code).toBe("invalid_result");
        expect(error.pointer).toBe(pointer);
        expect(error.status).toBe(422);
      }
    }
  });

  it("an unknown block type cannot smuggle bytes past the budget", () => {
    const result = obj(["content", [text("hi"), obj(["type", "html"], ["text", "<p>".repeat(20000)])]]);
    expect(refusal(() => projectResult(result, 1024, "multimodal")).code).toBe("invalid_result");
  });
});
