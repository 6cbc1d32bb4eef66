/**
 * The exchanges the OpenAPI examples are recorded from: one scripted tour of the API against a
 * running server (an admin key), from health through configuration, an executor cycle, runs and
 * their records, to revocation, plus a few refusals. Each exchange names its operationId.
 * `record-openapi-examples.mjs` records them into `src/http/openapi-examples.ts`; the test
 * `openapi-examples.test.ts` runs the tour again on a fresh server and compares the answers.
 */

/** Sends one request (with no credential when `key` is null); answers the exchange as recorded. */
async function exchange(baseUrl, key, operationId, method, path, request) {
  const headers = key === null ? {} : { authorization: `Bearer ${key}` };
  if (request !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: request === undefined ? undefined : JSON.stringify(request),
  });
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  const answer = type.startsWith("application/json") ? JSON.parse(text) : text;
  return {
    operationId,
    method,
    path,
    ...(request === undefined ? {} : { request }),
    status: response.status,
    response: answer,
  };
}

/** Runs the tour with `adminKey` (scope `admin`); answers every exchange in order. */
export async function tourExchanges(baseUrl, adminKey) {
  const exchanges = [];
  const call = async (operationId, method, path, request, key = adminKey) => {
    const recorded = await exchange(baseUrl, key, operationId, method, path, request);
    exchanges.push(recorded);
    return recorded.response;
  };
  // Waits are not recorded: how many polls it takes is not part of the API.
  const waitForRun = async (runId, statuses) => {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const run = (await exchange(baseUrl, adminKey, "getRun", "GET", `/v1/runs/${runId}`)).response;
      if (statuses.includes(run.status)) return run;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`run ${runId} never reached ${statuses.join(" or ")}`);
  };

  await call("getHealth", "GET", "/v1/health", undefined, null);
  await call("getReadiness", "GET", "/v1/ready", undefined, null);
  await call("listKeys", "GET", "/v1/keys");
  const key = await call("createKey", "POST", "/v1/keys", {
    name: "task service executor",
    scopes: ["executors:connect", "tools:execute"],
  });
  await call("listKeys", "GET", "/v1/keys?limit=2");

  const bindingId = "task-service";
  await call("createBinding", "POST", "/v1/executor-bindings", { binding_id: bindingId, name: "Task service" });
  await call("createBinding", "POST", "/v1/executor-bindings", { binding_id: bindingId, name: "Task service" });
  await call("listBindings", "GET", "/v1/executor-bindings");
  await call("getBinding", "GET", `/v1/executor-bindings/${bindingId}`);

  const createTool = {
    name: "tasks.create",
    description: "Creates a task for the current user.",
    binding_id: bindingId,
    effect: "write",
    input_schema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
    timeout_ms: 60000,
  };
  const deleteTool = {
    name: "tasks.delete",
    description: "Deletes a task (compensates tasks.create).",
    binding_id: bindingId,
    effect: "write",
    input_schema: { type: "object", properties: { task_id: { type: "string" } }, required: ["task_id"] },
  };
  const toolset = await call("createToolset", "POST", "/v1/toolsets", { name: "task service", tools: [createTool] });
  const toolsetId = toolset.toolset_id;
  await call("publishToolsetVersion", "POST", `/v1/toolsets/${toolsetId}/versions`, {
    tools: [createTool, deleteTool],
  });
  await call("listToolsets", "GET", "/v1/toolsets");
  await call("getToolset", "GET", `/v1/toolsets/${toolsetId}`);
  await call("listToolsetVersions", "GET", `/v1/toolsets/${toolsetId}/versions`);
  await call("getToolsetVersion", "GET", `/v1/toolsets/${toolsetId}/versions/2`);

  const agent = await call("createAgent", "POST", "/v1/agents", { name: "task assistant" });
  const agentId = agent.agent_id;
  const script = [{ tool_calls: [{ name: "tasks.create", arguments: { title: "Buy milk" } }] }, { message: "Done." }];
  const version = await call("publishAgentVersion", "POST", `/v1/agents/${agentId}/versions`, {
    toolset_id: toolsetId,
    toolset_version: 2,
    model: { provider: "scripted", script },
  });
  const agentVersion = version.agent_version;
  await call("listAgents", "GET", "/v1/agents");
  await call("getAgent", "GET", `/v1/agents/${agentId}`);
  await call("listAgentVersions", "GET", `/v1/agents/${agentId}/versions`);
  await call("getAgentVersion", "GET", `/v1/agents/${agentId}/versions/${agentVersion}`);

  const session = await call("createSession", "POST", "/v1/sessions", {
    agent_version: agentVersion,
    subject: "user-42",
  });
  const sessionId = session.session_id;
  await call("listSessions", "GET", "/v1/sessions");
  await call("getSession", "GET", `/v1/sessions/${sessionId}`);

  await call("dryRunToolCall", "POST", "/v1/tools/dry-run", {
    agent_version: agentVersion,
    tool_name: "tasks.create",
    arguments: { title: "Buy milk" },
    mock_receipts: [{ receipt_id: "r-1", kind: "completed", result: { task_id: "task-1", title: "Buy milk" } }],
  });

  // The executor cycle, with the executor's own key.
  const executorKey = key.key;
  const executorId = "task-service-1";
  const connection = await call(
    "connectExecutor",
    "POST",
    "/v1/executors/connect",
    { executor_id: executorId, binding_ids: [bindingId], tool_names: ["tasks.create", "tasks.delete"] },
    executorKey,
  );
  const connectionId = connection.connection_id;
  await call(
    "heartbeatExecutor",
    "POST",
    `/v1/executors/${executorId}/heartbeat`,
    { connection_id: connectionId },
    executorKey,
  );

  const run = await call("createRun", "POST", `/v1/sessions/${sessionId}/runs`, {
    input: "Add 'Buy milk' to my tasks",
  });
  const runId = run.run_id;
  await waitForRun(runId, ["waiting_for_tools"]);
  const pending = await call(
    "listPendingCalls",
    "GET",
    `/v1/executors/${executorId}/pending?connection_id=${connectionId}&wait_ms=5000`,
    undefined,
    executorKey,
  );
  const callId = pending.data[0].call_id;
  const claim = await call(
    "claimToolCall",
    "POST",
    `/v1/runs/${runId}/tool-calls/${callId}/claim`,
    { executor_id: executorId, connection_id: connectionId },
    executorKey,
  );
  const receipt = (receiptId, kind, extra = {}) => ({
    receipt_id: receiptId,
    executor_id: executorId,
    claim_id: claim.claim_id,
    grant: claim.grant,
    kind,
    ...extra,
  });
  const receipts = `/v1/runs/${runId}/tool-calls/${callId}/receipts`;
  await call("sendReceipt", "POST", receipts, receipt("r-1", "accepted"), executorKey);
  await call("sendReceipt", "POST", receipts, receipt("r-2", "progress", { progress: { percent: 50 } }), executorKey);
  await call(
    "reportExecutorCalls",
    "POST",
    `/v1/executors/${executorId}/calls/report`,
    {
      connection_id: connectionId,
      calls: [
        { call_id: callId, claim_id: claim.claim_id, state: "pending_delivery", receipt_ids: ["r-1", "r-2", "r-3"] },
      ],
    },
    executorKey,
  );
  const completed = receipt("r-3", "completed", { result: { task_id: "task-1", title: "Buy milk" } });
  await call("sendReceipt", "POST", receipts, completed, executorKey);
  await call("sendReceipt", "POST", receipts, completed, executorKey);
  await call("sendReceipt", "POST", receipts, { ...completed, result: { task_id: "task-2" } }, executorKey);
  await waitForRun(runId, ["completed"]);

  await call("getRun", "GET", `/v1/runs/${runId}`);
  await call("listSessionRuns", "GET", `/v1/sessions/${sessionId}/runs`);
  await call("listRuns", "GET", "/v1/runs");
  await call("listToolCalls", "GET", `/v1/runs/${runId}/tool-calls`);
  await call("listCallReceipts", "GET", receipts);
  await call("getRunHistory", "GET", `/v1/runs/${runId}/history`);
  await call("listModelRequests", "GET", `/v1/runs/${runId}/model-requests`);
  await call("diagnoseBinding", "GET", `/v1/agents/${agentId}/executor-bindings/${bindingId}/diagnostics`);
  await call("listExecutors", "GET", "/v1/executors");

  // Compensation, business cancel and run cancel.
  const compensation = await call("compensateToolCall", "POST", `/v1/runs/${runId}/tool-calls/${callId}/compensate`, {
    tool_name: "tasks.delete",
    arguments: { task_id: "task-1" },
  });
  await call("cancelToolCall", "POST", `/v1/runs/${runId}/tool-calls/${compensation.call_id}/cancel`, {});
  await call("cancelToolCall", "POST", `/v1/runs/${runId}/tool-calls/${callId}/cancel`, {});
  const second = await call("createRun", "POST", `/v1/sessions/${sessionId}/runs`, { input: "Add 'Buy bread'" });
  await call("cancelRun", "POST", `/v1/runs/${second.run_id}/cancel`);
  await call("cancelRun", "POST", `/v1/runs/${second.run_id}/cancel`);

  await call(
    "disconnectExecutor",
    "POST",
    `/v1/executors/${executorId}/disconnect`,
    { connection_id: connectionId },
    executorKey,
  );
  await call(
    "heartbeatExecutor",
    "POST",
    `/v1/executors/${executorId}/heartbeat`,
    { connection_id: connectionId },
    executorKey,
  );

  // Refusals.
  await call("getRun", "GET", "/v1/runs/run_missing");
  await call("listRuns", "GET", "/v1/runs", undefined, "th_not-a-key");
  await call("createAgent", "POST", "/v1/agents", { name: "x", colour: "blue" });
  await call("listAgents", "GET", "/v1/agents", undefined, executorKey);
  await call("revokeKey", "DELETE", `/v1/keys/${key.key_id}`);
  return exchanges;
}
