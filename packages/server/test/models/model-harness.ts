/**
 * Support for runs with HTTP model providers: a server (manual clock, fast driver polling) on a given
 * or fresh database whose model connections point at a fake model server (`fake-model-server.ts`),
 * reached through the official SDKs; a world whose agent version names one of them; and helpers to
 * follow runs.
 */

import { afterAll, expect } from "vitest";
import { startServer } from "../../src/index.js";
import type { ModelConnectionsObject } from "../../src/models/connections-option.js";
import type { ServerOptions } from "../../src/options.js";
import type { Dialect } from "../../src/storage/storage.js";
import { admin, type ClockedServer, expectStatus, ManualClock } from "../calls/calls-harness.js";
import {
  type Answer,
  BOOTSTRAP_SECRET,
  type Call,
  LogCapture,
  request,
  type TestServer,
} from "../http/http-harness.js";
import { claimAndAccept, READ_TOOL, sendReceipt, WRITE_TOOL } from "../runs/run-fixtures.js";
import { type TestDatabase, testDatabaseUrl } from "../support/test-databases.js";
import type { FakeReply } from "./fake-model-server.js";

/** The environment variable the test model connections name as `api_key_env`. */
export const KEY_ENV = "TOOLHOST_TEST_MODEL_KEY";
/** Its value (in the environment the test servers get). */
export const KEY_VALUE = "sk-test-9f8e7d6c5b4a";
/** The environment the test servers get: the connections' key and nothing else. */
export const MODEL_ENV: Readonly<Record<string, string>> = { [KEY_ENV]: KEY_VALUE };

/** The ID of the test `openai` connection. */
export const OPENAI_CONNECTION = "fake-openai";
/** The ID of the test `anthropic` connection. */
export const ANTHROPIC_CONNECTION = "fake-anthropic";

/** Model connections of both providers to the fake at `fakeUrl` (its OpenAI base URL is `…/v1`). */
export function fakeConnections(fakeUrl: string): ModelConnectionsObject {
  return {
    [OPENAI_CONNECTION]: { provider: "openai", base_url: `${fakeUrl}/v1`, api_key_env: KEY_ENV },
    [ANTHROPIC_CONNECTION]: { provider: "anthropic", base_url: fakeUrl, api_key_env: KEY_ENV },
  };
}

const open = new Set<ClockedServer>();

afterAll(async () => {
  for (const server of open) await server.close();
});

/**
 * Starts a server on `database` (fresh when absent) with a manual clock and a fast run driver; its
 * model connections are those of `fakeConnections(fakeUrl)` when given (else `options`' own, or none).
 */
export async function startModelServer(
  dialect: Dialect,
  options: ServerOptions & { fakeUrl?: string } = {},
  database?: TestDatabase,
  clock = new ManualClock(),
): Promise<ClockedServer> {
  const { fakeUrl, ...serverOptions } = options;
  const db = database ?? (await testDatabaseUrl(dialect));
  const logs = new LogCapture();
  const server = await startServer(
    {
      databaseUrl: db.url,
      host: "127.0.0.1",
      port: 0,
      bootstrapKey: BOOTSTRAP_SECRET,
      logLevel: "warn",
      logDestination: logs,
      sweepIntervalMs: 10,
      modelPollIntervalMs: 10,
      modelMaxRetries: 2,
      modelTimeoutMs: 10_000,
      shutdownTimeoutMs: 2_000,
      ...(fakeUrl === undefined ? {} : { modelConnections: fakeConnections(fakeUrl) }),
      ...serverOptions,
    },
    MODEL_ENV,
    clock,
  );
  const clocked: ClockedServer = {
    url: server.url,
    server,
    database: db,
    logs,
    clock,
    call: (method, path, call: Call = {}) => request(server.url, method, path, call),
    close: async () => {
      open.delete(clocked);
      await server.close();
    },
  };
  open.add(clocked);
  return clocked;
}

/** What `buildModelWorld` made. */
export interface ModelWorld {
  readonly bindingId: string;
  readonly agentVersion: string;
  readonly sessionId: string;
  readonly executorKey: string;
}

let worlds = 0;

/** Tools `tasks.read` and `tasks.create` on a new binding; an agent version with `model`; a session. */
export async function buildModelWorld(
  server: TestServer,
  model: Record<string, unknown>,
  version: Record<string, unknown> = {},
  toolPatch: Record<string, unknown> = {},
): Promise<ModelWorld> {
  worlds++;
  const bindingId = `model-binding-${worlds}`;
  const post = async (path: string, body: unknown): Promise<Answer["body"]> =>
    expectStatus(await server.call("POST", path, { ...admin, body }), 201);
  await post("/v1/executor-bindings", { binding_id: bindingId, name: "model binding" });
  const tools = [READ_TOOL, WRITE_TOOL].map((tool) => ({
    ...tool,
    description: `${tool.name} (test)`,
    binding_id: bindingId,
    ...toolPatch,
  }));
  const toolset = await post("/v1/toolsets", { name: "model toolset", tools });
  const agent = await post("/v1/agents", { name: "model agent" });
  const created = await post(`/v1/agents/${agent.agent_id}/versions`, {
    toolset_id: toolset.toolset_id,
    toolset_version: 1,
    model,
    instructions: "You manage tasks.",
    ...version,
  });
  const session = await post("/v1/sessions", { agent_version: created.agent_version, subject: "user-7" });
  const key = await post("/v1/keys", { name: "executor", scopes: ["executors:connect", "tools:execute"] });
  return { bindingId, agentVersion: created.agent_version, sessionId: session.session_id, executorKey: key.key };
}

/** `openai` model settings naming the test `openai` connection. */
export function openAiModel(patch: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    provider: "openai",
    connection: OPENAI_CONNECTION,
    model: "gpt-test",
    max_output_tokens: 256,
    temperature: 0.2,
    ...patch,
  };
}

/** `anthropic` model settings naming the test `anthropic` connection. */
export function anthropicModel(patch: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    provider: "anthropic",
    connection: ANTHROPIC_CONNECTION,
    model: "claude-test",
    max_output_tokens: 256,
    ...patch,
  };
}

/** Starts a run; answers its ID. */
export async function startModelRun(
  server: TestServer,
  world: ModelWorld,
  input: unknown = "Plan my day",
): Promise<string> {
  const run = expectStatus(
    await server.call("POST", `/v1/sessions/${world.sessionId}/runs`, { ...admin, body: { input } }),
    201,
  );
  return run.run_id as string;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of answers.
type Json = any;

/** GET with the bootstrap key, expecting 200; answers the body. */
export async function readJson(server: TestServer, path: string): Promise<Json> {
  return expectStatus(await server.call("GET", path, admin), 200);
}

/** Polls until `done` holds for the run (real time, bounded); answers the run. */
export async function runWhen(
  server: TestServer,
  runId: string,
  done: (run: Json) => boolean,
  what: string,
): Promise<Json> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const run = await readJson(server, `/v1/runs/${runId}`);
    if (done(run)) return run;
    if (Date.now() > deadline) throw new Error(`never happened: ${what} (run: ${JSON.stringify(run)})`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Waits for the run to end; answers it. */
export function runEnded(server: TestServer, runId: string): Promise<Json> {
  return runWhen(
    server,
    runId,
    (run) => ["completed", "failed", "cancelled", "expired"].includes(run.status),
    `run ${runId} ends`,
  );
}

/** The run's history items (parsed) and their exact texts. */
export async function historyItems(server: TestServer, runId: string): Promise<Json[]> {
  return (await readJson(server, `/v1/runs/${runId}/history?limit=200`)).data;
}

/** The run's model requests. */
export async function modelRequests(server: TestServer, runId: string): Promise<Json[]> {
  return (await readJson(server, `/v1/runs/${runId}/model-requests?limit=200`)).data;
}

/** The run's tool calls. */
export async function toolCalls(server: TestServer, runId: string): Promise<Json[]> {
  return (await readJson(server, `/v1/runs/${runId}/tool-calls?limit=200`)).data;
}

/** Waits until the run waits for tools with `count` pending calls; answers the calls. */
export async function pendingCalls(server: TestServer, runId: string, count: number): Promise<Json[]> {
  await runWhen(
    server,
    runId,
    (run) => run.status === "waiting_for_tools" || run.status === "failed",
    "the run waits for tools",
  );
  const calls = (await toolCalls(server, runId)).filter((call: Json) => call.status === "pending");
  expect(calls.length).toBe(count);
  return calls;
}

/**
 * Plays the executor until the run ends: every pending call of the run is claimed, accepted and
 * completed with `resultOf(call)`. Answers the ended run.
 */
export async function executeUntilEnded(
  server: TestServer,
  world: ModelWorld,
  runId: string,
  resultOf: (call: Json, index: number) => unknown,
): Promise<Json> {
  let done = 0;
  for (;;) {
    const run = await runWhen(
      server,
      runId,
      (r) => r.status === "waiting_for_tools" || ["completed", "failed", "cancelled", "expired"].includes(r.status),
      "the run waits for tools or ends",
    );
    if (run.status !== "waiting_for_tools") return run;
    for (const call of (await toolCalls(server, runId)).filter((c: Json) => c.status === "pending")) {
      const holder = await claimAndAccept(server, world.bindingId, runId, call.call_id);
      await sendReceipt(server, runId, call.call_id, {
        ...holder,
        receipt_id: `${call.call_id}-done`,
        kind: "completed",
        result: resultOf(call, done++),
      });
    }
  }
}

/** A fake `respond` that calls `tasks_read` for `turns` turns, then answers `final`; summary requests get a summary. */
export function readingAgent(turns: number, final = "All read.") {
  let calls = 0;
  return (request: { body: Json }): FakeReply => {
    const body = request.body;
    if (body.tool_choice === "none" || body.tool_choice?.type === "none") {
      return {
        kind: "message",
        text: `Summary: ${body.messages.length} messages so far; the user wants every page read.`,
      };
    }
    if (calls >= turns) return { kind: "message", text: final };
    calls++;
    return { kind: "tool_calls", calls: [{ name: "tasks_read", arguments: { cursor: `p${calls}` } }] };
  };
}
