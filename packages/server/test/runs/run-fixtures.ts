/**
 * Black-box run test support: publish a toolset and an agent version with a given script over the
 * configuration routes, open a session, start runs, and drive a call through an executor (connect,
 * claim, receipts) over the executor protocol routes.
 */

import type { ToolCall } from "@toolhost/protocol/wire";
import { expect } from "vitest";
import { createAgent, createBinding, createToolset } from "../config/config-fixtures.js";
import { type Answer, BOOTSTRAP_SECRET, type TestServer } from "../http/http-harness.js";

/** The bootstrap key as a call option. */
export const admin = { key: BOOTSTRAP_SECRET };

/** A read tool: `{cursor?: string}`, strict. */
export const READ_TOOL = {
  name: "tasks.read",
  effect: "read",
  input_schema: { type: "object", properties: { cursor: { type: "string" } }, additionalProperties: false },
  max_result_context_bytes: 1024,
};

/** A write tool: `{title: string}` required, strict. */
export const WRITE_TOOL = {
  name: "tasks.create",
  input_schema: {
    type: "object",
    properties: { title: { type: "string" } },
    required: ["title"],
    additionalProperties: false,
  },
  max_result_context_bytes: 2048,
  timeout_ms: 60_000,
};

/** A compensating write tool: `{task_id: string}` required. */
export const UNDO_TOOL = {
  name: "tasks.delete",
  input_schema: { type: "object", properties: { task_id: { type: "string" } }, required: ["task_id"] },
};

/** What `publishScript` created. */
export interface Script {
  readonly bindingId: string;
  readonly agentId: string;
  readonly agentVersion: string;
  readonly sessionId: string;
}

/** Publishes the three tools on a new binding and an agent version playing `script`; opens a session. */
export async function publishScript(server: TestServer, script: unknown[]): Promise<Script> {
  const bindingId = await createBinding(server);
  const tools = [READ_TOOL, WRITE_TOOL, UNDO_TOOL].map((tool) => ({ ...tool, binding_id: bindingId }));
  const toolsetId = await createToolset(server, tools);
  const agentId = await createAgent(server);
  const model = { provider: "scripted", script };
  const version = await server.call("POST", `/v1/agents/${agentId}/versions`, {
    ...admin,
    body: { toolset_id: toolsetId, toolset_version: 1, model },
  });
  expect(version.status, version.text).toBe(201);
  const session = await server.call("POST", "/v1/sessions", {
    ...admin,
    body: { agent_version: version.body.agent_version, subject: "user-1" },
  });
  expect(session.status, session.text).toBe(201);
  return { bindingId, agentId, agentVersion: version.body.agent_version, sessionId: session.body.session_id };
}

/** Starts a run with `input` (a value sent as JSON, or the exact body text) and expects 201. */
export async function startRun(
  server: TestServer,
  sessionId: string,
  body: unknown = { input: "hello" },
): Promise<Answer> {
  const answer = await server.call("POST", `/v1/sessions/${sessionId}/runs`, { ...admin, body });
  expect(answer.status, answer.text).toBe(201);
  return answer;
}

/** GET with the bootstrap key, expecting 200. */
export async function read(server: TestServer, path: string): Promise<Answer> {
  const answer = await server.call("GET", path, admin);
  expect(answer.status, answer.text).toBe(200);
  return answer;
}

/** The run's whole history as parsed items. */
export async function historyOf(server: TestServer, runId: string): Promise<Array<Record<string, unknown>>> {
  return (await read(server, `/v1/runs/${runId}/history?limit=200`)).body.data;
}

/** The run's tool calls (first page of 200). */
export async function callsOf(server: TestServer, runId: string): Promise<ToolCall[]> {
  return (await read(server, `/v1/runs/${runId}/tool-calls?limit=200`)).body.data;
}

let executors = 0;

/** What a receipt needs from a claim. */
export interface Holder {
  readonly executor_id: string;
  readonly claim_id: string;
  readonly grant: string;
}

/** Connects a new executor on `bindingId` and claims the call with it. */
export async function claim(server: TestServer, bindingId: string, runId: string, callId: string): Promise<Holder> {
  executors++;
  const executorId = `exec-${executors}`;
  const connected = await server.call("POST", "/v1/executors/connect", {
    ...admin,
    body: { executor_id: executorId, binding_ids: [bindingId] },
  });
  expect(connected.status, connected.text).toBe(200);
  const claimed = await server.call("POST", `/v1/runs/${runId}/tool-calls/${callId}/claim`, {
    ...admin,
    body: { executor_id: executorId, connection_id: connected.body.connection_id },
  });
  expect(claimed.status, claimed.text).toBe(200);
  return { executor_id: executorId, claim_id: claimed.body.claim_id, grant: claimed.body.grant };
}

/** Claims the call with a new executor and sends `accepted` (expecting `confirmed: true`). */
export async function claimAndAccept(
  server: TestServer,
  bindingId: string,
  runId: string,
  callId: string,
): Promise<Holder> {
  const holder = await claim(server, bindingId, runId, callId);
  const accepted = await sendReceipt(server, runId, callId, {
    ...holder,
    receipt_id: `${callId}-accepted`,
    kind: "accepted",
  });
  expect(accepted.body.confirmed, accepted.text).toBe(true);
  return holder;
}

/** Posts a receipt (a value sent as JSON, or its exact text) and expects 200. */
export async function sendReceipt(server: TestServer, runId: string, callId: string, body: unknown): Promise<Answer> {
  const answer = await server.call("POST", `/v1/runs/${runId}/tool-calls/${callId}/receipts`, { ...admin, body });
  expect(answer.status, answer.text).toBe(200);
  return answer;
}

/** The item at `index`; fails the test when there is none. */
export function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`expected an item at ${index}; got ${items.length} items`);
  return item;
}
