// Integration support: a real toolhost server started in-process (tests only; the runner's sources
// never import the server) on a SQLite file, a "world" configured through the HTTP API (binding,
// toolset, scripted agent version, session, executor key), and runners wired to it.
import { join } from "node:path";
import { type RunningServer, startServer } from "@toolhost/server";
import { afterAll, expect } from "vitest";
import { ToolRunner, type ToolRunnerOptions } from "../../src/index.js";
import { tempDir } from "./temp-dir.js";

/** The admin secret test servers start with. */
export const ADMIN_KEY = "runner-test-admin-secret-7d2e";

/** A started test server. */
export interface TestServer {
  readonly url: string;
  readonly server: RunningServer;
  readonly dir: string;
  close(): Promise<void>;
}

const servers = new Set<TestServer>();
const runners = new Set<ToolRunner>();

afterAll(async () => {
  for (const runner of runners) await runner.stop().catch(() => undefined);
  for (const server of servers) await server.close();
});

/** Starts a server on a fresh SQLite file with fast heartbeats and sweeps. */
export async function startTestServer(overrides: Record<string, unknown> = {}): Promise<TestServer> {
  const dir = tempDir("toolhost-runner-server-");
  const server = await startServer(
    {
      databaseUrl: `sqlite:${join(dir, "server.db")}`,
      host: "127.0.0.1",
      port: 0,
      bootstrapKey: ADMIN_KEY,
      logLevel: "silent",
      heartbeatIntervalMs: 100,
      leaseTtlMs: 2_000,
      sweepIntervalMs: 20,
      shutdownTimeoutMs: 1_000,
      ...overrides,
    },
    {},
  );
  const started: TestServer = {
    url: server.url,
    server,
    dir,
    close: async () => {
      servers.delete(started);
      await server.close();
    },
  };
  servers.add(started);
  return started;
}

/** An API answer. */
export interface Answer {
  readonly status: number;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of answers.
  readonly body: any;
}

/** One request with the admin key (or `key`). */
export async function api(server: TestServer, method: string, path: string, body?: unknown, key = ADMIN_KEY) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, text, body: parsed } as Answer;
}

/** Expects `status` and answers the body. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of answers.
export function expectStatus(answer: Answer, status: number): any {
  expect(answer.status, answer.text).toBe(status);
  return answer.body;
}

/** One scripted model step. */
export type ScriptStep = { tool_calls: Array<{ name: string; arguments: unknown }> } | { message: string };

/** What `buildWorld` made. */
export interface World {
  readonly server: TestServer;
  readonly bindingId: string;
  readonly sessionId: string;
  readonly agentId: string;
  readonly executorKey: string;
}

let worlds = 0;

/** The world's tools: `tasks.create` (write), `tasks.read` (read), `tasks.slow` (write). */
export function worldTools(bindingId: string): Array<Record<string, unknown>> {
  const tool = (name: string, effect: "read" | "write") => ({
    name,
    description: `${name} (test)`,
    binding_id: bindingId,
    effect,
    input_schema: { type: "object" },
    timeout_ms: 600_000,
  });
  return [tool("tasks.create", "write"), tool("tasks.read", "read"), tool("tasks.slow", "write")];
}

/** Configures a binding, toolset, scripted agent version, session and executor key through the API. */
export async function buildWorld(server: TestServer, script: ScriptStep[]): Promise<World> {
  worlds++;
  const bindingId = `binding-${worlds}`;
  const post = async (path: string, body: unknown) => expectStatus(await api(server, "POST", path, body), 201);
  await post("/v1/executor-bindings", { binding_id: bindingId, name: "runner tests" });
  const toolset = await post("/v1/toolsets", { name: "runner tools", tools: worldTools(bindingId) });
  const agent = await post("/v1/agents", { name: "runner agent" });
  const version = await post(`/v1/agents/${agent.agent_id}/versions`, {
    toolset_id: toolset.toolset_id,
    toolset_version: 1,
    model: { provider: "scripted", script },
  });
  const session = await post("/v1/sessions", { agent_version: version.agent_version, subject: "user-42" });
  const key = await post("/v1/keys", { name: "executor", scopes: ["executors:connect", "tools:execute"] });
  return { server, bindingId, sessionId: session.session_id, agentId: agent.agent_id, executorKey: key.key };
}

/** Starts a run of the world's session; answers its ID. */
export async function startRun(world: World, input: unknown = "go"): Promise<string> {
  const run = expectStatus(await api(world.server, "POST", `/v1/sessions/${world.sessionId}/runs`, { input }), 201);
  return run.run_id as string;
}

/** The run's tool calls. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of answers.
export async function callsOf(world: World, runId: string): Promise<any[]> {
  return expectStatus(await api(world.server, "GET", `/v1/runs/${runId}/tool-calls?limit=200`), 200).data;
}

/** The run. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of answers.
export async function runOf(world: World, runId: string): Promise<any> {
  return expectStatus(await api(world.server, "GET", `/v1/runs/${runId}`), 200);
}

/** The receipts the server stored for a call, in arrival order. */
export function storedReceipts(world: World, callId: string) {
  return world.server.server.storage.receipts.listByCall(callId);
}

/** Polls `read` until `done` holds; answers the value. */
export async function eventually<T>(read: () => Promise<T> | T, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`never happened: ${what} (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits until the run reaches a terminal status; answers it. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of answers.
export function settledRun(world: World, runId: string): Promise<any> {
  return eventually(
    () => runOf(world, runId),
    (run) => ["completed", "failed", "cancelled", "expired"].includes(run.status),
    `run ${runId} ends`,
  );
}

/** A runner for the world (silent, fast), tracked so it is stopped after the file. */
export function newRunner(world: World, overrides: Partial<ToolRunnerOptions> = {}): ToolRunner {
  const runner = new ToolRunner({
    baseUrl: world.server.url,
    apiKey: world.executorKey,
    executorId: "exec-1",
    bindingIds: [world.bindingId],
    journalPath: join(tempDir(), "journal.db"),
    pollWaitMs: 1_000,
    retryBackoffMinMs: 10,
    retryBackoffMaxMs: 200,
    outboxSweepIntervalMs: 50,
    reconcileIntervalMs: 100,
    stopDeliveryTimeoutMs: 300,
    logger: "silent",
    ...overrides,
  });
  runners.add(runner);
  return runner;
}
