/**
 * Published configuration for dry-run tests, made through the configuration routes as a client would:
 * an executor binding, a toolset with the given tools, an agent and one agent version pinning it.
 */

import { BOOTSTRAP_SECRET, type TestServer } from "../http/http-harness.js";

/** What publishing made. */
export interface Published {
  readonly agentId: string;
  readonly agentVersion: string;
  readonly bindingId: string;
}

/** The model settings every fixture agent version pins (the built-in scripted model). */
export const SCRIPTED_MODEL = { provider: "scripted", script: [{ message: "done" }] } as const;

async function created(server: TestServer, path: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await server.call("POST", path, { key: BOOTSTRAP_SECRET, body });
  if (answer.status !== 201) throw new Error(`POST ${path} answered ${answer.status}: ${answer.text}`);
  return answer.body;
}

/** Publishes an agent version whose toolset holds `tools` (definitions as a client sends them, without binding_id). */
export async function publishAgent(
  server: TestServer,
  tools: ReadonlyArray<Record<string, unknown>>,
): Promise<Published> {
  const binding = await created(server, "/v1/executor-bindings", { name: "dry-run binding" });
  const bindingId = binding.binding_id as string;
  const toolset = await created(server, "/v1/toolsets", {
    name: "dry-run toolset",
    tools: tools.map((tool) => ({ ...tool, binding_id: bindingId })),
  });
  const agent = await created(server, "/v1/agents", { name: "dry-run agent" });
  const agentId = agent.agent_id as string;
  const version = await created(server, `/v1/agents/${agentId}/versions`, {
    toolset_id: toolset.toolset_id,
    toolset_version: toolset.version,
    model: SCRIPTED_MODEL,
  });
  return { agentId, agentVersion: version.agent_version as string, bindingId };
}
