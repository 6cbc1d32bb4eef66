// Unit tests of the lossless reader (`parseJson`) and the streaming measure (`measureText`): what
// they refuse (code and JSON pointer), the Python limits they mirror, duplicate keys, and the
// canonical number text. The two must always agree, so most cases run through both.
import { describe, expect, it } from "vitest";
import {
  compact,
  formatFloat,
  isProtocolError,
  JsonNumber,
  type JsonValue,
  MAX_INTEGER_DIGITS,
  MAX_JSON_DEPTH,
  measure,
  measureText,
  type ProtocolError,
  parseJson,
} from "../src/index.js";

/** Both readers of JSON text: each must refuse and accept exactly the same inputs. */
const READERS = [
  ["parseJson", (text: string): unknown => parseJson(text)],
  ["measureText", (text: string): unknown => measureText(text)],
] as const;

/** Runs `attempt` and answers the ProtocolError it throws (fails the test when it throws nothing else). */
function refusal(attempt: () => unknown): ProtocolError {
  let caught: unknown;
  try {
    attempt();
  } catch (error) {
    caught = error;
  }
  expect(isProtocolError(caught), `expected a ProtocolError, got ${String(caught)}`).toBe(true);
  return caught as ProtocolError;
}

/** Asserts that both readers refuse `text` with `code` (and `pointer`, when given). */
function expectRefused(text: string, code: string, pointer?: string): void {
  for (const [name, read] of READERS) {
    const error = refusal(() => read(text));
    expect(error.code, `${name} code for ${JSON.stringify(text.slice(0, 60))}`).toBe(code);
    if (pointer !== undefined) expect(error.pointer, `${name} pointer`).toBe(pointer);
  }
}

/** The reference byte count: the UTF-8 of the compact writer's output. */
function utf8(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

describe("syntax errors are invalid_json", () => {
  const cases: [string, string][] = [
    ["unterminated string", '"abc'],
    ["unterminated string in an object", '{"a":"b'],
    ["unterminated string after an escape", '"ab\\'],
    ["bad escape", '"\\x"'],
    ["bad escape \\'", '"\\\'"'],
    ["short \\u escape", '"\\u12"'],
    ["non-hex \\u escape", '"\\u12g4"'],
    ["trailing comma in an array", "[1,]"],
    ["trailing comma in an object", '{"a":1,}'],
    ["leading zero", "01"],
    ["leading zero in an array", "[01]"],
    ["negative leading zero", "-01"],
    ["NaN", "NaN"],
    ["Infinity", "Infinity"],
    ["-Infinity", "-Infinity"],
    ["NaN in an array", "[1,NaN]"],
    ["raw tab in a string", '"a\tb"'],
    ["raw newline in a string", '"a\nb"'],
    ["raw NUL in a string", '"a\u0000b"'],
    ["raw U+001F in a string", '"\u001f"'],
    ["trailing text", "{} x"],
    ["two values", "[] []"],
    ["trailing text after a number", "1 2"],
    ["empty input", ""],
    ["whitespace only", " \n\t\r "],
    ["byte order mark", "\ufeff{}"],
    ["non-JSON whitespace", "\u00a0[]"],
    ["missing colon", '{"a" 1}'],
    ["missing value", '{"a":}'],
    ["bare key", "{a:1}"],
    ["single quotes", "'a'"],
    ["missing comma", "[1 2]"],
    ["unclosed array", "[1,2"],
    ["unclosed object", '{"a":1'],
    ["lone minus", "-"],
    ["plus sign", "+1"],
    ["leading dot", ".5"],
    ["trailing dot", "1."],
    ["empty exponent", "1e"],
    ["signed empty exponent", "1e+"],
    ["hex number", "0x10"],
    ["truncated literal", "tru"],
    ["capitalised literal", "True"],
    ["literal with a suffix", "nulls"],
    ["comment", "[1] // c"],
  ];
  it.each(cases)("%s", (_, text) => {
    expectRefused(text, "invalid_json");
  });

  it("says where: the offset and the pointer of the value being read", () => {
    for (const [, read] of READERS) {
      const error = refusal(() => read('{"a":[1,]}'));
      expect(error.details).toEqual({ offset: 8 });
      expect(error.pointer).toBe("/a/1");
      expect(error.status).toBe(400);
      expect(error.message).toContain("offset 8");
    }
  });
});

describe("lone surrogates are refused with their JSON pointer", () => {
  const cases: [string, string, string][] = [
    ["escaped high surrogate", '"\\ud800"', ""],
    ["escaped low surrogate", '"\\udc00"', ""],
    ["escaped high then an escaped non-low", '"\\ud800\\u0041"', ""],
    ["escaped high then an escaped high", '"\\ud800\\ud800"', ""],
    ["escaped high then a plain letter", '"\\ud800x"', ""],
    ["escaped high then a short escape", '"\\ud800\\n"', ""],
    ["escaped high at the end of the string", '"a\\uD83D"', ""],
    ["escaped low then escaped high (reversed pair)", '"\\ude00\\ud83d"', ""],
    ["escaped high then a raw low", '"\\ud83d\ude00"', ""],
    ["raw high surrogate", '"\ud800"', ""],
    ["raw low surrogate", '"a\udc00b"', ""],
    ["raw high then ASCII", '"\ud83dx"', ""],
    ["raw reversed pair", '"\ude00\ud83d"', ""],
    ["in an array", '{"a":[0,"\\ud800"]}', "/a/1"],
    ["raw, in an array", '{"a":[0,"\ud800"]}', "/a/1"],
    ["after an escape in the same string", '{"a":["x","\\n\ud800"]}', "/a/1"],
    ["under a key with / and ~", '{"a/b~c":"\\udc00"}', "/a~1b~0c"],
    ["under a key with ~1 literally", '{"~1":{"x":["\\ud800"]}}', "/~01/x/0"],
    ["deep", '[[{"k":[1,2,{"z":"\\udfff"}]}]]', "/0/0/k/2/z"],
    ["in a key (the pointer names the object)", '{"ok":{"\\ud800":1}}', "/ok"],
  ];
  it.each(cases)("%s", (_, text, pointer) => {
    expectRefused(text, "lone_surrogate", pointer);
  });

  it("accepts escaped and raw surrogate pairs, in either hex case", () => {
    for (const text of ['"\\ud83d\\ude00"', '"\\uD83D\\uDE00"', '"😀"', '"\\ud83d\\uDE00x"']) {
      const value = parseJson(text);
      expect(typeof value === "string" && value.startsWith("😀")).toBe(true);
      expect(measureText(text)).toBe(utf8(compact(value)));
    }
  });

  it("the error is a 422 with the pointer in its body", () => {
    const error = refusal(() => parseJson('{"a":["\\ud800"]}'));
    expect(error.status).toBe(422);
    expect(error.toBody().error).toMatchObject({ code: "lone_surrogate", pointer: "/a/0" });
  });
});

describe("numbers Python refuses", () => {
  it.each([
    ["1e400", ""],
    ["-1e309", ""],
    ["1.8e308", ""],
    ['{"n":[1,1e400]}', "/n/1"],
    ['{"x":{"y":-1E+999}}', "/x/y"],
  ])("%s is number_out_of_range", (text, pointer) => {
    expectRefused(text, "number_out_of_range", pointer);
  });

  it("keeps numbers that round to the largest double or to zero", () => {
    expect(compact(parseJson("1.7976931348623157e308"))).toBe("1.7976931348623157e+308");
    expect(compact(parseJson("1e-400"))).toBe("0.0");
    expect(compact(parseJson("-1e-400"))).toBe("-0.0");
    expect(measureText("1e-400")).toBe(3);
    expect(measureText("-1e-400")).toBe(4);
  });

  it(`accepts an integer of ${MAX_INTEGER_DIGITS} digits and refuses ${MAX_INTEGER_DIGITS + 1}`, () => {
    expect(MAX_INTEGER_DIGITS).toBe(4300);
    const longest = `9${"0".repeat(MAX_INTEGER_DIGITS - 1)}`;
    expect(compact(parseJson(longest))).toBe(longest);
    expect(measureText(longest)).toBe(4300);
    // The sign is not a digit (as in Python).
    expect(measureText(`-${longest}`)).toBe(4301);
    expect(compact(parseJson(`[-${longest}]`))).toBe(`[-${longest}]`);
    expectRefused(`${longest}1`, "integer_too_long", "");
    expectRefused(`-${longest}1`, "integer_too_long", "");
    expectRefused(`{"big":[${longest}1]}`, "integer_too_long", "/big/0");
  });

  it("applies the digit limit to integers only: a long float lexeme is fine", () => {
    const lexeme = `1${"0".repeat(MAX_INTEGER_DIGITS)}.5e-4300`;
    expect(compact(parseJson(lexeme))).toBe("1.0");
    expect(measureText(lexeme)).toBe(3);
  });
});

describe("nesting depth", () => {
  const arrays = (depth: number): string => `${"[".repeat(depth)}${"]".repeat(depth)}`;
  const objects = (depth: number): string => `${'{"a":'.repeat(depth - 1)}{}${"}".repeat(depth - 1)}`;
  const mixed = (depth: number): string => {
    let open = "";
    let close = "";
    for (let i = 0; i < depth - 1; i++) {
      open += i % 2 === 0 ? '{"k":' : "[";
      close = (i % 2 === 0 ? "}" : "]") + close;
    }
    return `${open}[]${close}`;
  };

  it.each([
    ["arrays", arrays],
    ["objects", objects],
    ["arrays and objects", mixed],
  ])(`accepts ${MAX_JSON_DEPTH} levels of %s and refuses one more`, (_, build) => {
    expect(MAX_JSON_DEPTH).toBe(995);
    const deepest = build(MAX_JSON_DEPTH);
    const value = parseJson(deepest);
    expect(compact(value)).toBe(deepest);
    expect(measure(value)).toBe(deepest.length);
    expect(measureText(deepest)).toBe(deepest.length);
    expectRefused(build(MAX_JSON_DEPTH + 1), "nesting_too_deep");
  });

  it("names the container that is one too deep", () => {
    expectRefused(arrays(MAX_JSON_DEPTH + 1), "nesting_too_deep", "/0".repeat(MAX_JSON_DEPTH));
    expectRefused(objects(MAX_JSON_DEPTH + 1), "nesting_too_deep", "/a".repeat(MAX_JSON_DEPTH));
  });

  it("refuses 100,000 levels without overflowing the stack", () => {
    expectRefused("[".repeat(100_000), "nesting_too_deep");
    expectRefused(arrays(100_000), "nesting_too_deep");
    expectRefused('{"a":'.repeat(100_000), "nesting_too_deep");
    const error = refusal(() => parseJson(`[${'{"a":['.repeat(50_000)}`));
    expect(error.code).toBe("nesting_too_deep");
    expect(error.status).toBe(422);
  });
});

describe("duplicate keys: the last value in the first key's place", () => {
  const cases: [string, string, string][] = [
    ["flat", '{"a":1,"b":2,"a":3}', '{"a":3,"b":2}'],
    ["three times", '{"a":1,"a":22,"b":0,"a":333}', '{"a":333,"b":0}'],
    ["the same key written two ways", '{"a":1,"\\u0061":"xyz"}', '{"a":"xyz"}'],
    ["nested, inner duplicates", '{"x":{"a":1,"a":{"b":1,"b":22}},"y":0}', '{"x":{"a":{"b":22}},"y":0}'],
    ["nested, outer duplicate with inner ones", '{"a":{"a":1,"a":2},"a":{"c":333,"c":4}}', '{"a":{"c":4}}'],
    ["a longer value replaces a shorter one", '{"k":"","k":"中文😀","z":null}', '{"k":"中文😀","z":null}'],
    [
      "in objects inside arrays",
      '[{"a":1,"a":2},{"a":3},{"b":[{"c":1,"c":[1,2,3]}]}]',
      '[{"a":2},{"a":3},{"b":[{"c":[1,2,3]}]}]',
    ],
    ["keys equal to the parent's", '{"a":{"a":{"a":1,"a":2},"a":3},"b":4}', '{"a":{"a":3},"b":4}'],
    ["empty object as the last value", '{"a":{"q":1},"a":{}}', '{"a":{}}'],
  ];
  it.each(cases)("%s", (_, text, expected) => {
    const value = parseJson(text);
    expect(compact(value)).toBe(expected);
    expect(measure(value)).toBe(utf8(expected));
    expect(measureText(text)).toBe(utf8(expected));
  });

  it("objects with more than 12 members (the Set path), flat and nested", () => {
    const members = Array.from({ length: 20 }, (_, i) => `"k${i}":${i}`);
    const text = `{${members.join(",")},"k3":"three","k15":[15,15],"k3":null}`;
    const expected = `{${members.map((m, i) => (i === 3 ? '"k3":null' : i === 15 ? '"k15":[15,15]' : m)).join(",")}}`;
    expect(compact(parseJson(text))).toBe(expected);
    expect(measureText(text)).toBe(expected.length);

    // An outer object that itself takes the Set path, holding inner objects that do too.
    const fillers = Array.from({ length: 12 }, (_, i) => `"m${i}":{"d":1,"d":${i}}`);
    const fillersExpected = Array.from({ length: 12 }, (_, i) => `"m${i}":{"d":${i}}`);
    const nested = `{"outer":${text},${fillers.join(",")},"k3":${text},"outer":[${text}]}`;
    const nestedExpected = `{"outer":[${expected}],${fillersExpected.join(",")},"k3":${expected}}`;
    expect(compact(parseJson(nested))).toBe(nestedExpected);
    expect(measureText(nested)).toBe(nestedExpected.length);
  });

  it("no duplicates in a large object: nothing collapses", () => {
    const text = `{${Array.from({ length: 30 }, (_, i) => `"key${i}" : [ ${i} ]`).join(" , ")}}`;
    const expected = `{${Array.from({ length: 30 }, (_, i) => `"key${i}":[${i}]`).join(",")}}`;
    expect(measureText(text)).toBe(expected.length);
    expect(compact(parseJson(text))).toBe(expected);
  });

  it("keys that differ only after an escape are different keys", () => {
    const text = '{"a\\n":1,"a\\t":2,"a":3}';
    expect(measureText(text)).toBe(utf8('{"a\\n":1,"a\\t":2,"a":3}'));
    expect([...(parseJson(text) as Map<string, JsonValue>).keys()]).toEqual(["a\n", "a\t", "a"]);
  });
});

describe("numbers keep their lexeme and write Python's text", () => {
  it("keeps the lexeme and whether it is an integer", () => {
    const value = parseJson("[1.50,12345678901234567890,-0,1E+2,0.0]") as JsonNumber[];
    expect(value.map((n) => n instanceof JsonNumber)).toEqual([true, true, true, true, true]);
    expect(value.map((n) => n.lexeme)).toEqual(["1.50", "12345678901234567890", "-0", "1E+2", "0.0"]);
    expect(value.map((n) => n.isInteger)).toEqual([false, true, true, false, false]);
    expect(value.map((n) => n.canonical)).toEqual(["1.5", "12345678901234567890", "0", "100.0", "0.0"]);
    expect(value.map((n) => String(n))).toEqual(["1.5", "12345678901234567890", "0", "100.0", "0.0"]);
    expect(Number(value[0])).toBe(1.5);
    expect(JSON.stringify(value[3])).toBe("100");
  });

  it.each([
    ["0", "0"],
    ["-0", "0"],
    ["12345678901234567890", "12345678901234567890"],
    ["-12345678901234567890", "-12345678901234567890"],
    ["1.0", "1.0"],
    ["1e5", "100000.0"],
    ["1E+2", "100.0"],
    ["1e16", "1e+16"],
    ["1e15", "1000000000000000.0"],
    ["1.5e-7", "1.5e-07"],
    ["0.0001", "0.0001"],
    ["0.00001", "1e-05"],
    ["-0.0", "-0.0"],
    ["0e0", "0.0"],
    ["-0e-5", "-0.0"],
    ["1e-400", "0.0"],
    ["1.50", "1.5"],
    ["100.000", "100.0"],
    ["0.1e1", "1.0"],
    ["123456789012345678901234567890.0", "1.2345678901234568e+29"],
    ["9007199254740993.0", "9007199254740992.0"],
    ["2.5E-5", "2.5e-05"],
    ["1e308", "1e+308"],
    ["5e-324", "5e-324"],
    ["4.9e-324", "5e-324"],
  ])("%s is written %s", (lexeme, canonical) => {
    expect(compact(parseJson(lexeme))).toBe(canonical);
    expect(measureText(lexeme)).toBe(canonical.length);
    expect(measureText(` [ ${lexeme} ] `)).toBe(canonical.length + 2);
    expect(measure(parseJson(lexeme))).toBe(canonical.length);
  });
});

describe("formatFloat is Python's repr", () => {
  // Each pair was printed by CPython 3.11's repr(float(...)).
  const reprs: [string, string][] = [
    ["1e16", "1e+16"],
    ["1e15", "1000000000000000.0"],
    ["9999999999999998", "9999999999999998.0"],
    ["0.0001", "0.0001"],
    ["0.00001", "1e-05"],
    ["0.00009999999999999999", "9.999999999999999e-05"],
    ["1.5e-7", "1.5e-07"],
    ["5e-324", "5e-324"],
    ["2.2250738585072014e-308", "2.2250738585072014e-308"],
    ["1.7976931348623157e308", "1.7976931348623157e+308"],
    ["0.1", "0.1"],
    ["0.30000000000000004", "0.30000000000000004"],
    ["1e22", "1e+22"],
    ["1e21", "1e+21"],
    ["1e-7", "1e-07"],
    ["123456789.123", "123456789.123"],
    ["9007199254740993", "9007199254740992.0"],
    ["12345678901234567890", "1.2345678901234567e+19"],
    ["-1.25e-5", "-1.25e-05"],
    ["100", "100.0"],
    ["0.3333333333333333", "0.3333333333333333"],
    ["-0", "-0.0"],
    ["0", "0.0"],
    ["123e-20", "1.23e-18"],
    ["1e100", "1e+100"],
    ["4.35", "4.35"],
    ["2.5e-5", "2.5e-05"],
    ["0.5", "0.5"],
    ["1234567890123456.7", "1234567890123456.8"],
    ["12345678901234567", "1.2345678901234568e+16"],
  ];
  it.each(reprs)("%s → %s", (x, repr) => {
    expect(formatFloat(Number(x))).toBe(repr);
  });

  it("plain JS numbers: safe integers as integers, the rest as floats", () => {
    expect(compact([0, -0, 1.5, 2 ** 53 - 1, 2 ** 53, 1e21])).toBe(
      "[0,-0.0,1.5,9007199254740991,9007199254740992.0,1e+21]",
    );
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(refusal(() => compact({ a: [bad] })).code).toBe("number_out_of_range");
      expect(refusal(() => compact({ a: [bad] })).pointer).toBe("/a/0");
      expect(refusal(() => measure([bad])).code).toBe("number_out_of_range");
    }
  });
});

describe("strings and whitespace", () => {
  it("writes only quote, backslash and controls escaped; U+007F, U+2028, U+2029 and non-ASCII raw", () => {
    const text = '"\\"\\\\\\/\\b\\f\\n\\r\\t\\u0000\\u001F\\u007f\\u2028\\u2029\u2028é中😀\\u00e9"';
    const expected = '"\\"\\\\/\\b\\f\\n\\r\\t\\u0000\\u001f\u007f\u2028\u2029\u2028é中😀é"';
    expect(compact(parseJson(text))).toBe(expected);
    expect(measureText(text)).toBe(utf8(expected));
  });

  it("takes JSON whitespace anywhere between tokens", () => {
    const text = ' \t\n\r{ "a" :\n[ 1 ,\t2 ] ,\r"b" : { } , "c" : [ ] }\n ';
    expect(compact(parseJson(text))).toBe('{"a":[1,2],"b":{},"c":[]}');
    expect(measureText(text)).toBe(25);
  });

  it("measures raw non-ASCII by its UTF-8 bytes", () => {
    expect(measureText('"é"')).toBe(4);
    expect(measureText('"中"')).toBe(5);
    expect(measureText('"😀"')).toBe(6);
    expect(measureText('{"中":"😀"}')).toBe(14);
  });
});
