/**
 * Black-box support for the claim and receipt tests: a real server on 127.0.0.1 with a manual clock
 * (sweeps tick on real time but see the manual time), and a "world" built through the HTTP API — keys,
 * a binding, a toolset, an agent version with a scripted model, a session — plus helpers to start
 * runs, connect executors, claim calls and send receipts.
 */

import { afterAll, expect } from "vitest";
import type { Clock } from "../../src/clock.js";
import { startServer } from "../../src/index.js";
import type { ServerOptions } from "../../src/options.js";
import type { Dialect } from "../../src/storage/storage.js";
import {
  type Answer,
  BOOTSTRAP_SECRET,
  type Call,
  LogCapture,
  request,
  type TestServer,
} from "../http/http-harness.js";
import { testDatabaseUrl } from "../support/test-databases.js";

/** The bootstrap key as a call option. */
export const admin = { key: BOOTSTRAP_SECRET };

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  constructor(private now = Date.parse("2026-03-01T12:00:00.000Z")) {}

  nowMs(): number {
    return this.now;
  }

  /** Moves the clock forward by `ms`. */
  advance(ms: number): void {
    this.now += ms;
  }
}

/** A test server with its manual clock. */
export interface ClockedServer extends TestServer {
  readonly clock: ManualClock;
}

const open = new Set<ClockedServer>();

afterAll(async () => {
  for (const server of open) await server.close();
});

/** Starts a server on a fresh database of `dialect` with a manual clock and fast sweeps. */
export async function startClockedServer(dialect: Dialect, options: ServerOptions = {}): Promise<ClockedServer> {
  const database = await testDatabaseUrl(dialect);
  const logs = new LogCapture();
  const clock = new ManualClock();
  const server = await startServer(
    {
      databaseUrl: database.url,
      host: "127.0.0.1",
      port: 0,
      bootstrapKey: BOOTSTRAP_SECRET,
      logLevel: "warn",
      logDestination: logs,
      sweepIntervalMs: 10,
      ...options,
    },
    {},
    clock,
  );
  const clocked: ClockedServer = {
    url: server.url,
    server,
    database,
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

/** Expects `answer` to have `status` (showing its text otherwise) and answers its body. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of answers.
export function expectStatus(answer: Answer, status: number): any {
  expect(answer.status, answer.text).toBe(status);
  return answer.body;
}

/** Expects an error answer with `status` and `code`. */
export function expectError(answer: Answer, status: number, code: string): void {
  expect({ status: answer.status, code: answer.body?.error?.code }, answer.text).toEqual({ status, code });
}

/** One scripted model step. */
export type ScriptStep = { tool_calls: Array<{ name: string; arguments: unknown }> } | { message: string };

/** What `buildWorld` made. */
export interface World {
  readonly bindingId: string;
  readonly agentId: string;
  readonly agentVersion: string;
  readonly toolsetId: string;
  readonly sessionId: string;
  /** A key with `executors:connect` and `tools:execute`. */
  readonly executorKey: string;
  /** A key with `executors:connect` only. */
  readonly connectOnlyKey: string;
}

let worlds = 0;

/** Tools of the world's toolset: `tasks.write` (write) and `tasks.undo` (write), on one binding. */
export function worldTools(bindingId: string, patch: Record<string, unknown> = {}): Array<Record<string, unknown>> {
  return [
    {
      name: "tasks.write",
      description: "Writes a task.",
      binding_id: bindingId,
      input_schema: { type: "object", properties: { title: { type: "string" } } },
      max_result_context_bytes: 1024,
      timeout_ms: 600_000,
      ...patch,
    },
    {
      name: "tasks.undo",
      description: "Undoes a task write.",
      binding_id: bindingId,
      input_schema: { type: "object" },
      timeout_ms: 600_000,
    },
  ];
}

/** Builds the configuration through the API: binding, toolset, agent version scripted with `script`, session, keys. */
export async function buildWorld(
  server: Pick<TestServer, "call">,
  script: ScriptStep[],
  toolPatch: Record<string, unknown> = {},
): Promise<World> {
  worlds++;
  const bindingId = `binding-${worlds}`;
  const post = async (path: string, body: unknown): Promise<Answer["body"]> =>
    expectStatus(await server.call("POST", path, { ...admin, body }), 201);
  await post("/v1/executor-bindings", { binding_id: bindingId, name: "calls binding" });
  const toolset = await post("/v1/toolsets", { name: "calls toolset", tools: worldTools(bindingId, toolPatch) });
  const agent = await post("/v1/agents", { name: "calls agent" });
  const version = await post(`/v1/agents/${agent.agent_id}/versions`, {
    toolset_id: toolset.toolset_id,
    toolset_version: 1,
    model: { provider: "scripted", script },
  });
  const session = await post("/v1/sessions", { agent_version: version.agent_version, subject: "user-42" });
  const executorKey = await post("/v1/keys", { name: "executor", scopes: ["executors:connect", "tools:execute"] });
  const connectOnlyKey = await post("/v1/keys", { name: "connect only", scopes: ["executors:connect"] });
  return {
    bindingId,
    agentId: agent.agent_id,
    agentVersion: version.agent_version,
    toolsetId: toolset.toolset_id,
    sessionId: session.session_id,
    executorKey: executorKey.key,
    connectOnlyKey: connectOnlyKey.key,
  };
}

/** Starts a run of the world's session and answers its ID. */
export async function startRun(
  server: Pick<TestServer, "call">,
  world: World,
  input: unknown = { ask: "go" },
): Promise<string> {
  const run = expectStatus(
    await server.call("POST", `/v1/sessions/${world.sessionId}/runs`, { ...admin, body: { input } }),
    201,
  );
  return run.run_id as string;
}

/** The run's calls (first page of up to 200). */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of answers.
export async function listCalls(server: Pick<TestServer, "call">, runId: string): Promise<any[]> {
  return expectStatus(await server.call("GET", `/v1/runs/${runId}/tool-calls?limit=200`, admin), 200).data;
}

/** The run as `GET /v1/runs/{id}` answers it. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of answers.
export async function getRun(server: TestServer, runId: string): Promise<any> {
  return expectStatus(await server.call("GET", `/v1/runs/${runId}`, admin), 200);
}

/** The exact text of the run's history answer. */
export async function historyText(server: TestServer, runId: string): Promise<string> {
  const answer = await server.call("GET", `/v1/runs/${runId}/history?limit=200`, admin);
  expect(answer.status, answer.text).toBe(200);
  return answer.text;
}

/** A connected executor. */
export interface Executor {
  readonly executor_id: string;
  readonly connection_id: string;
}

/** Connects `executorId` on the world's binding with the executor key. */
export async function connect(server: Pick<TestServer, "call">, world: World, executorId: string): Promise<Executor> {
  const answer = await server.call("POST", "/v1/executors/connect", {
    key: world.executorKey,
    body: { executor_id: executorId, binding_ids: [world.bindingId] },
  });
  const body = expectStatus(answer, 200);
  return { executor_id: body.executor_id, connection_id: body.connection_id };
}

/** Sends a claim of one call by `executor`. */
export function claim(
  server: Pick<TestServer, "call">,
  world: World,
  runId: string,
  callId: string,
  executor: Executor,
): Promise<Answer> {
  return server.call("POST", `/v1/runs/${runId}/tool-calls/${callId}/claim`, {
    key: world.executorKey,
    body: { executor_id: executor.executor_id, connection_id: executor.connection_id },
  });
}

/** A won claim: the call's IDs, the claim and its grant. */
export interface Held {
  readonly runId: string;
  readonly callId: string;
  readonly executorId: string;
  readonly claimId: string;
  readonly grant: string;
}

/** Claims a call and expects to win it. */
export async function claimed(
  server: TestServer,
  world: World,
  runId: string,
  callId: string,
  executor: Executor,
): Promise<Held> {
  const body = expectStatus(await claim(server, world, runId, callId, executor), 200);
  return { runId, callId, executorId: executor.executor_id, claimId: body.claim_id, grant: body.grant };
}

/** Sends a receipt (`fields` merged into the claim's envelope; a string body is sent verbatim). */
export function receipt(
  server: Pick<TestServer, "call">,
  world: World,
  held: Held,
  fields: Record<string, unknown> | string,
): Promise<Answer> {
  const body =
    typeof fields === "string"
      ? fields
      : { executor_id: held.executorId, claim_id: held.claimId, grant: held.grant, ...fields };
  return server.call("POST", `/v1/runs/${held.runId}/tool-calls/${held.callId}/receipts`, {
    key: world.executorKey,
    body,
  });
}

/** Polls `read` until `done` holds for its value (sweeps run on their own ticker); answers that value. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never happened: ${what}`);
}
