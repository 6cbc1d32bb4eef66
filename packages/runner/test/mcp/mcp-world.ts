// Support for the MCP bridge tests: the real MCP servers installed from npm as devDependencies (their
// binaries in node_modules/.bin, never downloaded at test time), and a toolhost world whose toolset is
// the bridge's mapping, published through the HTTP API like any other.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ToolDefinition } from "@toolhost/protocol";
import { afterAll } from "vitest";
import { McpBridge, type McpBridgeOptions } from "../../src/mcp/index.js";
import { api, expectStatus, type ScriptStep, type TestServer } from "../support/server-world.js";
import { tempDir } from "../support/temp-dir.js";

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/** The installed `@modelcontextprotocol/server-everything` binary. */
export const EVERYTHING_BIN = join(REPO_ROOT, "node_modules/.bin/mcp-server-everything");

/** The installed `@modelcontextprotocol/server-filesystem` binary. */
export const FILESYSTEM_BIN = join(REPO_ROOT, "node_modules/.bin/mcp-server-filesystem");

const bridges = new Set<McpBridge>();
afterAll(async () => {
  for (const bridge of bridges) await bridge.stop().catch(() => undefined);
});

/** What `mcpWorld` made. */
export interface McpWorld {
  readonly server: TestServer;
  readonly bindingId: string;
  readonly sessionId: string;
}

let worlds = 0;

/** A fresh binding name. */
export function freshBindingId(): string {
  worlds++;
  return `mcp-binding-${worlds}`;
}

/** Publishes `tools` on `bindingId` with a scripted agent running `script`, and a session. */
export async function mcpWorld(
  server: TestServer,
  bindingId: string,
  tools: readonly ToolDefinition[],
  script: ScriptStep[],
): Promise<McpWorld> {
  const post = async (path: string, body: unknown) => expectStatus(await api(server, "POST", path, body), 201);
  const binding = await api(server, "POST", "/v1/executor-bindings", { binding_id: bindingId, name: "mcp bridge" });
  if (binding.status !== 409) expectStatus(binding, 201);
  const toolset = await post("/v1/toolsets", { name: "mcp tools", tools });
  const agent = await post("/v1/agents", { name: "mcp agent" });
  const version = await post(`/v1/agents/${agent.agent_id}/versions`, {
    toolset_id: toolset.toolset_id,
    toolset_version: 1,
    model: { provider: "scripted", script },
  });
  const session = await post("/v1/sessions", { agent_version: version.agent_version, subject: "user-42" });
  return { server, bindingId, sessionId: session.session_id };
}

/** A new executor key (`executors:connect`, `tools:execute`). */
export async function executorKey(server: TestServer): Promise<string> {
  const key = await api(server, "POST", "/v1/keys", {
    name: "mcp executor",
    scopes: ["executors:connect", "tools:execute"],
  });
  return expectStatus(key, 201).key as string;
}

/** Fast, silent runner options against `server`. */
export function runnerOptions(server: TestServer, executorKey: string, journalPath = join(tempDir(), "journal.db")) {
  return {
    baseUrl: server.url,
    apiKey: executorKey,
    executorId: "mcp-exec-1",
    journalPath,
    pollWaitMs: 1_000,
    retryBackoffMinMs: 10,
    retryBackoffMaxMs: 200,
    outboxSweepIntervalMs: 50,
    reconcileIntervalMs: 100,
    stopDeliveryTimeoutMs: 300,
    logger: "silent",
  } as const;
}

/** A bridge tracked so that it is stopped after the file. */
export function trackedBridge(options: McpBridgeOptions): McpBridge {
  const bridge = new McpBridge(options);
  bridges.add(bridge);
  return bridge;
}

/** The history items of a run. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of answers.
export async function historyOf(world: McpWorld, runId: string): Promise<any[]> {
  return expectStatus(await api(world.server, "GET", `/v1/runs/${runId}/history?limit=200`), 200).data;
}
