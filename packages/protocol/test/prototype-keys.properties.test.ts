// Free-form JSON is data: members named `__proto__`, `constructor`, `prototype` or after any other
// property of Object.prototype are ordinary keys, kept byte for byte by the lossless reader and
// writer, by the byte measure, the digest, the projection and the plain copy configuration uses —
// and reading them never changes a prototype.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toPlainJson } from "../src/config/plain-json.js";
import {
  argumentsDigest,
  compact,
  isJsonObject,
  type JsonValue,
  measure,
  measureText,
  objectGet,
  parseJson,
  projectResult,
} from "../src/index.js";
import { utf8 } from "./projection-helpers.js";

const RUNS = { numRuns: 300 };

/** Names JavaScript gives meaning to on every object, and a few ordinary ones. */
const key = fc.constantFrom(
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "__defineGetter__",
  "__lookupSetter__",
  "isPrototypeOf",
  "then",
  "doc",
  "a",
);

/** A JSON text built from such keys (each key once per object), written compactly. */
const { text: compactText } = fc.letrec<{ text: string; scalar: string; object: string; array: string }>((tie) => ({
  scalar: fc.oneof(
    fc.constantFrom("null", "true", "false", "0", "-1.5", "12345678901234567890", '"user data"', '""'),
    key.map((k) => JSON.stringify(k)),
  ),
  object: fc
    .uniqueArray(fc.tuple(key, tie("text")), { selector: ([k]) => k, maxLength: 5 })
    .map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`),
  array: fc.array(tie("text"), { maxLength: 3 }).map((items) => `[${items.join(",")}]`),
  text: fc.oneof({ depthSize: "small", withCrossShrink: true }, tie("scalar"), tie("object"), tie("array")),
}));

/** An object text with at least one such member at the top, after padding of up to 3,000 bytes. */
const objectText = fc
  .tuple(key, compactText, compactText, fc.nat({ max: 3000 }))
  .map(
    ([k, v, rest, pad]) =>
      `{"pad":"${"x".repeat(pad)}","doc":${rest},${JSON.stringify(k === "doc" ? "__proto__" : k)}:${v}}`,
  );

/** The members of Object.prototype as they are before any test reads anything. */
function prototypeSnapshot(): string[] {
  return Object.getOwnPropertyNames(Object.prototype).sort();
}

describe("keys named after Object.prototype's members are data", () => {
  it("round-trip byte for byte through the reader and the writer, sorted too, and measure their bytes", () => {
    const before = prototypeSnapshot();
    fc.assert(
      fc.property(compactText, (text) => {
        const value = parseJson(text);
        expect(compact(value)).toBe(text);
        expect(measure(value)).toBe(utf8(text));
        expect(measureText(text)).toBe(utf8(text));
        // Sorting keeps every member: the sorted text is what JSON.parse's own keys give back.
        expect(compact(value, { sortKeys: true }).length).toBe(text.length);
        expect(compact(parseJson(compact(value, { sortKeys: true })), { sortKeys: true })).toBe(
          compact(value, { sortKeys: true }),
        );
      }),
      RUNS,
    );
    expect(prototypeSnapshot()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("are read as members holding exactly what was sent, never as the prototype or Object's constructor", () => {
    const value = parseJson('{"__proto__":"user data","constructor":{"prototype":{"polluted":true}}}');
    expect(isJsonObject(value)).toBe(true);
    if (!isJsonObject(value)) return;
    expect(objectGet(value, "__proto__")).toBe("user data");
    const ctor = objectGet(value, "constructor");
    expect(ctor instanceof Map && ctor.get("prototype") instanceof Map).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Absent members are absent, whatever Object.prototype holds.
    const empty = parseJson("{}");
    if (!isJsonObject(empty)) return;
    for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
      expect(objectGet(empty, name)).toBeUndefined();
      expect(objectGet({}, name)).toBeUndefined();
    }
  });

  it("survive the plain copy as own members: JSON.stringify of the copy is the text again", () => {
    fc.assert(
      fc.property(compactText, (text) => {
        const plain = toPlainJson(parseJson(text));
        // JSON.stringify writes doubles for big integers: compare with JSON.parse's own reading.
        expect(JSON.stringify(plain)).toBe(JSON.stringify(JSON.parse(text)));
        expect(compact(plain as JsonValue)).toBe(compact(JSON.parse(text) as JsonValue));
      }),
      RUNS,
    );
    const copy = toPlainJson(parseJson('{"__proto__":{"polluted":true}}')) as object;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["__proto__"]);
  });

  it("count in the digest: a member named __proto__ changes the arguments' digest", () => {
    fc.assert(
      fc.property(objectText, (text) => {
        const value = parseJson(text);
        expect(argumentsDigest(value)).toBe(argumentsDigest(parseJson(compact(value, { sortKeys: true }))));
        expect(argumentsDigest(value)).not.toBe(argumentsDigest(parseJson('{"doc":null}')));
      }),
      RUNS,
    );
  });

  it("are projected as data: a result that fits is given whole, one that does not is cut like any other", () => {
    fc.assert(
      fc.property(objectText, fc.integer({ min: 1024, max: 2048 }), (text, budget) => {
        const preview = projectResult(parseJson(text), budget);
        expect(preview.original_bytes).toBe(utf8(text));
        if (!preview.truncated) expect(compact(preview.result as JsonValue)).toBe(text);
        else expect(preview.retained_bytes).toBeLessThanOrEqual(budget);
      }),
      RUNS,
    );
    const whole = projectResult(parseJson('{"doc":{"__proto__":"user data"}}'), 1024);
    expect(compact(whole.result as JsonValue)).toBe('{"doc":{"__proto__":"user data"}}');
  });
});
