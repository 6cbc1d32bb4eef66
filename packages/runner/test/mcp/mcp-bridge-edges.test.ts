// The MCP bridge at its edges, with real MCP servers: a read whose MCP server dies mid-call is asked
// again on a fresh connection; a business cancel of a read stops it (notifications/cancelled) and
// reports cancelled; a tool list change is reported and never applied; Streamable HTTP works like stdio.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCP_UNAVAILABLE_CODE, type McpToolsChange } from "../../src/mcp/index.js";
import { api, eventually, expectStatus, startTestServer, type TestServer } from "../support/server-world.js";
import { tempDir } from "../support/temp-dir.js";
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

const GROWING_SERVER = fileURLToPath(new URL("./fixtures/growing-tools-server.mjs", import.meta.url));

let server: TestServer;
const children = new Set<ChildProcess>();
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await server.close();
});

async function startRun(world: McpWorld): Promise<string> {
  return expectStatus(await api(server, "POST", `/v1/sessions/${world.sessionId}/runs`, { input: "go" }), 201).run_id;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of answers.
async function firstCall(runId: string): Promise<any> {
  return expectStatus(await api(server, "GET", `/v1/runs/${runId}/tool-calls`), 200).data[0];
}

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of answers.
function ended(runId: string): Promise<any> {
  return eventually(
    async () => expectStatus(await api(server, "GET", `/v1/runs/${runId}`), 200),
    (run) => ["completed", "failed", "cancelled", "expired"].includes(run.status),
    "the run ends",
  );
}

describe("the MCP bridge at its edges", () => {
  it("asks a read again on a fresh connection when its MCP server dies mid-call", async () => {
    const bindingId = freshBindingId();
    const bridge = trackedBridge({
      server: { kind: "stdio", command: EVERYTHING_BIN, stderr: "ignore" },
      bindingId,
      runner: { ...runnerOptions(server, await executorKey(server)), executorId: "mcp-read-again" },
      tools: { allow: ["trigger-long-running-operation"] },
    });
    await bridge.open();
    const world = await mcpWorld(server, bindingId, bridge.toolDefinitions(), [
      { tool_calls: [{ name: "trigger-long-running-operation", arguments: { duration: 0.4, steps: 2 } }] },
      { message: "done" },
    ]);
    const pids: number[] = [];
    bridge.attach().on("receipt_journaled", (event) => {
      const pid = bridge.mcpServerPid;
      if (event.kind === "progress" && pids.length === 0 && pid !== null) {
        pids.push(pid);
        process.kill(pid, "SIGKILL");
      }
    });
    await bridge.start();
    const runId = await startRun(world);
    expect((await ended(runId)).status).toBe("completed");
    expect(pids).toHaveLength(1);
    expect(bridge.mcpServerPid).not.toBe(pids[0]); // a new MCP server process answered
    const call = await firstCall(runId);
    expect(call.status).toBe("completed");
    const history = await historyOf(world, runId);
    const result = history.find((item) => item.type === "tool_result").context_preview.result;
    expect(result.content[0].text).toContain("Long running operation completed");
  });

  it("a business cancel of a read aborts the MCP request (the SDK sends notifications/cancelled) and reports cancelled", async () => {
    const bindingId = freshBindingId();
    const bridge = trackedBridge({
      server: { kind: "stdio", command: EVERYTHING_BIN, stderr: "ignore" },
      bindingId,
      runner: { ...runnerOptions(server, await executorKey(server)), executorId: "mcp-cancel" },
      tools: { allow: ["trigger-long-running-operation"] },
    });
    await bridge.open();
    const world = await mcpWorld(server, bindingId, bridge.toolDefinitions(), [
      { tool_calls: [{ name: "trigger-long-running-operation", arguments: { duration: 60, steps: 60 } }] },
      { message: "done" },
    ]);
    let progressSeen = false;
    bridge.attach().on("receipt_journaled", (event) => {
      if (event.kind === "progress") progressSeen = true;
    });
    await bridge.start();
    const runId = await startRun(world);
    await eventually(
      () => progressSeen,
      (seen) => seen,
      "the operation reports progress",
    );
    const call = await firstCall(runId);
    expectStatus(await api(server, "POST", `/v1/runs/${runId}/tool-calls/${call.call_id}/cancel`), 200);
    const cancelled = await eventually(
      () => firstCall(runId),
      (c) => c.status !== "accepted",
      "the call settles",
    );
    expect(cancelled.status).toBe("cancelled");
    expect((await ended(runId)).status).toBe("completed");
  });

  it("a business cancel of a write cannot confirm it stopped: reconciliation_required, then the resolver", async () => {
    const bindingId = freshBindingId();
    const bridge = trackedBridge({
      server: { kind: "stdio", command: EVERYTHING_BIN, stderr: "ignore" },
      bindingId,
      runner: { ...runnerOptions(server, await executorKey(server)), executorId: "mcp-cancel-write" },
      tools: { allow: ["trigger-long-running-operation"], effects: { "trigger-long-running-operation": "write" } },
    });
    await bridge.open();
    const world = await mcpWorld(server, bindingId, bridge.toolDefinitions(), [
      { tool_calls: [{ name: "trigger-long-running-operation", arguments: { duration: 60, steps: 60 } }] },
      { message: "done" },
    ]);
    let progressSeen = false;
    bridge.attach().on("receipt_journaled", (event) => {
      if (event.kind === "progress") progressSeen = true;
    });
    await bridge.start();
    const runId = await startRun(world);
    await eventually(
      () => progressSeen,
      (seen) => seen,
      "the operation reports progress",
    );
    const call = await firstCall(runId);
    expectStatus(await api(server, "POST", `/v1/runs/${runId}/tool-calls/${call.call_id}/cancel`), 200);
    const settled = await eventually(
      () => firstCall(runId),
      (c) => c.status === "failed" || c.status === "cancelled" || c.status === "completed",
      "the call settles",
    );
    expect(settled.status).toBe("failed");
    const kinds = (await server.server.storage.receipts.listByCall(call.call_id)).map((receipt) => receipt.kind);
    expect(kinds).toContain("reconciliation_required");
    expect(kinds).not.toContain("cancelled");
  });

  it("reports a tool list change and never applies it", async () => {
    const bindingId = freshBindingId();
    const changes: McpToolsChange[] = [];
    const bridge = trackedBridge({
      server: { kind: "stdio", command: process.execPath, args: [GROWING_SERVER], stderr: "ignore" },
      bindingId,
      runner: { ...runnerOptions(server, await executorKey(server)), executorId: "mcp-growing" },
      onToolsChanged: (change) => changes.push(change),
    });
    await bridge.open();
    expect(bridge.mapping.tools.map((tool) => [tool.definition.name, tool.definition.effect])).toEqual([
      ["grow", "write"],
    ]);
    const world = await mcpWorld(server, bindingId, bridge.toolDefinitions(), [
      { tool_calls: [{ name: "grow", arguments: {} }] },
      { message: "done" },
    ]);
    await bridge.start();
    const runId = await startRun(world);
    expect((await ended(runId)).status).toBe("completed");
    await eventually(
      () => changes.length,
      (count) => count > 0,
      "the change is reported",
    );
    expect(changes[0]).toEqual({ added: ["grown"], removed: [] });
    expect(bridge.mapping.tools.map((tool) => tool.definition.name)).toEqual(["grow"]);
  });

  it("reports failed, not an unknown outcome, for a write whose MCP server cannot be reached (nothing was sent)", async () => {
    const bindingId = freshBindingId();
    const bridge = trackedBridge({
      server: {
        kind: "stdio",
        command: process.execPath,
        args: [GROWING_SERVER],
        env: { ONCE_FILE: join(tempDir(), "started") },
        stderr: "ignore",
      },
      bindingId,
      runner: { ...runnerOptions(server, await executorKey(server)), executorId: "mcp-unreachable" },
    });
    await bridge.open();
    const world = await mcpWorld(server, bindingId, bridge.toolDefinitions(), [
      { tool_calls: [{ name: "grow", arguments: {} }] },
      { message: "done" },
    ]);
    const pid = bridge.mcpServerPid;
    expect(pid).not.toBeNull();
    process.kill(pid as number, "SIGKILL");
    await eventually(
      () => bridge.mcpServerPid,
      (now) => now === null,
      "the bridge notices the loss",
    );
    await bridge.start();
    const runId = await startRun(world);
    expect((await ended(runId)).status).toBe("completed");
    const call = await firstCall(runId);
    expect(call.status).toBe("failed");
    const history = await historyOf(world, runId);
    const result = history.find((item) => item.type === "tool_result").context_preview.result;
    expect(result.error.code).toBe(MCP_UNAVAILABLE_CODE);
  });

  it("serves a Streamable HTTP MCP server like a stdio one", async () => {
    const port = await freePort();
    const child = spawn(EVERYTHING_BIN, ["streamableHttp"], {
      env: { PATH: process.env.PATH ?? "", PORT: String(port) },
      stdio: ["ignore", "ignore", "pipe"],
    });
    children.add(child);
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    await eventually(
      () => stderr,
      (text) => text.includes("listening"),
      "the MCP server listens",
    );
    const bindingId = freshBindingId();
    const bridge = trackedBridge({
      server: { kind: "http", url: `http://127.0.0.1:${port}/mcp` },
      bindingId,
      runner: { ...runnerOptions(server, await executorKey(server)), executorId: "mcp-http" },
      tools: { allow: ["echo", "get-sum"], prefix: "http." },
    });
    await bridge.open();
    const world = await mcpWorld(server, bindingId, bridge.toolDefinitions(), [
      { tool_calls: [{ name: "http.get-sum", arguments: { a: 20, b: 22 } }] },
      { message: "done" },
    ]);
    await bridge.start();
    const runId = await startRun(world);
    expect((await ended(runId)).status).toBe("completed");
    const history = await historyOf(world, runId);
    const result = history.find((item) => item.type === "tool_result").context_preview.result;
    expect(result.content[0].text).toContain("42");
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
