// Tool-call arguments against a tool's input schema: JSON pointers into the arguments, Ajv's
// messages, deterministic results, and schemas compiled once per text.
import { describe, expect, it } from "vitest";
import { MAX_ARGUMENT_ERRORS, parseJson, validateArguments, validateToolDefinition } from "../src/index.js";
import { expectProtocolError } from "./config-helpers.js";

const ORDER_SCHEMA = {
  type: "object",
  properties: {
    id: { type: "string", pattern: "^ord-[0-9]+$" },
    items: {
      type: "array",
      items: {
        type: "object",
        properties: { sku: { type: "string" }, qty: { type: "integer", minimum: 1 } },
        required: ["sku", "qty"],
      },
    },
    note: { type: "string", maxLength: 5 },
  },
  required: ["id"],
  additionalProperties: false,
};

describe("validateArguments", () => {
  it("accepts the seed's dry-run arguments for the seed's tool", () => {
    const tool = validateToolDefinition({
      name: "tasks.read",
      binding_id: "binding_example",
      input_schema: { type: "object", properties: { cursor: { type: "string" } } },
    });
    expect(validateArguments(tool.input_schema, {})).toEqual({ valid: true, errors: [] });
    expect(validateArguments(tool.input_schema, { cursor: "page-2" })).toEqual({ valid: true, errors: [] });
    expect(validateArguments(tool.input_schema, { cursor: 2 })).toEqual({
      valid: false,
      errors: [{ pointer: "/cursor", message: "must be string" }],
    });
  });

  it("accepts valid arguments", () => {
    const args = { id: "ord-1", items: [{ sku: "a", qty: 2 }], note: "hi" };
    expect(validateArguments(ORDER_SCHEMA, args)).toEqual({ valid: true, errors: [] });
  });

  it("reports every error with a pointer into the arguments", () => {
    const args = {
      id: "x",
      items: [{ sku: "a", qty: 1 }, { sku: 5, qty: 0 }, { qty: 1 }],
      note: "too long",
      colour: "red",
    };
    expect(validateArguments(ORDER_SCHEMA, args)).toEqual({
      valid: false,
      errors: [
        { pointer: "/colour", message: "must NOT have property 'colour' (additionalProperties)" },
        { pointer: "/id", message: 'must match pattern "^ord-[0-9]+$"' },
        { pointer: "/items/1/sku", message: "must be string" },
        { pointer: "/items/1/qty", message: "must be >= 1" },
        { pointer: "/items/2/sku", message: "must have required property 'sku'" },
        { pointer: "/note", message: "must NOT have more than 5 characters" },
      ],
    });
  });

  it("points a missing required property at where it belongs", () => {
    expect(validateArguments(ORDER_SCHEMA, {}).errors).toEqual([
      { pointer: "/id", message: "must have required property 'id'" },
    ]);
  });

  it("escapes property names in pointers (RFC 6901)", () => {
    const schema = {
      type: "object",
      properties: { "a/b": { type: "string" }, "c~d": { type: "string" } },
      additionalProperties: false,
    };
    expect(validateArguments(schema, { "a/b": 1, "c~d": 2, "e/f": 3 }).errors).toEqual([
      { pointer: "/e~1f", message: "must NOT have property 'e/f' (additionalProperties)" },
      { pointer: "/a~1b", message: "must be string" },
      { pointer: "/c~0d", message: "must be string" },
    ]);
  });

  it.each([[[]], ["text"], [null], [3]])("refuses %j as arguments at the root pointer", (args) => {
    expect(validateArguments(ORDER_SCHEMA, args)).toEqual({
      valid: false,
      errors: [{ pointer: "", message: "must be object" }],
    });
  });

  it("points unevaluatedProperties and dependentRequired errors at the property", () => {
    const schema = {
      type: "object",
      properties: { card: { type: "string" }, cvc: { type: "string" } },
      dependentRequired: { card: ["cvc"] },
      unevaluatedProperties: false,
    };
    expect(validateArguments(schema, { card: "4111", extra: true }).errors).toEqual([
      { pointer: "/cvc", message: "must have property cvc when property card is present" },
      { pointer: "/extra", message: "must NOT have property 'extra' (unevaluatedProperties)" },
    ]);
  });

  it("asserts known formats and ignores unknown ones", () => {
    const schema = {
      type: "object",
      properties: { at: { type: "string", format: "date-time" }, body: { type: "string", format: "markdown" } },
    };
    expect(validateArguments(schema, { at: "2026-09-30T10:00:00Z", body: "# x" }).valid).toBe(true);
    expect(validateArguments(schema, { at: "yesterday" }).errors).toEqual([
      { pointer: "/at", message: 'must match format "date-time"' },
    ]);
  });

  it("validates the lossless reader's output (Maps, big integers)", () => {
    const schema = { type: "object", properties: { n: { type: "integer" }, m: { type: "object", required: ["k"] } } };
    expect(validateArguments(schema, parseJson('{"n":12345678901234567890,"m":{"k":1}}'))).toEqual({
      valid: true,
      errors: [],
    });
    expect(validateArguments(schema, parseJson('{"n":1.5,"m":{}}')).errors).toEqual([
      { pointer: "/n", message: "must be integer" },
      { pointer: "/m/k", message: "must have required property 'k'" },
    ]);
  });

  it("reports a value JSON cannot hold as an error, not an exception", () => {
    expect(validateArguments({ type: "object" }, { a: undefined, b: [undefined] })).toEqual({
      valid: false,
      errors: [{ pointer: "/b/0", message: "expected a JSON value, got undefined" }],
    });
  });

  it(`reports at most ${MAX_ARGUMENT_ERRORS} errors`, () => {
    const schema = { type: "object", properties: { list: { type: "array", items: { type: "string" } } } };
    const result = validateArguments(schema, { list: Array.from({ length: 500 }, (_, i) => i) });
    expect(result.valid).toBe(false);
    expect(result.errors).toHaveLength(MAX_ARGUMENT_ERRORS);
    expect(result.errors[0]).toEqual({ pointer: "/list/0", message: "must be string" });
    expect(result.errors.at(-1)).toEqual({ pointer: `/list/${MAX_ARGUMENT_ERRORS - 1}`, message: "must be string" });
  });

  it("drops exact duplicate errors", () => {
    const schema = { type: "object", allOf: [{ required: ["a"] }, { required: ["a"] }] };
    expect(validateArguments(schema, {}).errors).toEqual([
      { pointer: "/a", message: "must have required property 'a'" },
    ]);
  });

  it("is deterministic and follows the schema's current text, not its identity", () => {
    const schema = { type: "object", properties: { a: { type: "string" } } };
    const first = validateArguments(schema, { a: 1 });
    expect(validateArguments(structuredClone(schema), { a: 1 })).toEqual(first);
    expect(first.valid).toBe(false);
    schema.properties.a.type = "integer";
    expect(validateArguments(schema, { a: 1 })).toEqual({ valid: true, errors: [] });
  });

  it("throws invalid_schema for an invalid schema", () => {
    expectProtocolError(() => validateArguments({ type: "object", required: 1 }, {}), "invalid_schema", "/required");
    expectProtocolError(() => validateArguments({ $ref: "#/nowhere" }, {}), "invalid_schema", "");
  });

  it("never changes the arguments (no coercion, no defaults)", () => {
    const schema = { type: "object", properties: { n: { type: "number", default: 3 }, s: { type: "string" } } };
    const args = { s: "1" };
    expect(validateArguments(schema, args).valid).toBe(true);
    expect(args).toEqual({ s: "1" });
    expect(validateArguments(schema, { n: "3" }).errors).toEqual([{ pointer: "/n", message: "must be number" }]);
  });
});
