// Toolsets: a list of tool definitions, validated in order with pointers into the list, names unique.
import { describe, expect, it } from "vitest";
import { referencedBindingIds, validateToolset } from "../src/index.js";
import { expectProtocolError } from "./config-helpers.js";

/** A minimal valid tool named `name` on `binding`. */
function tool(name: string, binding = "b1", patch: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, binding_id: binding, input_schema: { type: "object" }, ...patch };
}

describe("validateToolset", () => {
  it("accepts an empty list", () => {
    expect(validateToolset([])).toEqual([]);
  });

  it("returns every tool normalized, in the sender's order", () => {
    const tools = validateToolset([tool("b.second"), tool("a.first", "b2", { effect: "read" })]);
    expect(tools.map((t) => [t.name, t.binding_id, t.effect, t.timeout_ms])).toEqual([
      ["b.second", "b1", "write", 300_000],
      ["a.first", "b2", "read", 300_000],
    ]);
  });

  it.each([[{}], ["tools"], [null], [undefined]])("refuses %j instead of a list", (tools) => {
    expectProtocolError(() => validateToolset(tools), "validation_failed", "/tools");
  });

  it("uses the pointer it is given", () => {
    expectProtocolError(() => validateToolset({}, "/body/tools"), "validation_failed", "/body/tools");
    expectProtocolError(
      () => validateToolset([tool("a", "b", { colour: 1 })], "/body/tools"),
      "unknown_field",
      "/body/tools/0/colour",
    );
  });

  it("points into the list: an unknown field of the third tool is /tools/2/colour", () => {
    expectProtocolError(
      () => validateToolset([tool("a"), tool("b"), tool("c", "b1", { colour: "red" })]),
      "unknown_field",
      "/tools/2/colour",
    );
  });

  it("points a removed field at its tool", () => {
    const error = expectProtocolError(
      () => validateToolset([tool("a"), tool("b", "b1", { max_result_tokens: 2000 })]),
      "field_removed",
      "/tools/1/max_result_tokens",
    );
    expect(error.details).toEqual({ field: "max_result_tokens", replacement: "max_result_context_bytes" });
  });

  it("points schema and budget errors at their tool", () => {
    expectProtocolError(
      () => validateToolset([tool("a"), tool("b", "b1", { input_schema: { type: "string" } })]),
      "invalid_schema",
      "/tools/1/input_schema/type",
    );
    expectProtocolError(
      () => validateToolset([tool("a", "b1", { max_result_context_bytes: 40000 })]),
      "invalid_budget",
      "/tools/0/max_result_context_bytes",
    );
  });

  it("refuses a duplicate name, pointing at the second tool's name", () => {
    const error = expectProtocolError(
      () => validateToolset([tool("tasks.read"), tool("tasks.write"), tool("tasks.read", "b9")]),
      "duplicate_tool_name",
      "/tools/2/name",
    );
    expect(error.status).toBe(422);
    expect(error.details).toEqual({ name: "tasks.read", first: "/tools/0" });
  });

  it("compares names exactly: case differs, names differ", () => {
    expect(validateToolset([tool("Tasks.read"), tool("tasks.read")])).toHaveLength(2);
  });

  it("reports the first error in list order (an invalid tool before a later duplicate)", () => {
    expectProtocolError(
      () => validateToolset([tool("a"), tool("b", "b1", { effect: "x" }), tool("a")]),
      "validation_failed",
      "/tools/1/effect",
    );
  });
});

describe("referencedBindingIds", () => {
  it("lists each binding once, in order of first use", () => {
    const tools = validateToolset([tool("a", "billing"), tool("b", "crm"), tool("c", "billing"), tool("d", "audit")]);
    expect(referencedBindingIds(tools)).toEqual(["billing", "crm", "audit"]);
  });

  it("is empty for an empty toolset", () => {
    expect(referencedBindingIds([])).toEqual([]);
  });
});
