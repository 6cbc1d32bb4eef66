// Properties of the projection (docs/projection.md) over generated results and budgets: the budget holds, the
// reported sizes are the real ones, the preview is a maximal, character-safe prefix and suffix of the
// compact text, preserved fields are exactly the documented ones, and the answer never depends on how the result
// is held or how often it is asked for.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compact,
  JsonNumber,
  type JsonObject,
  type JsonValue,
  MeasuredResult,
  measure,
  measureText,
  parseJson,
  projectResult,
  TEXT_OMISSION_MARKER,
} from "../src/index.js";
import { characterAt, characterBefore, expectLawfulCut, referencePreserved, utf8 } from "./projection-helpers.js";

const RUNS = { numRuns: 300 };

const character = fc.constantFrom(
  "a",
  "b",
  "x",
  " ",
  "/",
  "中",
  "文",
  "😀",
  "🎉",
  "é",
  '"',
  "\\",
  "\n",
  "\t",
  "\u0001",
  "\u001f",
  "\u007f",
  "\u2028",
);
const text = (maxLength: number): fc.Arbitrary<string> => fc.string({ unit: character, maxLength });
const longText = fc.oneof(text(40), fc.string({ unit: character, minLength: 100, maxLength: 600 }));

const bigInteger = fc
  .tuple(
    fc.boolean(),
    fc.integer({ min: 1, max: 9 }),
    fc.string({ unit: fc.constantFrom(..."0123456789".split("")), minLength: 15, maxLength: 40 }),
  )
  .map(([negative, first, rest]) => new JsonNumber(`${negative ? "-" : ""}${first}${rest}`, true));
const float = fc
  .double({ noNaN: true, noDefaultInfinity: true })
  .map((x) => new JsonNumber(String(x).includes(".") || String(x).includes("e") ? String(x) : `${x}.0`, false));

const scalar: fc.Arbitrary<JsonValue> = fc.oneof(
  text(20),
  fc.string({ unit: character, minLength: 120, maxLength: 140 }), // around the 128-byte limit
  fc.integer(),
  bigInteger,
  float,
  fc.boolean(),
  fc.constant(null),
);

const key = fc.constantFrom(
  "status",
  "id",
  "next_cursor",
  "state",
  "ok",
  "code",
  "count",
  "has_more",
  "user_id",
  "job_status",
  "page_cursor",
  "name",
  "title",
  "data",
  "meta",
  "a.b",
  "data.next_cursor",
  "note",
  "中文",
  "😀",
);

/** An object as a Map, with keys drawn from `key` (a repeated key keeps its first place and last value). */
const objectOf = (value: fc.Arbitrary<JsonValue>, maxLength: number): fc.Arbitrary<JsonObject> =>
  fc.array(fc.tuple(key, value), { maxLength }).map((entries) => new Map(entries));

const record = objectOf(fc.oneof(scalar, longText), 6);
const level2 = objectOf(fc.oneof(scalar, longText, record, fc.array(record, { maxLength: 3 })), 6);
const rows = fc.array(record, { maxLength: 80, size: "medium" });

/** Results of every size: many well over a 1–4 KiB budget, some within it. */
const result: fc.Arbitrary<JsonValue> = fc.oneof(
  { weight: 5, arbitrary: objectOf(fc.oneof(scalar, longText, level2, rows), 10) },
  { weight: 2, arbitrary: rows },
  { weight: 1, arbitrary: fc.oneof(scalar, longText) },
  { weight: 1, arbitrary: fc.string({ unit: character, minLength: 500, maxLength: 6000 }) },
);

const budget = fc.oneof(fc.integer({ min: 1024, max: 4096 }), fc.integer({ min: 1024, max: 32768 }));

/** What a text costs inside a JSON string literal, quotes not counted. */
function cost(t: string): number {
  return utf8(JSON.stringify(t)) - 2;
}

/** Every value a dotted path can name: the depth-1 key itself, or parent.child at any dot. */
function valuesAt(source: JsonObject, path: string): JsonValue[] {
  const found: JsonValue[] = [];
  if (source.has(path)) found.push(source.get(path) as JsonValue);
  for (let dot = path.indexOf("."); dot !== -1; dot = path.indexOf(".", dot + 1)) {
    const parent = source.get(path.slice(0, dot));
    if (parent instanceof Map && parent.has(path.slice(dot + 1)))
      found.push(parent.get(path.slice(dot + 1)) as JsonValue);
  }
  return found;
}

describe("projection of plain JSON", () => {
  it("the budget holds, sizes are real, and a cut is lawful and maximal", () => {
    let cuts = 0;
    let whole = 0;
    fc.assert(
      fc.property(result, budget, (value, limit) => {
        const full = compact(value);
        const preview = projectResult(value, limit);
        expect(preview.max_result_context_bytes).toBe(limit);
        expect(preview.original_bytes).toBe(measure(value));
        expect(preview.original_bytes).toBe(utf8(full));
        expect(preview.retained_bytes).toBe(measure(preview.result));
        const seen = compact(preview.result);
        expect(measureText(seen)).toBe(preview.retained_bytes);
        expect(compact(parseJson(seen))).toBe(seen);
        if (preview.original_bytes <= limit) {
          whole++;
          expect(preview.truncated).toBe(false);
          expect(preview.result).toBe(value);
          expect(preview.retained_bytes).toBe(preview.original_bytes);
          return;
        }
        cuts++;
        const parts = expectLawfulCut(preview, full, limit);
        expect(parts.omitted).toBe(parts.original - utf8(parts.head) - utf8(parts.tail));
      }),
      RUNS,
    );
    // The generator must exercise both branches for the property to mean anything.
    expect(cuts).toBeGreaterThan(RUNS.numRuns / 4);
    expect(whole).toBeGreaterThan(RUNS.numRuns / 20);
  });

  it("preserved fields are the documented ones, copied exactly, within a quarter of the budget", () => {
    fc.assert(
      fc.property(result, budget, (value, limit) => {
        const preview = projectResult(value, limit);
        if (!preview.truncated) return;
        const preserved = (preview.result as JsonObject).get("preserved_fields") as JsonObject;
        expect(measure(preserved)).toBeLessThanOrEqual(Math.floor(limit / 4));
        expect(compact(preserved)).toBe(compact(referencePreserved(value, Math.floor(limit / 4))));
        for (const [path, copy] of preserved) {
          expect(value).toBeInstanceOf(Map);
          expect(valuesAt(value as JsonObject, path).map((v) => compact(v))).toContain(compact(copy));
        }
      }),
      RUNS,
    );
  });

  it("is deterministic and the same for a value, a MeasuredResult and the re-read text", () => {
    fc.assert(
      fc.property(result, budget, (value, limit) => {
        const once = compact(projectResult(value, limit).result);
        expect(compact(projectResult(value, limit).result)).toBe(once);
        expect(compact(projectResult(MeasuredResult.of(value), limit).result)).toBe(once);
        expect(compact(projectResult(parseJson(compact(value)), limit).result)).toBe(once);
        expect(compact(projectResult(parseJson(compact(value)), limit, "json").result)).toBe(once);
      }),
      { numRuns: 100 },
    );
  });

  it("submission and opaque results are never cut", () => {
    fc.assert(
      fc.property(result, budget, fc.constantFrom("submission", "opaque" as const), (value, limit, type) => {
        const preview = projectResult(value, limit, type);
        expect(preview.truncated).toBe(false);
        expect(preview.result).toBe(value);
        expect(preview.retained_bytes).toBe(measure(value));
      }),
      { numRuns: 100 },
    );
  });
});

describe("projection of multimodal results", () => {
  const media = fc
    .tuple(
      fc.constantFrom("image", "audio", "file"),
      fc.string({ minLength: 0, maxLength: 20000, unit: fc.constantFrom("A", "b", "9", "+") }),
    )
    .map(
      ([type, data]): JsonValue =>
        new Map<string, JsonValue>([
          ["type", type],
          ["mime_type", `${type}/x`],
          ["data", data],
        ]),
    );
  const textBlock = fc
    .oneof(text(60), fc.string({ unit: character, minLength: 200, maxLength: 4000, size: "max" }))
    .map(
      (t): JsonValue =>
        new Map<string, JsonValue>([
          ["type", "text"],
          ["text", t],
        ]),
    );
  const multimodal = fc
    .tuple(fc.array(fc.oneof(textBlock, media), { minLength: 1, maxLength: 6 }), fc.option(record, { nil: undefined }))
    .map(([blocks, meta]) => {
      const root: JsonObject = new Map([["content", blocks]]);
      if (meta !== undefined) root.set("meta", meta);
      return root;
    });

  it("only texts are cut; other blocks are kept verbatim and not counted; order is kept", () => {
    let cuts = 0;
    fc.assert(
      fc.property(multimodal, fc.integer({ min: 1024, max: 4096 }), (value, limit) => {
        const preview = projectResult(value, limit, "multimodal");
        const blocks = value.get("content") as JsonObject[];
        const texts = blocks.filter((b) => b.get("type") === "text").map((b) => b.get("text") as string);
        const nonText = blocks.filter((b) => b.get("type") !== "text").reduce((sum, b) => sum + measure(b), 0);
        expect(preview.original_bytes).toBe(measure(value));
        expect(preview.retained_bytes).toBe(measure(preview.result));
        const marker = cost(TEXT_OMISSION_MARKER);
        if (!preview.truncated) {
          expect(preview.result).toBe(value);
          expect(preview.retained_bytes).toBe(preview.original_bytes);
          // Unchanged only when it fits, or when no text is worth cutting (none longer than the marker).
          if (preview.original_bytes - nonText > limit) expect(texts.every((t) => cost(t) <= marker)).toBe(true);
          return;
        }
        cuts++;
        expect(preview.original_bytes - nonText).toBeGreaterThan(limit);
        const projected = preview.result as JsonObject;
        expect([...projected.keys()]).toEqual([...value.keys()]);
        if (value.has("meta")) {
          expect(compact(projected.get("meta") as JsonValue)).toBe(compact(value.get("meta") as JsonValue));
        }
        const out = projected.get("content") as JsonObject[];
        expect(out).toHaveLength(blocks.length);
        const counted = preview.retained_bytes - nonText;
        const edges: string[] = [];
        blocks.forEach((block, i) => {
          const after = out[i] as JsonObject;
          expect(after.get("type")).toBe(block.get("type"));
          if (block.get("type") !== "text") {
            expect(compact(after)).toBe(compact(block));
            return;
          }
          const before = block.get("text") as string;
          const now = after.get("text") as string;
          if (now === before) return;
          const at = now.indexOf(TEXT_OMISSION_MARKER);
          expect(at).toBeGreaterThanOrEqual(0);
          const head = now.slice(0, at);
          const tail = now.slice(at + TEXT_OMISSION_MARKER.length);
          expect(before.startsWith(head) && before.endsWith(tail)).toBe(true);
          expect(head.isWellFormed() && tail.isWellFormed()).toBe(true);
          // A cut omits something, and is never longer than the text it replaces.
          expect(head.length + tail.length).toBeLessThan(before.length);
          expect(cost(now)).toBeLessThan(cost(before));
          edges.push(characterAt(before, head.length), characterBefore(before, before.length - tail.length));
        });
        expect(edges.length).toBeGreaterThan(0);
        // The budget holds whenever it can: when the structure plus, per text, the cheaper of keeping it
        // whole or cutting it to the bare marker fits.
        const structure = preview.original_bytes - nonText - texts.reduce((sum, t) => sum + cost(t), 0);
        const least = structure + texts.reduce((sum, t) => sum + Math.min(cost(t), marker), 0);
        if (least <= limit) {
          expect(counted).toBeLessThanOrEqual(limit);
          // And the cut is maximal: no cut text could keep one more character.
          for (const edge of edges) expect(counted + cost(edge)).toBeGreaterThan(limit);
        }
      }),
      RUNS,
    );
    expect(cuts).toBeGreaterThan(RUNS.numRuns / 5);
  });
});
