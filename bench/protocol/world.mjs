/**
 * The configuration bench/protocol runs against, made through the HTTP API with the bootstrap key:
 * one executor binding, a toolset with one write tool on it, an agent version whose scripted model
 * emits one call of that tool and then a final message (so every run is exactly one call), a session,
 * and two keys — the producer's (`runtime:write`) and the executors' (`executors:connect` +
 * `tools:execute`), as a deployment would hand them out.
 */

import { HttpConnection } from "./http-connection.mjs";

/** The tool every run calls. */
export const TOOL_NAME = "tasks.write";

/** The scripted model: turn 1 calls the tool, turn 2 (after its result) ends the run. */
export const SCRIPT = [
  { tool_calls: [{ name: TOOL_NAME, arguments: { title: "Call the plumber", due: "2026-03-02" } }] },
  { message: "Done: the task is created." },
];

/**
 * @typedef {object} World
 * @property {string} bindingId
 * @property {string} sessionId
 * @property {string} producerKey   runtime:write
 * @property {string} executorKey   executors:connect + tools:execute
 */

/** Builds the world on the server at `url`. @returns {Promise<World>} */
export async function buildWorld(url, adminKey) {
  const admin = new HttpConnection(url, adminKey);
  const post = async (path, body) => {
    const answer = await admin.request("POST", path, JSON.stringify(body));
    if (answer.status !== 201) throw new Error(`POST ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    return JSON.parse(answer.text);
  };
  try {
    const binding = await post("/v1/executor-bindings", { name: "bench protocol" });
    const tool = {
      name: TOOL_NAME,
      description: "Writes a task.",
      binding_id: binding.binding_id,
      input_schema: { type: "object", properties: { title: { type: "string" }, due: { type: "string" } } },
      max_result_context_bytes: 1024,
      effect: "write",
      timeout_ms: 600_000,
    };
    const toolset = await post("/v1/toolsets", { name: "bench protocol", tools: [tool] });
    const agent = await post("/v1/agents", { name: "bench protocol" });
    const version = await post(`/v1/agents/${agent.agent_id}/versions`, {
      toolset_id: toolset.toolset_id,
      toolset_version: toolset.version,
      model: { provider: "scripted", script: SCRIPT },
    });
    const session = await post("/v1/sessions", { agent_version: version.agent_version, subject: "bench-user" });
    const producer = await post("/v1/keys", { name: "bench producer", scopes: ["runtime:write", "runtime:read"] });
    const executor = await post("/v1/keys", {
      name: "bench executors",
      scopes: ["executors:connect", "tools:execute"],
    });
    return {
      bindingId: binding.binding_id,
      sessionId: session.session_id,
      producerKey: producer.key,
      executorKey: executor.key,
    };
  } finally {
    admin.close();
  }
}
