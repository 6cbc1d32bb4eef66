// The pure parts of `toolhost mcp-executor`'s command line: shell-like word splitting of --command and
// the option rules checked before anything starts.
import { describe, expect, it } from "vitest";
import { CommandFailure } from "../src/command-failure.js";
import { commandLineWords } from "../src/mcp/command-line-words.js";
import { type McpExecutorOptions, mcpServerOf, resolverOf, toolSelectionOf } from "../src/mcp/mcp-executor-options.js";

const base: McpExecutorOptions = {
  header: [],
  env: [],
  toolhostUrl: "http://127.0.0.1:8080",
  binding: "b",
  allow: [],
  deny: [],
  read: [],
  write: [],
  toolBudget: [],
  logLevel: "info",
};

describe("commandLineWords", () => {
  it("splits like a shell: quotes, escapes, runs of spaces", () => {
    expect(commandLineWords(`npx -y  @modelcontextprotocol/server-filesystem "/tmp/my dir" 'a b' c\\ d`)).toEqual([
      "npx",
      "-y",
      "@modelcontextprotocol/server-filesystem",
      "/tmp/my dir",
      "a b",
      "c d",
    ]);
    expect(commandLineWords(`x "" ''`)).toEqual(["x", "", ""]);
    expect(commandLineWords(`x "a\\"b" 'a\\b'`)).toEqual(["x", 'a"b', "a\\b"]);
  });

  it("refuses an open quote", () => {
    expect(() => commandLineWords(`x "open`)).toThrow(/unterminated/);
  });
});

describe("the mcp-executor options", () => {
  it("needs exactly one MCP server", () => {
    expect(() => mcpServerOf(base)).toThrow(CommandFailure);
    expect(() => mcpServerOf({ ...base, command: "a", url: "http://x/mcp" })).toThrow(CommandFailure);
    expect(mcpServerOf({ ...base, command: "node s.js --flag" })).toEqual({
      kind: "stdio",
      command: "node",
      args: ["s.js", "--flag"],
      env: {},
    });
    expect(mcpServerOf({ ...base, command: "s", env: ["A=1", "B"] }, { B: "from-env" })).toMatchObject({
      env: { A: "1", B: "from-env" },
    });
    expect(() => mcpServerOf({ ...base, command: "s", env: ["MISSING"] }, {})).toThrow(CommandFailure);
    expect(() => mcpServerOf({ ...base, url: "http://x/mcp", env: ["A=1"] })).toThrow(CommandFailure);
    expect(mcpServerOf({ ...base, url: "http://x/mcp", header: ["X-Token: abc"] })).toEqual({
      kind: "http",
      url: "http://x/mcp",
      headers: { "X-Token": "abc" },
    });
  });

  it("reads effects, budgets and the resolver", () => {
    const selection = toolSelectionOf({
      ...base,
      read: ["a"],
      write: ["b"],
      toolBudget: ["a=2048"],
      budget: "4096",
      prefix: "p.",
    });
    expect(selection).toMatchObject({
      effects: { a: "read", b: "write" },
      budgets: { a: 2048 },
      defaultBudget: 4096,
      prefix: "p.",
    });
    expect(() => toolSelectionOf({ ...base, read: ["a"], write: ["a"] })).toThrow(CommandFailure);
    expect(() => toolSelectionOf({ ...base, toolBudget: ["a"] })).toThrow(CommandFailure);
    expect(() => toolSelectionOf({ ...base, budget: "100" })).toThrow(/1024–32768 bytes/);
    expect(() => toolSelectionOf({ ...base, toolBudget: ["a=40000"] })).toThrow(CommandFailure);
    expect(() => toolSelectionOf({ ...base, timeoutMs: "soon" })).toThrow(/milliseconds/);
    expect(resolverOf(base)).toBe("fail");
    expect(resolverOf({ ...base, resolverCommand: "node r.mjs" })).toEqual({ command: "node", args: ["r.mjs"] });
    expect(resolverOf({ ...base, resolverUrl: "http://r/check" })).toEqual({ url: "http://r/check" });
    expect(() => resolverOf({ ...base, resolverUrl: "http://r", resolverCommand: "x" })).toThrow(CommandFailure);
  });
});
