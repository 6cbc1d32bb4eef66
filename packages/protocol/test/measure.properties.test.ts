// Properties of the byte measure (docs/projection.md): for any JSON text, the streaming measure, the measure of
// the parsed value and the UTF-8 length of the compact text agree; key order never changes the count;
// writing is idempotent; sorted output follows code-point order; the digest ignores key order.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  argumentsDigest,
  compact,
  compareCodePoints,
  formatFloat,
  isProtocolError,
  JsonNumber,
  type JsonValue,
  measure,
  measureText,
  parseJson,
  quotedStringBytes,
  quoteString,
} from "../src/index.js";
import { jsonText } from "./json-text-arbitrary.js";

const RUNS = { numRuns: 250 };

function utf8(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

// ---------------------------------------------------------------------------------------------
// Reference implementations.

/** Python's key order: compare code point by code point. */
function referenceCompare(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) as number);
  const y = Array.from(b, (c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  }
  return x.length - y.length;
}

/** -1, 0 or 1 (never -0). */
function sign(n: number): number {
  return n > 0 ? 1 : n < 0 ? -1 : 0;
}

/** A copy of `value` whose objects are rebuilt with `order` applied to their entries. */
function reorder(value: JsonValue, order: (entries: [string, JsonValue][]) => [string, JsonValue][]): JsonValue {
  if (Array.isArray(value)) return value.map((item) => reorder(item, order));
  if (value instanceof Map) {
    return new Map(order([...value.entries()]).map(([k, v]) => [k, reorder(v, order)] as [string, JsonValue]));
  }
  return value;
}

/** Keys of every object in `value` are in strictly increasing code-point order. */
function keysSorted(value: JsonValue): boolean {
  if (Array.isArray(value)) return value.every(keysSorted);
  if (value instanceof Map) {
    const keys = [...value.keys()];
    for (let i = 1; i < keys.length; i++)
      if (referenceCompare(keys[i - 1] as string, keys[i] as string) >= 0) return false;
    return [...value.values()].every(keysSorted);
  }
  return true;
}

/** What `JSON.parse` and `parseJson` must agree on: structure, strings, and numbers as doubles. */
function comparable(value: unknown): unknown {
  if (value instanceof JsonNumber) return Number(value.lexeme);
  if (Array.isArray(value)) return value.map(comparable);
  if (value instanceof Map) {
    return [...value.entries()].map(([k, v]) => [k, comparable(v)]).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  }
  if (typeof value === "object" && value !== null) {
    return Object.entries(value)
      .map(([k, v]) => [k, comparable(v)])
      .sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1));
  }
  return value;
}

/** A deterministic shuffle driven by `seed`. */
function shuffler(seed: number): (entries: [string, JsonValue][]) => [string, JsonValue][] {
  let state = seed >>> 0 || 1;
  return (entries) => {
    const copy = [...entries];
    for (let i = copy.length - 1; i > 0; i--) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      const j = state % (i + 1);
      [copy[i], copy[j]] = [copy[j] as [string, JsonValue], copy[i] as [string, JsonValue]];
    }
    return copy;
  };
}

// ---------------------------------------------------------------------------------------------

describe("measure agrees with itself three ways", () => {
  it("generated JSON text: measureText = measure(parseJson) = UTF-8 of compact, sorted or not", () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const value = parseJson(text);
        const bytes = measure(value);
        expect(measureText(text)).toBe(bytes);
        expect(utf8(compact(value))).toBe(bytes);
        expect(utf8(compact(value, { sortKeys: true }))).toBe(bytes);
      }),
      RUNS,
    );
  });

  it("generated JSON text reads like JSON.parse (strings, structure, duplicate keys, doubles)", () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        expect(comparable(parseJson(text))).toEqual(comparable(JSON.parse(text)));
      }),
      RUNS,
    );
  });

  it.each([
    ["ASCII", {}],
    ["any code point", { stringUnit: "binary" }],
    ["graphemes", { stringUnit: "grapheme" }],
  ] as const)("fc.jsonValue (%s) through JSON.stringify", (_, constraints) => {
    fc.assert(
      fc.property(fc.jsonValue(constraints), fc.boolean(), (plain, pretty) => {
        const text = pretty ? JSON.stringify(plain, null, 2) : JSON.stringify(plain);
        const value = parseJson(text);
        const bytes = measure(value);
        expect(measureText(text)).toBe(bytes);
        expect(utf8(compact(value))).toBe(bytes);
        expect(utf8(compact(value, { sortKeys: true }))).toBe(bytes);
      }),
      RUNS,
    );
  });

  it("the parsed value and the plain value measure the same when numbers are safe", () => {
    // Plain JS numbers beyond the safe integers are written as floats, so keep to safe integers.
    const onlySafe = (v: unknown): unknown => {
      if (typeof v === "number") return Number.isSafeInteger(v) && !Object.is(v, -0) ? v : 7;
      if (Array.isArray(v)) return v.map(onlySafe);
      if (v !== null && typeof v === "object")
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, onlySafe(x)]));
      return v;
    };
    const safe = fc.jsonValue({ stringUnit: "binary" }).map(onlySafe);
    fc.assert(
      fc.property(safe, (plain) => {
        const value = parseJson(JSON.stringify(plain));
        expect(measure(plain as JsonValue)).toBe(measure(value));
        expect(compact(plain as JsonValue, { sortKeys: true })).toBe(compact(value, { sortKeys: true }));
      }),
      RUNS,
    );
  });
});

describe("writing is idempotent", () => {
  it("parseJson(compact(v)) writes the same text again, sorted or not", () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const value = parseJson(text);
        const once = compact(value);
        expect(compact(parseJson(once))).toBe(once);
        expect(measureText(once)).toBe(utf8(once));
        const sorted = compact(value, { sortKeys: true });
        expect(compact(parseJson(sorted), { sortKeys: true })).toBe(sorted);
        expect(compact(parseJson(sorted))).toBe(sorted);
      }),
      RUNS,
    );
  });
});

describe("key order", () => {
  it("sorted output orders every object's keys by code point", () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const value = parseJson(text);
        const sorted = compact(value, { sortKeys: true });
        expect(keysSorted(parseJson(sorted))).toBe(true);
        const reference = reorder(value, (entries) => [...entries].sort((a, b) => referenceCompare(a[0], b[0])));
        expect(compact(reference)).toBe(sorted);
      }),
      RUNS,
    );
  });

  it("the reader keeps the sender's key order (first occurrence of each key)", () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const check = (parsed: JsonValue, plain: unknown): void => {
          if (parsed instanceof Map) {
            const keys: string[] = [];
            // JSON.parse keeps first-occurrence order too, except that it moves integer-like keys first.
            for (const key of Object.keys(plain as object)) keys.push(key);
            const integerLike = (k: string): boolean => /^(0|[1-9]\d*)$/.test(k) && Number(k) < 2 ** 32 - 1;
            expect([...parsed.keys()].filter((k) => !integerLike(k))).toEqual(keys.filter((k) => !integerLike(k)));
            for (const [k, v] of parsed) check(v, (plain as Record<string, unknown>)[k]);
          } else if (Array.isArray(parsed)) {
            parsed.forEach((item, i) => {
              check(item, (plain as unknown[])[i]);
            });
          }
        };
        check(parseJson(text), JSON.parse(text));
      }),
      RUNS,
    );
  });

  const orderingUnit = fc.constantFrom(
    "a",
    "b",
    "\u00ff",
    "中",
    "\ud7ff",
    "\ue000",
    "\uffff",
    "😀",
    "𐀀",
    "\u{10ffff}",
    "",
  );
  it.each([
    ["any code points", fc.string({ unit: "binary", maxLength: 6 })],
    ["characters around the surrogate range", fc.string({ unit: orderingUnit, maxLength: 4 })],
  ])("compareCodePoints has the sign of the code-point comparison (%s)", (_, strings) => {
    fc.assert(
      fc.property(strings, strings, (a, b) => {
        expect(sign(compareCodePoints(a, b))).toBe(sign(referenceCompare(a, b)));
        expect(sign(compareCodePoints(b, a))).toBe(0 - sign(compareCodePoints(a, b)));
        expect(compareCodePoints(a, a)).toBe(0);
      }),
      { numRuns: 2000 },
    );
  });

  it("puts an astral character after U+E000–U+FFFF, unlike UTF-16 order", () => {
    const keys = ["\uffff", "😀", "\ue000", "z", "\ud7ff"];
    expect([...keys].sort(compareCodePoints)).toEqual(["z", "\ud7ff", "\ue000", "\uffff", "😀"]);
    expect(compact(new Map(keys.map((k) => [k, 0] as [string, JsonValue])), { sortKeys: true })).toBe(
      '{"z":0,"\ud7ff":0,"\ue000":0,"\uffff":0,"😀":0}',
    );
  });

  it("argumentsDigest does not depend on key order", () => {
    fc.assert(
      fc.property(jsonText, fc.integer(), (text, seed) => {
        const value = parseJson(text);
        const shuffled = reorder(value, shuffler(seed));
        const reversed = reorder(value, (entries) => [...entries].reverse());
        const digest = argumentsDigest(value);
        expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
        expect(argumentsDigest(shuffled)).toBe(digest);
        expect(argumentsDigest(reversed)).toBe(digest);
        expect(argumentsDigest(parseJson(compact(reversed)))).toBe(digest);
      }),
      RUNS,
    );
  });

  it("argumentsDigest tells different arguments apart", () => {
    const a = parseJson('{"id":1,"name":"x"}');
    expect(argumentsDigest(a)).not.toBe(argumentsDigest(parseJson('{"id":1,"name":"y"}')));
    expect(argumentsDigest(a)).not.toBe(argumentsDigest(parseJson('{"id":1.0,"name":"x"}')));
    expect(argumentsDigest(a)).toBe(argumentsDigest(parseJson('{ "name" : "x" , "id" : 1 }')));
  });
});

describe("strings and numbers", () => {
  it("quoteString escapes exactly as JSON.stringify does for well-formed strings", () => {
    const unit = fc.oneof(
      fc.constantFrom('"', "\\", "\u007f", "\u2028", "/"),
      fc.integer({ min: 0, max: 0x20 }).map((c) => String.fromCharCode(c)),
      fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 20 }), (s) => {
        expect(quoteString(s)).toBe(JSON.stringify(s));
        expect(quotedStringBytes(s)).toBe(utf8(JSON.stringify(s)));
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses a JS string with a lone surrogate wherever it is", () => {
    for (const value of ["\ud800", ["ok", "a\udfffb"], new Map([["k", "\ud83d"]])] as JsonValue[]) {
      for (const attempt of [() => compact(value), () => measure(value), () => argumentsDigest(value)]) {
        let caught: unknown;
        try {
          attempt();
        } catch (error) {
          caught = error;
        }
        expect(isProtocolError(caught) && caught.code).toBe("lone_surrogate");
      }
    }
    let caught: unknown;
    try {
      compact(new Map<string, JsonValue>([["k", ["x", "\ud83d"]]]));
    } catch (error) {
      caught = error;
    }
    expect(isProtocolError(caught) && caught.pointer).toBe("/k/1");
  });

  it("formatFloat round-trips and follows repr's notation rules", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const text = formatFloat(x);
        expect(Object.is(Number(text), x)).toBe(true);
        const magnitude = Math.abs(x);
        if (magnitude !== 0 && (magnitude < 1e-4 || magnitude >= 1e16)) {
          expect(text).toMatch(/^-?\d(\.\d+)?e[+-]\d{2,3}$/);
        } else {
          expect(text).toMatch(/^-?\d+\.\d+$/);
        }
        // The same shortest digits ECMAScript picks.
        const digits = (s: string): string =>
          s
            .replace(/e.*$/, "")
            .replace(/[-.]/g, "")
            .replace(/^0+|0+$/g, "");
        expect(digits(text)).toBe(digits(x.toExponential()));
        expect(measureText(text)).toBe(text.length);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("parseJson and measureText refuse the same inputs", () => {
  const outcome = (read: () => unknown): string => {
    try {
      read();
      return "ok";
    } catch (error) {
      if (!isProtocolError(error)) throw error;
      return `${error.code} ${error.pointer}`;
    }
  };
  it("after random damage to valid text, both accept (and agree) or both refuse with the same code and pointer", () => {
    const damage = fc.tuple(
      jsonText,
      fc.nat(),
      fc.nat({ max: 3 }),
      fc.constantFrom(
        "",
        '"',
        "\\",
        ",",
        "]",
        "}",
        "{",
        "[",
        ":",
        "0",
        "-",
        "e",
        ".",
        "\ud800",
        "\udc00",
        "\u0001",
        " ",
      ),
    );
    fc.assert(
      fc.property(damage, ([text, at, remove, insert]) => {
        const i = text.length === 0 ? 0 : at % text.length;
        const damaged = text.slice(0, i) + insert + text.slice(i + remove);
        const parsed = outcome(() => parseJson(damaged));
        expect(outcome(() => measureText(damaged))).toBe(parsed);
        if (parsed === "ok") expect(measureText(damaged)).toBe(measure(parseJson(damaged)));
      }),
      { numRuns: 300 },
    );
  });
});
