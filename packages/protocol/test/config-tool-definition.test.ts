// Tool definitions (docs/configuration.md, seed "工具结果的上下文上限"): strict fields, removed fields without alias,
// the budget bounds, JSON Schema 2020-12 input schemas of type object, and the normalized form.
import { describe, expect, it } from "vitest";
import {
  parseJson,
  RESULT_CONTEXT_BYTES,
  TIMEOUT_MS,
  TOOL_DEFINITION_FIELDS,
  TOOL_EFFECTS,
  type ToolDefinition,
  validateToolDefinition,
} from "../src/index.js";
import { expectProtocolError } from "./config-helpers.js";

/** The seed's example tool definition, verbatim. */
const SEED_TOOL = `{
  "name": "tasks.read",
  "description": "分页读取任务",
  "binding_id": "binding_example",
  "input_schema": {"type": "object", "properties": {"cursor": {"type": "string"}}},
  "output_schema": {"type": "object"},
  "max_result_context_bytes": 16384
}`;

const MINIMAL = { name: "echo", binding_id: "b1", input_schema: { type: "object" } };

/** A minimal valid tool with `patch` merged over it. */
function tool(patch: Record<string, unknown>): Record<string, unknown> {
  return { ...MINIMAL, ...patch };
}

describe("validateToolDefinition: valid definitions", () => {
  it("accepts the seed's example and fills in effect and timeout_ms", () => {
    const expected: ToolDefinition = {
      name: "tasks.read",
      description: "分页读取任务",
      binding_id: "binding_example",
      input_schema: { type: "object", properties: { cursor: { type: "string" } } },
      output_schema: { type: "object" },
      max_result_context_bytes: 16384,
      effect: "write",
      timeout_ms: 300_000,
    };
    const result = validateToolDefinition(JSON.parse(SEED_TOOL));
    expect(result).toEqual(expected);
    expect(Object.keys(result)).toEqual([...TOOL_DEFINITION_FIELDS]);
  });

  it("reads the lossless reader's output (Maps, JsonNumbers) the same as JSON.parse output", () => {
    expect(validateToolDefinition(parseJson(SEED_TOOL))).toEqual(validateToolDefinition(JSON.parse(SEED_TOOL)));
  });

  it("fills every default for a minimal tool, keys in the documented order", () => {
    const result = validateToolDefinition({ input_schema: { type: "object" }, binding_id: "b1", name: "echo" });
    expect(JSON.stringify(result)).toBe(
      '{"name":"echo","description":"","binding_id":"b1","input_schema":{"type":"object"},"output_schema":{},' +
        '"max_result_context_bytes":16384,"effect":"write","timeout_ms":300000}',
    );
    expect(result.max_result_context_bytes).toBe(RESULT_CONTEXT_BYTES.default);
    expect(result.timeout_ms).toBe(TIMEOUT_MS.default);
    expect(result.effect).toBe(TOOL_EFFECTS.write);
  });

  it("keeps declared values", () => {
    const result = validateToolDefinition(
      tool({
        description: "d",
        effect: "read",
        timeout_ms: 1500,
        max_result_context_bytes: 2048,
        output_schema: { type: "array" },
      }),
    );
    expect(result).toMatchObject({
      description: "d",
      effect: "read",
      timeout_ms: 1500,
      max_result_context_bytes: 2048,
    });
    expect(result.output_schema).toEqual({ type: "array" });
  });

  it("returns a copy: mutating the input afterwards changes nothing", () => {
    const input = tool({ input_schema: { type: "object", properties: { a: { type: "string" } } } });
    const result = validateToolDefinition(input);
    (input.input_schema as { properties: { a: { type: string } } }).properties.a.type = "integer";
    expect(result.input_schema).toEqual({ type: "object", properties: { a: { type: "string" } } });
  });

  it.each([["a"], ["x".repeat(128)], ["tasks.read"], ["Get_Weather-v2"]])("accepts the tool name %j", (name) => {
    expect(validateToolDefinition(tool({ name })).name).toBe(name);
  });

  it.each([[1024], [32768], [16384]])("accepts the budget %d", (budget) => {
    expect(validateToolDefinition(tool({ max_result_context_bytes: budget })).max_result_context_bytes).toBe(budget);
  });

  it.each([[TIMEOUT_MS.min], [TIMEOUT_MS.max]])("accepts timeout_ms %d", (timeout) => {
    expect(validateToolDefinition(tool({ timeout_ms: timeout })).timeout_ms).toBe(timeout);
  });
});

describe("validateToolDefinition: strict fields", () => {
  it("refuses an unknown field with unknown_field at its pointer", () => {
    const error = expectProtocolError(
      () => validateToolDefinition(tool({ colour: "red" })),
      "unknown_field",
      "/colour",
    );
    expect(error.status).toBe(422);
    expect(error.details).toEqual({ field: "colour", allowed: [...TOOL_DEFINITION_FIELDS] });
  });

  it("escapes the unknown field's name in the pointer", () => {
    expectProtocolError(
      () => validateToolDefinition(tool({ "a/b~c": 1 }), "/tools/0"),
      "unknown_field",
      "/tools/0/a~1b~0c",
    );
  });

  it("treats an own __proto__ key as an unknown field", () => {
    expectProtocolError(
      () =>
        validateToolDefinition(
          JSON.parse('{"name":"x","binding_id":"b","input_schema":{"type":"object"},"__proto__":{}}'),
        ),
      "unknown_field",
      "/__proto__",
    );
  });

  it.each([["max_result_tokens"], ["max_result_bytes"]])(
    "refuses the removed field %s, naming the replacement",
    (field) => {
      const error = expectProtocolError(
        () => validateToolDefinition(tool({ [field]: 4000 }), "/tools/1"),
        "field_removed",
        `/tools/1/${field}`,
      );
      expect(error.status).toBe(422);
      expect(error.message).toContain("max_result_context_bytes");
      expect(error.message).toContain(field);
      expect(error.details).toEqual({ field, replacement: "max_result_context_bytes" });
      expect(error.toBody()).toEqual({
        error: { code: "field_removed", message: error.message, pointer: `/tools/1/${field}`, details: error.details },
      });
    },
  );

  it("has no alias: a removed field is refused even next to a valid budget", () => {
    expectProtocolError(
      () => validateToolDefinition(tool({ max_result_context_bytes: 16384, max_result_tokens: 4000 })),
      "field_removed",
      "/max_result_tokens",
    );
  });

  it("reports a removed field before an unknown one, whatever their order", () => {
    expectProtocolError(
      () => validateToolDefinition({ colour: 1, ...MINIMAL, max_result_bytes: 1 }),
      "field_removed",
      "/max_result_bytes",
    );
  });

  it("reports the first unknown field in the sender's order", () => {
    expectProtocolError(() => validateToolDefinition(tool({ zeta: 1, alpha: 2 })), "unknown_field", "/zeta");
  });
});

describe("validateToolDefinition: wrong values", () => {
  it.each([
    ["an array", []],
    ["a string", "tool"],
    ["null", null],
    ["a number", 3],
  ])("refuses %s as a definition", (_label, input) => {
    expectProtocolError(() => validateToolDefinition(input, "/tools/4"), "validation_failed", "/tools/4");
  });

  it.each([["name"], ["binding_id"], ["input_schema"]])(
    "refuses a definition without %s, pointing at the field",
    (field) => {
      const input: Record<string, unknown> = { ...MINIMAL };
      delete input[field];
      const error = expectProtocolError(
        () => validateToolDefinition(input, "/tools/0"),
        "validation_failed",
        `/tools/0/${field}`,
      );
      expect(error.message).toBe(`${field} is required`);
    },
  );

  it.each([
    ["name", 42],
    ["name", null],
    ["name", ""],
    ["name", "has space"],
    ["name", "x".repeat(129)],
    ["name", "tâche"],
    ["name", "a/b"],
    ["description", 5],
    ["description", null],
    ["binding_id", 7],
    ["binding_id", ""],
    ["binding_id", null],
    ["effect", "delete"],
    ["effect", "READ"],
    ["effect", null],
    ["timeout_ms", 0],
    ["timeout_ms", -5],
    ["timeout_ms", TIMEOUT_MS.max + 1],
    ["timeout_ms", 1.5],
    ["timeout_ms", "1000"],
    ["timeout_ms", null],
    ["input_schema", "object"],
    ["input_schema", ["object"]],
    ["input_schema", null],
    ["output_schema", 1],
    ["output_schema", null],
  ])("refuses %s = %j with validation_failed at its pointer", (field, value) => {
    expectProtocolError(
      () => validateToolDefinition(tool({ [field]: value }), "/tools/3"),
      "validation_failed",
      `/tools/3/${field}`,
    );
  });

  it("says which effects exist", () => {
    const error = expectProtocolError(
      () => validateToolDefinition(tool({ effect: "x" })),
      "validation_failed",
      "/effect",
    );
    expect(error.details).toEqual({ allowed: ["write", "read"] });
  });

  it.each([[1023], [32769], [0], [1024.5], ["16384"], [null], [true]])(
    "refuses the budget %j with invalid_budget",
    (budget) => {
      const error = expectProtocolError(
        () => validateToolDefinition(tool({ max_result_context_bytes: budget }), "/tools/0"),
        "invalid_budget",
        "/tools/0/max_result_context_bytes",
      );
      expect(error.status).toBe(422);
    },
  );

  it("refuses a big integer budget from the lossless reader", () => {
    const input = parseJson(
      '{"name":"x","binding_id":"b","input_schema":{"type":"object"},"max_result_context_bytes":123456789012345678901}',
    );
    expectProtocolError(() => validateToolDefinition(input), "invalid_budget", "/max_result_context_bytes");
  });

  it("refuses values JSON cannot hold, at their pointer", () => {
    expectProtocolError(
      () =>
        validateToolDefinition(tool({ input_schema: { type: "object", properties: { a: { minimum: Number.NaN } } } })),
      "validation_failed",
      "/input_schema/properties/a/minimum",
    );
    expectProtocolError(
      () => validateToolDefinition(tool({ input_schema: { type: "object", maximum: Number.POSITIVE_INFINITY } })),
      "number_out_of_range",
      "/input_schema/maximum",
    );
    expectProtocolError(
      () => validateToolDefinition(tool({ description: () => "x" })),
      "validation_failed",
      "/description",
    );
  });

  it("ignores members whose value is undefined, as JSON.stringify does", () => {
    expect(validateToolDefinition(tool({ description: undefined })).description).toBe("");
  });
});

describe("validateToolDefinition: schemas", () => {
  it.each([
    ["a boolean schema", true, "/input_schema"],
    ["a schema without type", {}, "/input_schema/type"],
    ["a string schema", { type: "string" }, "/input_schema/type"],
    ["a type list", { type: ["object"] }, "/input_schema/type"],
    ["a type list with null", { type: ["object", "null"] }, "/input_schema/type"],
  ])("refuses %s as input_schema: it must have type object", (_label, schema, pointer) => {
    expectProtocolError(() => validateToolDefinition(tool({ input_schema: schema })), "invalid_schema", pointer);
  });

  it("refuses a schema the 2020-12 meta-schema rejects, pointing inside it, with Ajv's message", () => {
    const error = expectProtocolError(
      () =>
        validateToolDefinition(
          tool({ input_schema: { type: "object", properties: { a: { type: "strin" } } } }),
          "/tools/0",
        ),
      "invalid_schema",
      "/tools/0/input_schema/properties/a/type",
    );
    expect(error.status).toBe(422);
    expect(error.message).toContain("input_schema is not a valid JSON Schema (draft 2020-12)");
    expect(error.message).toContain("must be equal to one of the allowed values");
    expect(error.details?.field).toBe("input_schema");
  });

  it.each([
    ["required is not an array", { type: "object", required: "a" }, "/input_schema/required"],
    [
      "minLength is negative",
      { type: "object", properties: { a: { minLength: -1 } } },
      "/input_schema/properties/a/minLength",
    ],
    ["properties is an array", { type: "object", properties: [] }, "/input_schema/properties"],
    ["enum is not an array", { type: "object", properties: { a: { enum: 3 } } }, "/input_schema/properties/a/enum"],
  ])("refuses a schema where %s", (_label, schema, pointer) => {
    expectProtocolError(() => validateToolDefinition(tool({ input_schema: schema })), "invalid_schema", pointer);
  });

  it("refuses a $ref that does not resolve inside the schema (nothing is ever loaded)", () => {
    const local = expectProtocolError(
      () =>
        validateToolDefinition(
          tool({ input_schema: { type: "object", properties: { a: { $ref: "#/$defs/missing" } } } }),
        ),
      "invalid_schema",
      "/input_schema",
    );
    expect(local.message).toContain("can't resolve reference");
    expectProtocolError(
      () => validateToolDefinition(tool({ input_schema: { type: "object", $ref: "https://example.com/schema.json" } })),
      "invalid_schema",
      "/input_schema",
    );
  });

  it("refuses a pattern that is not a valid regular expression, at the pattern", () => {
    const error = expectProtocolError(
      () => validateToolDefinition(tool({ input_schema: { type: "object", properties: { a: { pattern: "(" } } } })),
      "invalid_schema",
      "/input_schema/properties/a/pattern",
    );
    expect(error.message).toContain("not a valid ECMAScript regular expression");
  });

  it("accepts only the 2020-12 dialect in $schema", () => {
    expectProtocolError(
      () =>
        validateToolDefinition(
          tool({ input_schema: { $schema: "http://json-schema.org/draft-07/schema#", type: "object" } }),
        ),
      "invalid_schema",
      "/input_schema/$schema",
    );
    for (const dialect of [
      "https://json-schema.org/draft/2020-12/schema",
      "https://json-schema.org/draft/2020-12/schema#",
    ]) {
      expect(
        validateToolDefinition(tool({ input_schema: { $schema: dialect, type: "object" } })).input_schema.$schema,
      ).toBe(dialect);
    }
  });

  it("accepts rich 2020-12 schemas: $defs and $ref, prefixItems, unevaluatedProperties, formats, $id, unknown keywords", () => {
    const schema = {
      $id: "https://tools.example/search",
      type: "object",
      $defs: { id: { type: "string", pattern: "^[a-z]+-[0-9]+$" } },
      properties: {
        ids: { type: "array", items: { $ref: "#/$defs/id" }, maxItems: 50 },
        range: { type: "array", prefixItems: [{ type: "integer" }, { type: "integer" }], items: false },
        since: { type: "string", format: "date-time" },
        mode: { enum: ["fast", "full"] },
      },
      required: ["ids"],
      unevaluatedProperties: false,
      "x-ui-hint": "ignored annotation",
    };
    expect(validateToolDefinition(tool({ input_schema: schema })).input_schema).toEqual(schema);
  });

  it("compiles each schema on its own: equal $ids in different tools do not collide", () => {
    const schema = { $id: "https://json-schema.org/draft/2020-12/schema", type: "object" };
    validateToolDefinition(tool({ input_schema: schema }));
    validateToolDefinition(tool({ input_schema: { ...schema, properties: {} } }));
    // The meta-schema check still works after a schema claimed the meta-schema's own $id.
    expectProtocolError(
      () => validateToolDefinition(tool({ input_schema: { type: "object", required: 1 } })),
      "invalid_schema",
      "/input_schema/required",
    );
  });

  it("checks output_schema as a JSON Schema of any type", () => {
    expect(validateToolDefinition(tool({ output_schema: { type: "string" } })).output_schema).toEqual({
      type: "string",
    });
    expectProtocolError(
      () =>
        validateToolDefinition(tool({ output_schema: { type: "object", properties: { a: { type: 5 } } } }), "/tools/2"),
      "invalid_schema",
      "/tools/2/output_schema/properties/a/type",
    );
    expectProtocolError(
      () => validateToolDefinition(tool({ output_schema: false })),
      "invalid_schema",
      "/output_schema",
    );
  });
});
