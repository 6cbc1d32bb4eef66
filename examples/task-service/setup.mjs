/**
 * Configures a running toolhost server for the task service, through the HTTP API with an admin key:
 * the `task-service` binding, a toolset with tasks.create / tasks.read / tasks.export, an agent
 * version whose scripted model creates a task, reads the list and exports it, a session and an
 * executor key (the binding is reused when it exists). Prints the environment for main.mjs. With
 * `--run`, also starts a run, waits for it to end and prints its history (start main.mjs first).
 *
 *   TOOLHOST_URL=http://127.0.0.1:8080 TOOLHOST_ADMIN_KEY=… node examples/task-service/setup.mjs [--run]
 */

/** The task service's tool definitions on `bindingId`. */
export function taskTools(bindingId) {
  return [
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
}

/** Creates everything through the API; answers the IDs and the executor key. */
export async function setUpTaskService(baseUrl, adminKey, { bindingId = "task-service", subject = "user-42" } = {}) {
  const post = async (path, body, allowConflict = false) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (allowConflict && response.status === 409) return undefined;
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text}`);
    return JSON.parse(text);
  };
  // The binding may exist from an earlier setup: reuse it (the executor serving it keeps running).
  await post("/v1/executor-bindings", { binding_id: bindingId, name: "Task service" }, true);
  const toolset = await post("/v1/toolsets", { name: "task service", tools: taskTools(bindingId) });
  const agent = await post("/v1/agents", { name: "task assistant" });
  const version = await post(`/v1/agents/${agent.agent_id}/versions`, {
    toolset_id: toolset.toolset_id,
    toolset_version: 1,
    model: {
      provider: "scripted",
      script: [
        { tool_calls: [{ name: "tasks.create", arguments: { title: "Buy milk" } }] },
        {
          tool_calls: [
            { name: "tasks.read", arguments: { limit: 10 } },
            { name: "tasks.export", arguments: {} },
          ],
        },
        { message: "Created the task, read the list and exported it." },
      ],
    },
  });
  const session = await post("/v1/sessions", { agent_version: version.agent_version, subject });
  const key = await post("/v1/keys", { name: "task service executor", scopes: ["executors:connect", "tools:execute"] });
  return { bindingId, agentId: agent.agent_id, sessionId: session.session_id, executorKey: key.key };
}

/** Starts a run of the session and polls it until it ends; answers the run and its history. */
export async function runAndWait(baseUrl, adminKey, sessionId, timeoutMs = 30_000) {
  const call = async (method, path, body) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminKey}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return JSON.parse(await response.text());
  };
  let run = await call("POST", `/v1/sessions/${sessionId}/runs`, { input: "Add 'Buy milk' to my tasks" });
  const deadline = Date.now() + timeoutMs;
  while (!["completed", "failed", "cancelled", "expired"].includes(run.status)) {
    if (Date.now() > deadline) throw new Error(`run ${run.run_id} still ${run.status}: is main.mjs running?`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    run = await call("GET", `/v1/runs/${run.run_id}`);
  }
  return { run, history: await call("GET", `/v1/runs/${run.run_id}/history`) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const baseUrl = process.env.TOOLHOST_URL ?? "http://127.0.0.1:8080";
  const adminKey = process.env.TOOLHOST_ADMIN_KEY;
  if (!adminKey) {
    console.error("set TOOLHOST_ADMIN_KEY (e.g. the server's TOOLHOST_BOOTSTRAP_KEY)");
    process.exit(2);
  }
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
}
