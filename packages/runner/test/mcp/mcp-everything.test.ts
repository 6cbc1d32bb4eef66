// The MCP bridge against the real `@modelcontextprotocol/server-everything` (stdio, installed from
// npm): listing and mapping, then a run whose scripted model calls echo, get-sum, get-tiny-image,
// get-structured-content and trigger-long-running-operation through the bridge against a real
// toolhost server — text cut to the budget, the image verbatim, progress receipts, structured
// content as JSON — and a write whose MCP server dies mid-call ending in reconciliation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCP_OUTCOME_UNKNOWN_CODE, type McpBridge } from "../../src/mcp/index.js";
import { api, eventually, expectStatus, startTestServer, type TestServer } from "../support/server-world.js";
import {
  EVERYTHING_BIN,
  executorKey,
  freshBindingId,
  historyOf,
  type McpWorld,
  mcpWorld,
  runnerOptions,
  trackedBridge,
} from "./mcp-world.js";

const LONG_MESSAGE = `start-${"lorem ipsum ".repeat(400)}-end`;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of answers.
async function runToEnd(world: McpWorld): Promise<{ run: any; history: any[]; calls: any[] }> {
  const started = expectStatus(await api(server, "POST", `/v1/sessions/${world.sessionId}/runs`, { input: "go" }), 201);
  const run = await eventually(
    async () => expectStatus(await api(server, "GET", `/v1/runs/${started.run_id}`), 200),
    (r) => ["completed", "failed", "cancelled", "expired"].includes(r.status),
    "the run ends",
  );
  const calls = expectStatus(await api(server, "GET", `/v1/runs/${run.run_id}/tool-calls?limit=200`), 200).data;
  return { run, history: await historyOf(world, run.run_id), calls };
}

describe("the MCP bridge with server-everything", () => {
  let bridge: McpBridge;
  let key: string;
  const bindingId = freshBindingId();

  beforeAll(async () => {
    key = await executorKey(server);
    bridge = trackedBridge({
      server: { kind: "stdio", command: EVERYTHING_BIN, stderr: "ignore" },
      bindingId,
      runner: runnerOptions(server, key),
      tools: {
        prefix: "ev.",
        allow: ["echo", "get-sum", "get-tiny-image", "get-structured-content", "trigger-long-running-operation"],
        budgets: { echo: 1024, "get-tiny-image": 1024 },
      },
    });
    await bridge.open();
  });

  it("lists the server's tools and maps schema, description, effect and budget", () => {
    const names = bridge.mapping.tools.map((tool) => tool.definition.name).sort();
    expect(names).toEqual([
      "ev.echo",
      "ev.get-structured-content",
      "ev.get-sum",
      "ev.get-tiny-image",
      "ev.trigger-long-running-operation",
    ]);
    const echo = bridge.mapping.tools.find((tool) => tool.mcpName === "echo");
    expect(echo?.definition).toMatchObject({
      name: "ev.echo",
      description: "Echoes back the input string",
      binding_id: bindingId,
      effect: "read", // readOnlyHint: true
      max_result_context_bytes: 1024,
      input_schema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
    });
    expect(echo?.definition.input_schema).not.toHaveProperty("$schema");
    expect(echo?.resultType).toBe("multimodal");
    const structured = bridge.mapping.tools.find((tool) => tool.mcpName === "get-structured-content");
    expect(structured?.resultType).toBe("json");
    expect(structured?.definition.output_schema).toMatchObject({ type: "object" });
    const sum = bridge.mapping.tools.find((tool) => tool.mcpName === "get-sum");
    expect(sum?.definition.max_result_context_bytes).toBe(16_384);
  });

  it("serves a scripted run: text cut to the budget, the image verbatim, progress receipts, structured JSON", async () => {
    const world = await mcpWorld(server, bindingId, bridge.toolDefinitions(), [
      {
        tool_calls: [
          { name: "ev.echo", arguments: { message: LONG_MESSAGE } },
          { name: "ev.get-sum", arguments: { a: 2, b: 40 } },
          { name: "ev.get-tiny-image", arguments: {} },
          { name: "ev.get-structured-content", arguments: { location: "Chicago" } },
          { name: "ev.trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } },
        ],
      },
      { message: "done" },
    ]);
    await bridge.start();
    const { run, history, calls } = await runToEnd(world);
    expect(run.status).toBe("completed");
    const callId = (name: string) => calls.find((call) => call.tool_name === name)?.call_id;
    const preview = (name: string) =>
      history.find((item) => item.type === "tool_result" && item.call_id === callId(name))?.context_preview;

    const echo = preview("ev.echo");
    expect(echo.truncated).toBe(true);
    expect(echo.retained_bytes).toBeLessThanOrEqual(1024);
    const echoed = echo.result.content[0].text as string;
    expect(echoed.startsWith("Echo: start-")).toBe(true);
    expect(echoed.endsWith("-end")).toBe(true);
    expect(echoed).toContain("omitted");

    expect(preview("ev.get-sum").result.content[0].text).toContain("42");

    const image = preview("ev.get-tiny-image");
    const block = image.result.content.find((b: { type: string }) => b.type === "image");
    expect(block.mime_type).toBe("image/png");
    // Byte for byte what the MCP server sends, though larger than the tool's budget.
    const { MCP_TINY_IMAGE } = (await import(
      "@modelcontextprotocol/server-everything/dist/tools/get-tiny-image.js" as string
    )) as { MCP_TINY_IMAGE: string };
    expect(block.data).toBe(MCP_TINY_IMAGE);
    expect(Buffer.from(block.data, "base64").subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(image.retained_bytes).toBeGreaterThan(image.max_result_context_bytes);
    expect(image.truncated).toBe(false);

    expect(preview("ev.get-structured-content").result).toEqual({
      temperature: 36,
      conditions: "Light rain / drizzle",
      humidity: 82,
    });

    const longCall = callId("ev.trigger-long-running-operation");
    const receipts = await server.server.storage.receipts.listByCall(longCall);
    const progress = receipts.filter((receipt) => receipt.kind === "progress");
    expect(progress.map((receipt) => JSON.parse(receipt.body_text).progress)).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
    expect(receipts.at(-1)?.kind).toBe("completed");
  });
});

describe("a write whose MCP server dies mid-call", () => {
  it("ends in reconciliation_required, then the fail resolver settles it failed: never sent twice", async () => {
    const key = await executorKey(server);
    const bindingId = freshBindingId();
    const bridge = trackedBridge({
      server: { kind: "stdio", command: EVERYTHING_BIN, stderr: "ignore" },
      bindingId,
      runner: { ...runnerOptions(server, key), executorId: "mcp-exec-crash" },
      tools: { allow: ["trigger-long-running-operation"], effects: { "trigger-long-running-operation": "write" } },
    });
    await bridge.open();
    expect(bridge.mapping.tools[0]?.definition.effect).toBe("write");
    const world = await mcpWorld(server, bindingId, bridge.toolDefinitions(), [
      { tool_calls: [{ name: "trigger-long-running-operation", arguments: { duration: 30, steps: 30 } }] },
      { message: "done" },
    ]);
    let killed = 0;
    bridge.attach().on("receipt_journaled", (event) => {
      // Kill the MCP server once the first progress receipt says the operation is under way.
      if (event.kind === "progress" && killed === 0 && bridge.mcpServerPid !== null) {
        killed = bridge.mcpServerPid;
        process.kill(killed, "SIGKILL");
      }
    });
    await bridge.start();
    const { run, history } = await runToEnd(world);
    expect(killed).toBeGreaterThan(0);
    expect(run.status).toBe("completed");
    const call = await eventually(
      async () => expectStatus(await api(server, "GET", `/v1/runs/${run.run_id}/tool-calls`), 200).data[0],
      (c) => c.status === "failed",
      "the resolver settles the call",
    );
    expect(call.status).toBe("failed");
    const receipts = await server.server.storage.receipts.listByCall(call.call_id);
    const kinds = receipts.map((receipt) => receipt.kind);
    expect(kinds.filter((kind: string) => kind === "reconciliation_required")).toHaveLength(1);
    expect(kinds.at(-1)).toBe("failed");
    const unknown = history.find((item) => item.type === "tool_result");
    expect(unknown.context_preview.result.status).toBe("reconciliation_required");
    expect(JSON.parse(receipts.at(-1)?.body_text ?? "{}").error.code).toBe(MCP_OUTCOME_UNKNOWN_CODE);
  });
});
