// One unusable tool in an MCP server's list (a non-object inputSchema, a schema of another type, no
// name) is skipped and logged with its reason; the usable tools are still served, end to end.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, eventually, expectStatus, startTestServer, type TestServer } from "../support/server-world.js";
import { executorKey, freshBindingId, historyOf, mcpWorld, runnerOptions, trackedBridge } from "./mcp-world.js";

const UNUSABLE_SERVER = fileURLToPath(new URL("./fixtures/unusable-tool-server.mjs", import.meta.url));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe("an MCP server listing unusable tools", () => {
  it("skips and logs each unusable tool, and serves the others", async () => {
    const warnings: Array<{ message: string; fields: Record<string, unknown> }> = [];
    const quiet = () => undefined;
    const logger = {
      error: quiet,
      info: quiet,
      debug: quiet,
      warn: (message: string, fields: Record<string, unknown> = {}) => warnings.push({ message, fields }),
    };
    const bindingId = freshBindingId();
    const bridge = trackedBridge({
      server: { kind: "stdio", command: process.execPath, args: [UNUSABLE_SERVER], stderr: "ignore" },
      bindingId,
      runner: { ...runnerOptions(server, await executorKey(server)), executorId: "mcp-unusable", logger },
    });
    const mapping = await bridge.open();
    expect(mapping.tools.map((tool) => tool.mcpName)).toEqual(["echo"]);
    expect(mapping.skipped.map((tool) => tool.mcpName)).toEqual([
      "broken_string_schema",
      "broken_array_schema",
      "(tool at index 3 of its page, without a name)",
    ]);
    for (const skipped of mapping.skipped)
      expect(skipped.reason).toMatch(/^not a valid MCP tool at (inputSchema|name)/);
    const logged = warnings.filter((line) => line.message === "mcp tool skipped").map((line) => line.fields.mcp_tool);
    expect(logged).toEqual(mapping.skipped.map((tool) => tool.mcpName));

    const world = await mcpWorld(server, bindingId, bridge.toolDefinitions(), [
      { tool_calls: [{ name: "echo", arguments: { text: "still served" } }] },
      { message: "done" },
    ]);
    bridge.attach();
    await bridge.start();
    const run = expectStatus(await api(server, "POST", `/v1/sessions/${world.sessionId}/runs`, { input: "go" }), 201);
    await eventually(
      async () => expectStatus(await api(server, "GET", `/v1/runs/${run.run_id}`), 200),
      (answer) => answer.status === "completed",
      "the run completes",
    );
    const result = (await historyOf(world, run.run_id)).find((item) => item.type === "tool_result");
    expect(JSON.stringify(result.context_preview.result)).toContain("still served");
  });
});
