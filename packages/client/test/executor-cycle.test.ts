// The generated client drives a whole executor cycle against a real server: configure, connect,
// long-poll pending, claim, accepted (confirmed), progress, completed, and the run completes.
import { expect, it } from "vitest";
import { BOOTSTRAP_SECRET, startTestServer } from "../../server/test/http/http-harness.js";
import { describeEachDialect } from "../../server/test/support/test-databases.js";
import { createToolhostClient, type Schemas } from "../src/index.js";

describeEachDialect("the typed client", (dialect) => {
  it("drives connect → pending → claim → accepted → progress → completed", async () => {
    const server = await startTestServer(dialect);
    const admin = createToolhostClient({ baseUrl: server.url, apiKey: BOOTSTRAP_SECRET });

    const binding = await admin.POST("/v1/executor-bindings", { body: { binding_id: "tasks", name: "Tasks" } });
    expect(binding.response.status).toBe(201);
    const toolset = await admin.POST("/v1/toolsets", {
      body: {
        name: "tasks",
        tools: [
          {
            name: "tasks.create",
            binding_id: "tasks",
            effect: "write",
            input_schema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
          },
        ],
      },
    });
    if (toolset.data === undefined) throw new Error(JSON.stringify(toolset.error));
    const agent = await admin.POST("/v1/agents", { body: { name: "assistant" } });
    if (agent.data === undefined) throw new Error(JSON.stringify(agent.error));
    const version = await admin.POST("/v1/agents/{agent_id}/versions", {
      params: { path: { agent_id: agent.data.agent_id } },
      body: {
        toolset_id: toolset.data.toolset_id,
        toolset_version: 1,
        model: {
          provider: "scripted",
          script: [{ tool_calls: [{ name: "tasks.create", arguments: { title: "Buy milk" } }] }, { message: "Done." }],
        },
      },
    });
    if (version.data === undefined) throw new Error(JSON.stringify(version.error));
    const session = await admin.POST("/v1/sessions", {
      body: { agent_version: version.data.agent_version, subject: "user-1" },
    });
    if (session.data === undefined) throw new Error(JSON.stringify(session.error));
    const key = await admin.POST("/v1/keys", {
      body: { name: "executor", scopes: ["executors:connect", "tools:execute"] },
    });
    if (key.data === undefined) throw new Error(JSON.stringify(key.error));

    const executor = createToolhostClient({ baseUrl: server.url, apiKey: key.data.key });
    const executor_id = "tasks-1";
    const connected = await executor.POST("/v1/executors/connect", {
      body: { executor_id, binding_ids: ["tasks"], tool_names: ["tasks.create"] },
    });
    if (connected.data === undefined) throw new Error(JSON.stringify(connected.error));
    const connection_id = connected.data.connection_id;

    const run = await admin.POST("/v1/sessions/{session_id}/runs", {
      params: { path: { session_id: session.data.session_id } },
      body: { input: "Add 'Buy milk'" },
    });
    if (run.data === undefined) throw new Error(JSON.stringify(run.error));
    const run_id = run.data.run_id;

    let pending: Schemas["PendingAnswer"] | undefined;
    for (let attempt = 0; attempt < 20 && (pending?.data.length ?? 0) === 0; attempt += 1) {
      const answer = await executor.GET("/v1/executors/{executor_id}/pending", {
        params: { path: { executor_id }, query: { connection_id, wait_ms: 2_000 } },
      });
      pending = answer.data;
    }
    const candidate = pending?.data[0];
    if (candidate === undefined) throw new Error("no pending call");
    expect(candidate.tool_name).toBe("tasks.create");
    const path = { run_id, call_id: candidate.call_id };

    const claim = await executor.POST("/v1/runs/{run_id}/tool-calls/{call_id}/claim", {
      params: { path },
      body: { executor_id, connection_id },
    });
    if (claim.data === undefined) throw new Error(JSON.stringify(claim.error));
    expect(claim.data.call.arguments).toEqual({ title: "Buy milk" });
    const envelope = { executor_id, claim_id: claim.data.claim_id, grant: claim.data.grant };

    const accepted = await executor.POST("/v1/runs/{run_id}/tool-calls/{call_id}/receipts", {
      params: { path },
      body: { ...envelope, receipt_id: "r-1", kind: "accepted" },
    });
    expect(accepted.data?.confirmed).toBe(true);
    const progress = await executor.POST("/v1/runs/{run_id}/tool-calls/{call_id}/receipts", {
      params: { path },
      body: { ...envelope, receipt_id: "r-2", kind: "progress", progress: { percent: 50 } },
    });
    expect(progress.data?.call_status).toBe("accepted");
    const completed = await executor.POST("/v1/runs/{run_id}/tool-calls/{call_id}/receipts", {
      params: { path },
      body: { ...envelope, receipt_id: "r-3", kind: "completed", result: { task_id: "t-1" } },
    });
    expect(completed.data?.call_status).toBe("completed");

    // A refusal is typed too: the same receipt ID with another body.
    const conflict = await executor.POST("/v1/runs/{run_id}/tool-calls/{call_id}/receipts", {
      params: { path },
      body: { ...envelope, receipt_id: "r-3", kind: "completed", result: { task_id: "t-2" } },
    });
    expect(conflict.response.status).toBe(409);
    expect(conflict.error?.error.code).toBe("receipt_conflict");

    let status: string | undefined;
    for (let attempt = 0; attempt < 200 && status !== "completed"; attempt += 1) {
      const current = await admin.GET("/v1/runs/{run_id}", { params: { path: { run_id } } });
      status = current.data?.status;
      if (status !== "completed") await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(status).toBe("completed");
    const disconnected = await executor.POST("/v1/executors/{executor_id}/disconnect", {
      params: { path: { executor_id } },
      body: { connection_id },
    });
    expect(disconnected.response.status).toBe(200);
  });
});
