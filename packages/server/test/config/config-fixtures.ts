/**
 * Shared by the configuration API tests: builders of valid bodies and helpers that create objects
 * over HTTP (with the bootstrap key unless told otherwise) and read whole lists page by page.
 */

import { expect } from "vitest";
import { type Answer, BOOTSTRAP_SECRET, type TestServer } from "../http/http-harness.js";

/** The bootstrap key as a call option. */
export const admin = { key: BOOTSTRAP_SECRET };

/** An ISO 8601 UTC time with milliseconds. */
export const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** A minimal valid tool named `name` on `bindingId`, with `patch` merged in. */
export function tool(name: string, bindingId: string, patch: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, binding_id: bindingId, input_schema: { type: "object" }, ...patch };
}

/** A valid scripted model: one tool call, then a message. */
export const SCRIPTED_MODEL = {
  provider: "scripted",
  script: [{ tool_calls: [{ name: "tasks.read", arguments: { cursor: "c1" } }] }, { message: "done" }],
} as const;

/** Expects `answer` to be an error with `status`, `code` and `pointer` (undefined: no pointer). */
export function expectError(answer: Answer, status: number, code: string, pointer?: string): void {
  expect(
    { status: answer.status, code: answer.body?.error?.code, pointer: answer.body?.error?.pointer },
    answer.text,
  ).toEqual({
    status,
    code,
    pointer,
  });
}

/** Expects a 201 and answers its body. */
async function created(answer: Promise<Answer>): Promise<Answer["body"]> {
  const done = await answer;
  if (done.status !== 201) throw new Error(`expected 201, got ${done.status}: ${done.text}`);
  return done.body;
}

/** Registers a binding (ID chosen by the server unless given) and answers its ID. */
export async function createBinding(server: TestServer, bindingId?: string, key = BOOTSTRAP_SECRET): Promise<string> {
  const body = bindingId === undefined ? { name: "binding" } : { binding_id: bindingId, name: `binding ${bindingId}` };
  return (await created(server.call("POST", "/v1/executor-bindings", { key, body }))).binding_id as string;
}

/** Creates a toolset with `tools` and answers its ID. */
export async function createToolset(server: TestServer, tools: unknown[], key = BOOTSTRAP_SECRET): Promise<string> {
  const body = { name: "toolset", tools };
  return (await created(server.call("POST", "/v1/toolsets", { key, body }))).toolset_id as string;
}

/** Creates an agent and answers its ID. */
export async function createAgent(server: TestServer, key = BOOTSTRAP_SECRET): Promise<string> {
  return (await created(server.call("POST", "/v1/agents", { key, body: { name: "agent" } }))).agent_id as string;
}

/** Publishes a version of `agentId` pinning `toolsetId`@`toolsetVersion` and answers its `agent_version`. */
export async function createAgentVersion(
  server: TestServer,
  agentId: string,
  toolsetId: string,
  toolsetVersion = 1,
  key = BOOTSTRAP_SECRET,
): Promise<string> {
  const body = { toolset_id: toolsetId, toolset_version: toolsetVersion, model: SCRIPTED_MODEL };
  const answer = await created(server.call("POST", `/v1/agents/${agentId}/versions`, { key, body }));
  return answer.agent_version as string;
}

/** Every item of a list, read page by page with `limit`; also answers how many pages it took. */
export async function readAll(
  server: TestServer,
  path: string,
  key = BOOTSTRAP_SECRET,
  limit = 200,
): Promise<{ items: Array<Record<string, unknown>>; pages: number; texts: string[] }> {
  const items: Array<Record<string, unknown>> = [];
  const texts: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query = new URLSearchParams({ limit: String(limit) });
    if (cursor !== null) query.set("cursor", cursor);
    const answer = await server.call("GET", `${path}?${query}`, { key });
    expect(answer.status, answer.text).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(["data", "next_cursor"]);
    items.push(...answer.body.data);
    texts.push(answer.text);
    cursor = answer.body.next_cursor;
    pages++;
  } while (cursor !== null);
  return { items, pages, texts };
}

/** The whole configuration as the bootstrap key lists it, to compare before and after a refused request. */
export async function snapshot(server: TestServer): Promise<string> {
  const lists: Record<string, unknown> = {};
  for (const path of ["/v1/executor-bindings", "/v1/toolsets", "/v1/agents", "/v1/sessions"]) {
    lists[path] = (await readAll(server, path)).items;
  }
  for (const toolset of lists["/v1/toolsets"] as Array<{ toolset_id: string }>) {
    lists[toolset.toolset_id] = (await readAll(server, `/v1/toolsets/${toolset.toolset_id}/versions`)).items;
  }
  for (const agent of lists["/v1/agents"] as Array<{ agent_id: string }>) {
    lists[agent.agent_id] = (await readAll(server, `/v1/agents/${agent.agent_id}/versions`)).items;
  }
  return JSON.stringify(lists);
}
