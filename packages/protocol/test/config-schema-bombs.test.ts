// Regex and schema bombs: patterns run on RE2 in linear time, what RE2 cannot run is refused at its
// pointer, schemas are held to size limits, and argument checks to a work budget.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SCHEMA_LIMITS } from "../src/config/schema-limits.js";
import { compileLinearPattern, PATTERN_LIMITS } from "../src/config/schema-pattern.js";
import { COST_KEYWORD, VALIDATION_WORK_BUDGET } from "../src/config/validation-cost.js";
import { validateArguments, validateToolset } from "../src/index.js";
import { expectProtocolError } from "./config-helpers.js";

/** A "did not hang" bound: generous, far below the tens of seconds the bombs took before. */
const DID_NOT_HANG_MS = 2_000;

const toolWith = (input_schema: unknown) => [{ name: "t", binding_id: "b", input_schema }];
const stringProperty = (schema: Record<string, unknown>) => ({
  type: "object",
  properties: { x: { type: "string", ...schema } },
});

function timed<T>(run: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
}

describe("patterns run on RE2", () => {
  it("checks the catastrophic-backtracking pattern ^(a+)+$ on a 100,000-character input in linear time", () => {
    const [tool] = validateToolset(toolWith(stringProperty({ pattern: "^(a+)+$" })));
    const bomb = `${"a".repeat(100_000)}!`;
    const { value, ms } = timed(() => validateArguments(tool?.input_schema ?? {}, { x: bomb }));
    expect(value).toEqual({ valid: false, errors: [{ pointer: "/x", message: 'must match pattern "^(a+)+$"' }] });
    expect(ms).toBeLessThan(DID_NOT_HANG_MS);
    expect(validateArguments(tool?.input_schema ?? {}, { x: "a".repeat(100_000) })).toEqual({
      valid: true,
      errors: [],
    });
  });

  it.each([
    ["a lookahead", "^(?=a)a$", "lookahead and lookbehind"],
    ["a negative lookbehind", "(?<!x)y", "lookahead and lookbehind"],
    ["a backreference", "^(a)\\1$", "backreferences"],
    ["a named backreference", "^(?<q>a)\\k<q>$", "backreferences"],
    ["more than 1,000 RE2 instructions", "^a{1001}$", "RE2 instructions than the limit"],
    ["nested repetitions", "^(?:(?:a{30}){30}){30}$", "RE2 instructions than the limit"],
    ["an invalid ECMAScript pattern", "(", "not a valid ECMAScript regular expression"],
  ])("refuses %s at the pattern's pointer, saying why", (_, pattern, reason) => {
    const error = expectProtocolError(
      () => validateToolset(toolWith(stringProperty({ pattern }))),
      "invalid_schema",
      "/tools/0/input_schema/properties/x/pattern",
    );
    expect(error.message).toContain(reason);
    expect(error.details).toMatchObject({ field: "input_schema", pattern });
  });

  it("refuses a pattern too large for RE2's budget, naming the instruction limit", () => {
    const error = expectProtocolError(
      () => validateToolset(toolWith(stringProperty({ pattern: "^(?:[a-z]+\\d*){1,300}$" }))),
      "invalid_schema",
      "/tools/0/input_schema/properties/x/pattern",
    );
    expect(error.message).toContain(`limit of ${PATTERN_LIMITS.instructions} per pattern`);
  });

  it("refuses patterns that together would cost too much to compile, at the pattern that passes the limit", () => {
    const repeated = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`p${i}`, { pattern: `^${i}a{900}$` }]));
    const error = expectProtocolError(
      () => validateToolset(toolWith({ type: "object", properties: repeated })),
      "invalid_schema",
      "/tools/0/input_schema/properties/p5/pattern",
    );
    expect(error.message).toContain(`more than ${PATTERN_LIMITS.instructionsInAll} RE2 instructions in all`);
    const escapes = Object.fromEntries(
      Array.from({ length: 3 }, (_, i) => [`p${i}`, { pattern: `^${i}${"\\p{L}".repeat(12)}$` }]),
    );
    expect(
      expectProtocolError(
        () => validateToolset(toolWith({ type: "object", properties: escapes })),
        "invalid_schema",
        "/tools/0/input_schema/properties/p2/pattern",
      ).message,
    ).toContain(`more than ${PATTERN_LIMITS.propertyEscapesInAll} Unicode property escapes`);
    const { ms } = timed(() =>
      expectProtocolError(
        () => validateToolset(toolWith(stringProperty({ pattern: `^${"[\\p{L}\\p{N}]".repeat(1_000)}$` }))),
        "invalid_schema",
        "/tools/0/input_schema/properties/x/pattern",
      ),
    );
    expect(ms).toBeLessThan(DID_NOT_HANG_MS);
  });

  it("points at a patternProperties key and at a propertyNames pattern", () => {
    expectProtocolError(
      () => validateToolset(toolWith({ type: "object", patternProperties: { "^a/(?=b)": {} } })),
      "invalid_schema",
      "/tools/0/input_schema/patternProperties/^a~1(?=b)",
    );
    expectProtocolError(
      () => validateToolset(toolWith({ type: "object", propertyNames: { pattern: "(a)\\1" } })),
      "invalid_schema",
      "/tools/0/input_schema/propertyNames/pattern",
    );
  });

  it("uses RE2 for patternProperties and propertyNames too", () => {
    const [tool] = validateToolset(
      toolWith({
        type: "object",
        patternProperties: { "^(a+)+$": { type: "integer" } },
        propertyNames: { pattern: "^(a|a)+$|^b" },
      }),
    );
    const key = `${"a".repeat(50_000)}!`;
    const { value, ms } = timed(() => validateArguments(tool?.input_schema ?? {}, { [key]: 1, aaaa: "x" }));
    expect(value.valid).toBe(false);
    expect(value.errors).toContainEqual({ pointer: "/aaaa", message: "must be integer" });
    expect(ms).toBeLessThan(DID_NOT_HANG_MS);
  });

  // Patterns whose RE2 spelling differs from their ECMAScript one (`\s`, `.`, escapes, classes).
  const SAFE_PATTERNS = [
    "^\\s+$",
    "\\S",
    "^.$",
    "^.+$",
    "[^\\s]",
    "^[\\s\\d]+$",
    "^[^\\S\\n]+$",
    "^\\d{2,3}$",
    "\\w+",
    "\\bab\\b",
    "^\\u00e9+$",
    "^\\u{1F600}$",
    "^\\uD83D\\uDE00$",
    "^[\\u0041-\\u005A]+$",
    "^\\p{L}+$",
    "\\p{Lu}",
    "^\\p{Script=Greek}+$",
    "\\P{Letter}",
    "^[[:alpha:]+$",
    "^(?<word>ab)+$",
    "^[^]$",
    "[]",
    "^$",
    "\\/",
    "[\\b]",
    "\\cJ",
    "\\x41",
    "\\0",
    "^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$",
    "^\\$\\d+(\\.\\d{2})?$",
    "^[-a]+$",
    "^[a\\-z]+$",
    "a|b|",
    "(?:ab|a)*?b",
  ];
  const ALPHABET = [
    "a",
    "b",
    "z",
    "A",
    "Z",
    "0",
    "5",
    "_",
    "-",
    ".",
    "@",
    "$",
    "/",
    "[",
    ":",
    " ",
    "\t",
    "\n",
    "\r",
    "\v",
    "\b",
    "\u0000",
    "\u00a0",
    "\u2028",
    "\ufeff",
    "é",
    "α",
    "😀",
    "\uD83D",
  ];

  it("agrees with ECMAScript RegExp (u flag) on random strings, for patterns whose RE2 spelling differs", () => {
    const compiled = SAFE_PATTERNS.map((pattern) => {
      const linear = compileLinearPattern(pattern);
      if ("reason" in linear) throw new Error(`${pattern}: ${linear.reason}`);
      return { pattern, linear, native: new RegExp(pattern, "u") };
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...compiled),
        fc.array(fc.constantFrom(...ALPHABET), { maxLength: 12 }).map((chars) => chars.join("")),
        ({ linear, native }, input) => {
          expect(linear.test(input)).toBe(native.test(input));
        },
      ),
      { numRuns: 3_000 },
    );
  });
});

describe("schema size limits", () => {
  const properties = (count: number, schema: unknown = { type: "string" }) =>
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, schema]));
  const nested = (levels: number) => {
    let schema: Record<string, unknown> = { type: "string" };
    for (let i = 1; i < levels; i++) schema = { not: schema };
    return schema;
  };

  it.each([
    // [limit, a schema just over it, the pointer, a schema just under it]
    [
      "bytes",
      { type: "object", description: "x".repeat(SCHEMA_LIMITS.bytes) },
      "/tools/0/input_schema",
      { type: "object", description: "x".repeat(SCHEMA_LIMITS.bytes - 40) },
    ],
    [
      "depth",
      { type: "object", properties: { x: nested(SCHEMA_LIMITS.depth - 1) } },
      `/tools/0/input_schema/properties/x${"/not".repeat(SCHEMA_LIMITS.depth - 2)}`,
      { type: "object", properties: { x: nested(SCHEMA_LIMITS.depth - 2) } },
    ],
    [
      "properties",
      { type: "object", properties: properties(SCHEMA_LIMITS.properties + 1, true) },
      "/tools/0/input_schema/properties",
      { type: "object", properties: properties(SCHEMA_LIMITS.properties, true) },
    ],
    [
      "subschemas",
      { type: "object", allOf: Array.from({ length: SCHEMA_LIMITS.subschemas }, () => ({})) },
      `/tools/0/input_schema/allOf/${SCHEMA_LIMITS.subschemas - 1}`,
      { type: "object", allOf: Array.from({ length: SCHEMA_LIMITS.subschemas - 1 }, () => ({})) },
    ],
    [
      "patterns",
      { type: "object", properties: properties(SCHEMA_LIMITS.patterns + 1, { pattern: "^a+$" }) },
      `/tools/0/input_schema/properties/p${SCHEMA_LIMITS.patterns}/pattern`,
      { type: "object", properties: properties(SCHEMA_LIMITS.patterns, { pattern: "^a+$" }) },
    ],
  ])(
    "refuses a schema over the %s limit with schema_too_large naming it, and accepts one at it",
    (limit, over, pointer, under) => {
      const error = expectProtocolError(() => validateToolset(toolWith(over)), "schema_too_large", pointer);
      expect(error.details).toMatchObject({
        field: "input_schema",
        limit,
        max: SCHEMA_LIMITS[limit as keyof typeof SCHEMA_LIMITS],
      });
      expect(error.message).toContain(`the ${limit} limit`);
      expect(validateToolset(toolWith(under))).toHaveLength(1);
    },
  );

  it("refuses the issue's 5,000-property schema before compiling it, naming the property limit, and in output_schema too", () => {
    const schema = { type: "object", properties: properties(5_000) };
    const { value, ms } = timed(() =>
      expectProtocolError(
        () => validateToolset(toolWith(schema)),
        "schema_too_large",
        "/tools/0/input_schema/properties",
      ),
    );
    expect(value.details).toEqual({
      field: "input_schema",
      limit: "properties",
      max: SCHEMA_LIMITS.properties,
      value: 5_000,
    });
    expect(ms).toBeLessThan(DID_NOT_HANG_MS);
    const error = expectProtocolError(
      () => validateToolset([{ name: "t", binding_id: "b", input_schema: { type: "object" }, output_schema: schema }]),
      "schema_too_large",
      "/tools/0/output_schema/properties",
    );
    expect(error.details).toMatchObject({ field: "output_schema", limit: "properties" });
  });
});

describe("argument checks within a work budget", () => {
  /** A schema of `levels` anyOf levels, each referencing the next level twice: 2^levels paths. */
  const doublingChain = (levels: number) => {
    const $defs: Record<string, unknown> = { [`d${levels}`]: { type: "string" } };
    for (let k = 0; k < levels; k++) {
      $defs[`d${k}`] = { anyOf: [{ $ref: `#/$defs/d${k + 1}` }, { $ref: `#/$defs/d${k + 1}`, minimum: 1 }] };
    }
    const [tool] = validateToolset(toolWith({ type: "object", properties: { x: { $ref: "#/$defs/d0" } }, $defs }));
    return tool?.input_schema ?? {};
  };

  it("stops an anyOf chain that doubles at every level, instead of running out of memory", () => {
    const schema = doublingChain(40);
    for (const x of [5, "s"]) {
      const { value, ms } = timed(() => validateArguments(schema, { x }));
      expect(value).toEqual({
        valid: false,
        errors: [{ pointer: "", message: expect.stringContaining(String(VALIDATION_WORK_BUDGET)) }],
      });
      expect(ms).toBeLessThan(DID_NOT_HANG_MS);
    }
    // A chain of ten levels (1,024 paths) fits the budget and is checked as before.
    expect(validateArguments(doublingChain(10), { x: "s" })).toEqual({ valid: true, errors: [] });
    expect(validateArguments(doublingChain(10), { x: 5 }).errors).toContainEqual({
      pointer: "/x",
      message: "must be string",
    });
  });

  it("answers a $ref cycle that never descends into the data as too costly, not as a crash", () => {
    const [tool] = validateToolset(
      toolWith({
        type: "object",
        properties: { x: { $ref: "#/$defs/a" } },
        $defs: { a: { anyOf: [{ $ref: "#/$defs/a" }, { type: "string" }] } },
      }),
    );
    const result = validateArguments(tool?.input_schema ?? {}, { x: 5 });
    expect(result.valid).toBe(false);
    expect(result.errors[0]?.message).toContain("$ref cycle");
  });

  it("checks uniqueItems in linear time, with Ajv's message", () => {
    const [tool] = validateToolset(
      toolWith({ type: "object", properties: { x: { type: "array", uniqueItems: true } } }),
    );
    const distinct = Array.from({ length: 20_000 }, (_, i) => ({ a: i, b: [i] }));
    const { value, ms } = timed(() => validateArguments(tool?.input_schema ?? {}, { x: distinct }));
    expect(value).toEqual({ valid: true, errors: [] });
    expect(ms).toBeLessThan(DID_NOT_HANG_MS);
    expect(validateArguments(tool?.input_schema ?? {}, { x: [{ a: 1, b: 2 }, 3, { b: 2, a: 1.0 }] })).toEqual({
      valid: false,
      errors: [{ pointer: "/x", message: "must NOT have duplicate items (items ## 2 and 0 are identical)" }],
    });
    expect(validateArguments(tool?.input_schema ?? {}, { x: [1, "1", [1], { a: 1 }] }).valid).toBe(true);
  });

  it("refuses a $ref into data and the reserved cost keyword, which the budget could not see", () => {
    expectProtocolError(
      () =>
        validateToolset(toolWith({ type: "object", default: { anyOf: [] }, properties: { x: { $ref: "#/default" } } })),
      "invalid_schema",
      "/tools/0/input_schema/properties/x/$ref",
    );
    expectProtocolError(
      () => validateToolset(toolWith({ type: "object", properties: { x: { $ref: "#/properties" } } })),
      "invalid_schema",
      "/tools/0/input_schema/properties/x/$ref",
    );
    expectProtocolError(
      () => validateToolset(toolWith({ type: "object", [COST_KEYWORD]: [1, 0, 0] })),
      "invalid_schema",
      `/tools/0/input_schema/${COST_KEYWORD}`,
    );
    // References to subschemas stay accepted, including a property named like a data keyword.
    expect(
      validateToolset(
        toolWith({
          type: "object",
          properties: { default: { type: "string" }, x: { $ref: "#/properties/default" }, y: { $ref: "#/$defs/a" } },
          $defs: { a: { type: "integer" } },
        }),
      ),
    ).toHaveLength(1);
  });
});
