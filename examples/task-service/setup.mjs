/**
 * Configures a running toolhost server for the task service, through the HTTP API with an admin key:
 * the `task-service` binding, a toolset with tasks.create / tasks.read / tasks.export, an agent
 * version whose scripted model creates a task, reads the list and exports it, a session and an
 * executor key (the binding is reused when it exists). Prints the environment for main.mjs. With
 * `--run`, also starts a run, waits for it to end and prints its history (start main.mjs first).
 *
 *   TOOLHOST_URL=http://127.0.0.1:8080 TOOLHOST_ADMIN_KEY=… node examples/task-service/setup.mjs [--run]
 *
 * `npm start` and `toolhost demo` use the same functions (`configureTaskService` with
 * tasks.read and tasks.create, `runAndWait`). The calls go through `@toolhost/client`, the typed client.
 */

import { createToolhostClient, RunWaitTimeout } from "@toolhost/client";

/** Every tool the task service serves. */
export const TASK_TOOL_NAMES = ["tasks.create", "tasks.read", "tasks.export"];

/** The task service's tool definitions on `bindingId` (those named in `toolNames`). */
export function taskTools(bindingId, toolNames = TASK_TOOL_NAMES) {
  const tools = [
    {
      name: "tasks.create",
      description: "Creates a task for the current user.",
      binding_id: bindingId,
      effect: "write",
      input_schema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
      timeout_ms: 60_000,
    },
    {
      name: "tasks.read",
      description: "Reads the current user's tasks, one page at a time.",
      binding_id: bindingId,
      effect: "read",
      input_schema: { type: "object", properties: { cursor: { type: "string" }, limit: { type: "integer" } } },
      max_result_context_bytes: 16_384,
    },
    {
      name: "tasks.export",
      description: "Exports the current user's tasks (long-running).",
      binding_id: bindingId,
      effect: "write",
      input_schema: { type: "object" },
      timeout_ms: 600_000,
    },
  ];
  return tools.filter((tool) => toolNames.includes(tool.name));
}

/** The scripted model's steps: create a task, read the list (and export it), then answer. */
export function taskScript(toolNames = TASK_TOOL_NAMES) {
  const has = (name) => toolNames.includes(name);
  const second = [
    ...(has("tasks.read") ? [{ name: "tasks.read", arguments: { limit: 10 } }] : []),
    ...(has("tasks.export") ? [{ name: "tasks.export", arguments: {} }] : []),
  ];
  const done = has("tasks.export")
    ? "Created the task, read the list and exported it."
    : "Created the task and read the list.";
  return [
    ...(has("tasks.create") ? [{ tool_calls: [{ name: "tasks.create", arguments: { title: "Buy milk" } }] }] : []),
    ...(second.length > 0 ? [{ tool_calls: second }] : []),
    { message: done },
  ];
}

/** A typed client of `baseUrl` with the admin key. */
function adminClient(baseUrl, adminKey) {
  return createToolhostClient({ baseUrl, apiKey: adminKey });
}

/**
 * The answer of a client request: its data, or undefined on a 409 when `allowConflict` (an existing
 * binding); any other refusal throws `METHOD PATH: STATUS BODY`.
 */
async function answerOf(request, method, path, allowConflict = false) {
  const { data, error, response } = await request;
  if (allowConflict && response.status === 409) return undefined;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(error)}`);
  return data;
}

/**
 * Creates the binding (reused when it exists), a toolset of `toolNames`, an agent named `agentName`
 * with a scripted version, and a session for `subject`; answers their IDs.
 */
export async function configureTaskService(
  baseUrl,
  adminKey,
  { bindingId = "task-service", subject = "user-42", toolNames = TASK_TOOL_NAMES, agentName = "task assistant" } = {},
) {
  const toolhost = adminClient(baseUrl, adminKey);
  // The binding may exist from an earlier setup: reuse it (the executor serving it keeps running).
  await answerOf(
    toolhost.POST("/v1/executor-bindings", { body: { binding_id: bindingId, name: "Task service" } }),
    "POST",
    "/v1/executor-bindings",
    true,
  );
  const toolset = await answerOf(
    toolhost.POST("/v1/toolsets", { body: { name: "task service", tools: taskTools(bindingId, toolNames) } }),
    "POST",
    "/v1/toolsets",
  );
  const agent = await answerOf(toolhost.POST("/v1/agents", { body: { name: agentName } }), "POST", "/v1/agents");
  const version = await answerOf(
    toolhost.POST("/v1/agents/{agent_id}/versions", {
      params: { path: { agent_id: agent.agent_id } },
      body: {
        toolset_id: toolset.toolset_id,
        toolset_version: 1,
        model: { provider: "scripted", script: taskScript(toolNames) },
      },
    }),
    "POST",
    `/v1/agents/${agent.agent_id}/versions`,
  );
  const session = await answerOf(
    toolhost.POST("/v1/sessions", { body: { agent_version: version.agent_version, subject } }),
    "POST",
    "/v1/sessions",
  );
  return {
    bindingId,
    toolsetId: toolset.toolset_id,
    agentId: agent.agent_id,
    agentVersion: version.agent_version,
    sessionId: session.session_id,
  };
}

/** Creates everything through the API; answers the IDs and the executor key. */
export async function setUpTaskService(baseUrl, adminKey, { bindingId = "task-service", subject = "user-42" } = {}) {
  const made = await configureTaskService(baseUrl, adminKey, { bindingId, subject });
  const key = await answerOf(
    adminClient(baseUrl, adminKey).POST("/v1/keys", {
      body: { name: "task service executor", scopes: ["executors:connect", "tools:execute"] },
    }),
    "POST",
    "/v1/keys",
  );
  return { bindingId, agentId: made.agentId, sessionId: made.sessionId, executorKey: key.key };
}

/** Starts a run of the session and polls it until it ends; answers the run and its history. */
export async function runAndWait(
  baseUrl,
  adminKey,
  sessionId,
  timeoutMs = 30_000,
  input = "Add 'Buy milk' to my tasks",
) {
  const toolhost = adminClient(baseUrl, adminKey);
  const runPath = (id) => ({ params: { path: { run_id: id } } });
  let run = await answerOf(
    toolhost.POST("/v1/sessions/{session_id}/runs", { params: { path: { session_id: sessionId } }, body: { input } }),
    "POST",
    `/v1/sessions/${sessionId}/runs`,
  );
  // The client follows the run's event stream until the run ends (no polling).
  try {
    run = await toolhost.waitForRun(run.run_id, { timeoutMs });
  } catch (error) {
    if (error instanceof RunWaitTimeout)
      throw new Error(`run ${run.run_id} still ${error.status}: is main.mjs running?`);
    throw error;
  }
  const history = await answerOf(
    toolhost.GET("/v1/runs/{run_id}/history", runPath(run.run_id)),
    "GET",
    `/v1/runs/${run.run_id}/history`,
  );
  return { run, history };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const baseUrl = process.env.TOOLHOST_URL ?? "http://127.0.0.1:8080";
  const adminKey = process.env.TOOLHOST_ADMIN_KEY;
  if (!adminKey) {
    console.error("set TOOLHOST_ADMIN_KEY (e.g. the server's TOOLHOST_BOOTSTRAP_KEY)");
    process.exit(2);
  }
  try {
    const made = await setUpTaskService(baseUrl, adminKey);
    console.log(`TOOLHOST_URL=${baseUrl}`);
    console.log(`TOOLHOST_API_KEY=${made.executorKey}`);
    console.log(`BINDING_ID=${made.bindingId}`);
    console.log(`# session ${made.sessionId} (agent ${made.agentId})`);
    if (process.argv.includes("--run")) {
      const { run, history } = await runAndWait(baseUrl, adminKey, made.sessionId);
      console.log(JSON.stringify(run, null, 2));
      console.log(JSON.stringify(history, null, 2));
    }
  } catch (error) {
    console.error(
      unreachableMessage(error, baseUrl) ?? `setup failed: ${error instanceof Error ? error.message : error}`,
    );
    process.exit(1);
  }
}

/** A one-line explanation when `error` is fetch failing to reach the server (no stack), else undefined. */
function unreachableMessage(error, baseUrl) {
  if (!(error instanceof TypeError) || error.message !== "fetch failed") return undefined;
  const cause = error.cause instanceof Error ? ` (${error.cause.code ?? error.cause.message})` : "";
  return `cannot reach the toolhost server at ${baseUrl}${cause}: start it (npx toolhost serve) or set TOOLHOST_URL to its address`;
}
