// The pure parts of the MCP bridge: tool mapping (names, prefix, allow/deny, effects, budgets, schema
// dialect, skipped tools), result mapping (every MCP content block type, structured content, isError)
// and the resolver's answer reading.
import { describe, expect, it } from "vitest";
import {
  MCP_TOOL_ERROR_CODE,
  type McpToolDescription,
  mapCallResult,
  mapMcpTools,
  readResolverAnswer,
} from "../../src/mcp/index.js";

const object = (properties: Record<string, unknown> = {}) => ({ type: "object", properties });

const TOOLS: McpToolDescription[] = [
  { name: "read", description: "reads", inputSchema: object(), annotations: { readOnlyHint: true } },
  { name: "write", inputSchema: { ...object(), $schema: "http://json-schema.org/draft-07/schema#" } },
  { name: "hinted-false", inputSchema: object(), annotations: { readOnlyHint: false } },
  { name: "typed", inputSchema: object(), outputSchema: { type: "object", properties: { n: { type: "number" } } } },
  { name: "bad/name", inputSchema: object() },
  { name: "not-an-object", inputSchema: { type: "string" } },
];

describe("mapMcpTools", () => {
  it("maps effect from readOnlyHint (only true is a read), budgets, output schema and result type", () => {
    const mapping = mapMcpTools(TOOLS, "b1", { budgets: { read: 2048 } });
    const byName = new Map(mapping.tools.map((tool) => [tool.mcpName, tool]));
    expect(byName.get("read")?.definition).toMatchObject({
      effect: "read",
      description: "reads",
      max_result_context_bytes: 2048,
    });
    expect(byName.get("write")?.definition).toMatchObject({
      effect: "write",
      description: "",
      max_result_context_bytes: 16384,
    });
    expect(byName.get("write")?.definition.input_schema).toEqual(object());
    expect(byName.get("hinted-false")?.definition.effect).toBe("write");
    expect(byName.get("typed")?.resultType).toBe("json");
    expect(byName.get("read")?.resultType).toBe("multimodal");
    expect(mapping.skipped.map((skipped) => skipped.mcpName)).toEqual(["bad/name", "not-an-object"]);
    expect(mapping.skipped[1]?.reason).toContain("invalid_schema");
  });

  it("applies allow, deny, prefix and effect overrides by MCP name", () => {
    const mapping = mapMcpTools(TOOLS, "b1", {
      allow: ["read", "write", "typed"],
      deny: ["typed"],
      prefix: "x.",
      effects: { read: "write", write: "read" },
      defaultBudget: 4096,
    });
    expect(mapping.tools.map((tool) => [tool.definition.name, tool.definition.effect])).toEqual([
      ["x.read", "write"],
      ["x.write", "read"],
    ]);
    expect(mapping.tools.every((tool) => tool.definition.max_result_context_bytes === 4096)).toBe(true);
    expect(mapping.skipped).toEqual([]);
  });

  it("skips a budget the platform refuses rather than publishing it", () => {
    const mapping = mapMcpTools(TOOLS.slice(0, 1), "b1", { budgets: { read: 100 } });
    expect(mapping.tools).toEqual([]);
    expect(mapping.skipped[0]?.mcpName).toBe("read");
  });
});

describe("mapCallResult", () => {
  it("maps every content block to a multimodal block", () => {
    const outcome = mapCallResult(
      {
        content: [
          { type: "text", text: "hi" },
          { type: "image", data: "aW1n", mimeType: "image/png" },
          { type: "audio", data: "YXVk", mimeType: "audio/wav" },
          { type: "resource", resource: { uri: "file:///a.bin", mimeType: "application/zip", blob: "Ymlu" } },
          { type: "resource", resource: { uri: "file:///a.txt", text: "text body" } },
          { type: "resource_link", uri: "file:///b", name: "b" },
        ],
      },
      "multimodal",
    );
    expect(outcome).toEqual({
      kind: "completed",
      result: {
        content: [
          { type: "text", text: "hi" },
          { type: "image", mime_type: "image/png", data: "aW1n" },
          { type: "audio", mime_type: "audio/wav", data: "YXVk" },
          { type: "file", mime_type: "application/zip", data: "Ymlu", uri: "file:///a.bin" },
          { type: "text", text: "text body", uri: "file:///a.txt" },
          { type: "text", text: "resource: file:///b (b)" },
        ],
      },
    });
  });

  it("answers structuredContent for json tools, and the content when it is missing", () => {
    expect(mapCallResult({ content: [], structuredContent: { n: 1 } }, "json")).toEqual({
      kind: "completed",
      result: { n: 1 },
    });
    expect(mapCallResult({ content: [{ type: "text", text: "t" }] }, "json")).toEqual({
      kind: "completed",
      result: { content: [{ type: "text", text: "t" }] },
    });
  });

  it("turns isError into a failure carrying the text", () => {
    expect(mapCallResult({ isError: true, content: [{ type: "text", text: "ENOENT: nope" }] }, "multimodal")).toEqual({
      kind: "failed",
      code: MCP_TOOL_ERROR_CODE,
      message: "ENOENT: nope",
    });
  });
});

describe("readResolverAnswer", () => {
  it("reads outcomes and treats anything else as 'cannot tell yet'", () => {
    expect(readResolverAnswer('{"kind":"completed","result":{"ok":true}}')).toEqual({
      kind: "completed",
      result: { ok: true },
    });
    expect(readResolverAnswer('{"kind":"failed","error":{"code":"c","message":"m"}}')).toEqual({
      kind: "failed",
      error: { code: "c", message: "m" },
    });
    expect(readResolverAnswer('{"kind":"cancelled"}')).toEqual({ kind: "cancelled" });
    expect(readResolverAnswer("null")).toBeNull();
    expect(readResolverAnswer('{"kind":"unknown"}')).toBeNull();
    expect(readResolverAnswer('{"kind":"failed","error":{"code":1}}')).toBeNull();
    expect(readResolverAnswer("not json")).toBeNull();
  });
});
