// The pure rewrite behind migration 0002: exact text edits, nothing else touched, idempotent.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rewriteLegacyBudgets } from "../../src/storage/migrations/legacy-budget-rewrite.js";

type Tool = Record<string, unknown>;

/** The expected tools: the legacy member becomes the new budget in its place; nothing else changes. */
function expectedTools(tools: unknown[]): unknown[] {
  return tools.map((tool) => {
    if (typeof tool !== "object" || tool === null || Array.isArray(tool) || !Object.hasOwn(tool, "max_result_tokens")) {
      return tool;
    }
    const entries = Object.entries(tool as Tool).flatMap(([key, value]): [string, unknown][] => {
      if (key === "max_result_tokens") return [["max_result_context_bytes", 16384]];
      if (key === "max_result_context_bytes") return [];
      return [[key, value]];
    });
    return Object.fromEntries(entries);
  });
}

describe("rewriteLegacyBudgets", () => {
  it("replaces the legacy member in place and keeps every other byte", () => {
    const before =
      '[{"name":"a","max_result_tokens":2000,"effect":"read"},{"name":"b","max_result_context_bytes":4096},{"name":"c"}]';
    expect(rewriteLegacyBudgets(before)).toBe(
      '[{"name":"a","max_result_context_bytes":16384,"effect":"read"},{"name":"b","max_result_context_bytes":4096},{"name":"c"}]',
    );
  });

  it("keeps whitespace, number lexemes and escapes of the original text", () => {
    const before = `[
  {
    "max_result_tokens" : 1.50,
    "name": "s\\"}{[",
    "input_schema": {"type": "object", "maximum": 12345678901234567890, "x": 1.50e1}
  }
]`;
    expect(rewriteLegacyBudgets(before)).toBe(`[
  {
    "max_result_context_bytes" : 16384,
    "name": "s\\"}{[",
    "input_schema": {"type": "object", "maximum": 12345678901234567890, "x": 1.50e1}
  }
]`);
  });

  it("answers undefined when no tool carries the legacy field", () => {
    expect(rewriteLegacyBudgets("[]")).toBeUndefined();
    expect(rewriteLegacyBudgets('[{"name":"a","max_result_context_bytes":4096}]')).toBeUndefined();
    // Only top-level tool members count: a schema property of that name is not a budget.
    const nested = '[{"name":"a","input_schema":{"properties":{"max_result_tokens":{"type":"integer"}}}}]';
    expect(rewriteLegacyBudgets(nested)).toBeUndefined();
    expect(rewriteLegacyBudgets('{"max_result_tokens":1}')).toBeUndefined();
    expect(rewriteLegacyBudgets('[[{"max_result_tokens":1}],"max_result_tokens"]')).toBeUndefined();
  });

  it("rewrites a legacy member written with escapes, and a null budget", () => {
    expect(rewriteLegacyBudgets('[{"max_result_tok\\u0065ns":null,"name":"a"}]')).toBe(
      '[{"max_result_context_bytes":16384,"name":"a"}]',
    );
  });

  it("leaves exactly one budget when a tool also holds the new field or the legacy one twice", () => {
    expect(
      rewriteLegacyBudgets(
        '[{"name":"a", "max_result_context_bytes":4096, "max_result_tokens":10, "max_result_tokens":20, "z":1}]',
      ),
    ).toBe('[{"name":"a", "max_result_context_bytes":16384, "z":1}]');
    expect(rewriteLegacyBudgets('[{"max_result_tokens":10,"max_result_context_bytes":4096}]')).toBe(
      '[{"max_result_context_bytes":16384}]',
    );
  });

  it("refuses text that is not JSON", () => {
    expect(() => rewriteLegacyBudgets('[{"max_result_tokens":1')).toThrow();
  });

  it("matches the model on generated tool lists, in compact and indented form, and is idempotent", () => {
    const key = fc.oneof(
      fc.constantFrom("name", "description", "binding_id", "input_schema", "effect", "timeout_ms", "max_result_tokens"),
      fc.string(),
    );
    const tool = fc.dictionary(key, fc.jsonValue(), { maxKeys: 8 });
    const element = fc.oneof({ weight: 5, arbitrary: tool }, { weight: 1, arbitrary: fc.jsonValue() });
    fc.assert(
      fc.property(fc.array(element, { maxLength: 6 }), fc.constantFrom(undefined, 2, "\t"), (tools, indent) => {
        const text = JSON.stringify(tools, null, indent);
        const rewritten = rewriteLegacyBudgets(text);
        // The model reads the same text (JSON.stringify turns -0 into 0, for instance).
        const parsed = JSON.parse(text) as unknown[];
        const legacy = parsed.some(
          (t) => typeof t === "object" && t !== null && !Array.isArray(t) && Object.hasOwn(t, "max_result_tokens"),
        );
        if (!legacy) {
          expect(rewritten).toBeUndefined();
          return;
        }
        expect(rewritten).toBeDefined();
        expect(JSON.parse(rewritten as string)).toEqual(expectedTools(parsed));
        expect(rewriteLegacyBudgets(rewritten as string)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });
});
