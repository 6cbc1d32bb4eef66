// Runs with the `openai` and `anthropic` providers, end to end through the official SDKs against a
// local fake model server speaking each real wire format: the run driver asks the model outside any
// transaction, tool names are mapped and mapped back, parallel calls, invalid arguments, retries
// (429 with retry-after, 500 exhausted), non-retryable errors, and the model connection's key read from the
// environment (a connection whose key variable is unset stops the server at start).

import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compact, parseJson } from "@toolhost/protocol";
import { ToolRunner } from "@toolhost/runner";
import { afterAll, expect, it } from "vitest";
import { BOOTSTRAP_SECRET } from "../http/http-harness.js";
import { claimAndAccept, sendReceipt } from "../runs/run-fixtures.js";
import { describeEachDialect } from "../support/test-databases.js";
import { startFakeModelServer } from "./fake-model-server.js";
import {
  anthropicModel,
  buildModelWorld,
  fakeConnections,
  historyItems,
  KEY_VALUE,
  modelRequests,
  openAiModel,
  pendingCalls,
  runEnded,
  startModelRun,
  startModelServer,
  toolCalls,
} from "./model-harness.js";

const runners = new Set<ToolRunner>();
afterAll(async () => {
  for (const runner of runners) await runner.stop().catch(() => undefined);
});

/** The compact text of a stored tool_result item's projected result. */
function resultTextOf(item: Record<string, unknown>): string {
  return compact(parseJson(JSON.stringify((item.context_preview as { result: unknown }).result)));
}

describeEachDialect("runs with HTTP model providers", (dialect) => {
  it("openai end to end: a real executor, three turns (one with parallel calls), the right history", async () => {
    const fake = await startFakeModelServer();
    fake.push(
      { kind: "tool_calls", calls: [{ name: "tasks_read", arguments: {} }] },
      {
        kind: "tool_calls",
        calls: [
          { name: "tasks_create", arguments: { title: "Buy milk" } },
          { name: "tasks_create", arguments: { title: "买牛奶" } },
        ],
      },
      { kind: "message", text: "Two tasks created." },
    );
    const server = await startModelServer(dialect, { fakeUrl: fake.url });
    const world = await buildModelWorld(server, openAiModel());
    const runner = new ToolRunner({
      baseUrl: server.url,
      apiKey: world.executorKey,
      executorId: `exec-${dialect}`,
      bindingIds: [world.bindingId],
      journalPath: join(await mkdtemp(join(tmpdir(), "toolhost-model-")), "journal.db"),
      pollWaitMs: 500,
      retryBackoffMinMs: 10,
      retryBackoffMaxMs: 100,
      logger: "silent",
    });
    runners.add(runner);
    let created = 0;
    runner.register("tasks.read", async () => ({ tasks: [], next_cursor: null }), { effect: "read" });
    runner.register(
      "tasks.create",
      async (call) => ({ task_id: `t${++created}`, title: (call.arguments as { title: string }).title }),
      {
        effect: "write",
      },
    );
    await runner.start();

    const runId = await startModelRun(server, world, "Create two tasks");
    const run = await runEnded(server, runId);
    expect(run).toMatchObject({ status: "completed", output: "Two tasks created." });

    const items = await historyItems(server, runId);
    expect(items.map((item) => item.type)).toEqual([
      "input",
      "tool_calls",
      "tool_result",
      "tool_calls",
      "tool_result",
      "tool_result",
      "message",
    ]);
    expect(items[1].calls.map((call: { name: string }) => call.name)).toEqual(["tasks.read"]);
    expect(items[3].calls.map((call: { name: string; arguments: unknown }) => [call.name, call.arguments])).toEqual([
      ["tasks.create", { title: "Buy milk" }],
      ["tasks.create", { title: "买牛奶" }],
    ]);
    const calls = await toolCalls(server, runId);
    expect(calls.map((call) => [call.turn, call.tool_name, call.status])).toEqual([
      [0, "tasks.read", "completed"],
      [1, "tasks.create", "completed"],
      [1, "tasks.create", "completed"],
    ]);

    // What the model was sent: three requests through the SDK, the key from the environment, mapped
    // tool names, the run's call IDs, and each tool result byte for byte its stored projection's result.
    expect(fake.requests.map((r) => r.format)).toEqual(["openai", "openai", "openai"]);
    for (const r of fake.requests) expect(r.headers.authorization).toBe(`Bearer ${KEY_VALUE}`);
    const first = fake.requests[0]?.body;
    expect(first.model).toBe("gpt-test");
    expect(first.temperature).toBe(0.2);
    expect(first.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      "tasks_read",
      "tasks_create",
    ]);
    expect(first.messages).toEqual([
      { role: "system", content: "You manage tasks." },
      { role: "user", content: "Create two tasks" },
    ]);
    const last = fake.requests[2]?.body.messages;
    expect(last.slice(2).map((m: { role: string }) => m.role)).toEqual([
      "assistant",
      "tool",
      "assistant",
      "tool",
      "tool",
    ]);
    expect(last[2].tool_calls[0]).toEqual({
      id: items[1].calls[0].call_id,
      type: "function",
      function: { name: "tasks_read", arguments: "{}" },
    });
    const toolMessages = last.filter((m: { role: string }) => m.role === "tool");
    const results = items.filter((item) => item.type === "tool_result");
    expect(toolMessages.map((m: { tool_call_id: string; content: string }) => [m.tool_call_id, m.content])).toEqual(
      results.map((item) => [item.call_id, resultTextOf(item)]),
    );
    // Each request holds the previous one as its prefix.
    for (let i = 1; i < fake.requests.length; i++) {
      const previous = JSON.stringify(fake.requests[i - 1]?.body.messages).slice(0, -1);
      expect(JSON.stringify(fake.requests[i]?.body.messages).startsWith(previous)).toBe(true);
    }

    const requests = await modelRequests(server, runId);
    expect(requests.map((r) => [r.turn, r.purpose, r.provider, r.model, r.actual_input_tokens])).toEqual(
      fake.requests.map((r, turn) => [turn, "turn", "openai", "gpt-test", r.inputTokens]),
    );
    for (const [i, r] of requests.entries()) {
      expect(r.request_bytes).toBe(Buffer.byteLength(fake.requests[i]?.text ?? ""));
      expect(r.output_tokens).toBe(7);
      expect(r.compacted).toBe(false);
      expect(r.estimated_input_tokens).toBeGreaterThan(0);
    }
  }, 60_000);

  it("anthropic: parallel tool_use blocks, results back as tool_result blocks in one user message", async () => {
    const fake = await startFakeModelServer();
    fake.push(
      {
        kind: "tool_calls",
        text: "Let me look.",
        calls: [
          { name: "tasks_read", arguments: { cursor: "a" } },
          { name: "tasks_read", arguments: { cursor: "b" } },
        ],
      },
      { kind: "message", text: "Read both pages." },
    );
    const server = await startModelServer(dialect, { fakeUrl: fake.url });
    const world = await buildModelWorld(server, anthropicModel());
    const started = await server.call("POST", `/v1/sessions/${world.sessionId}/runs`, {
      key: BOOTSTRAP_SECRET,
      body: '{"input":{"ask":"read","n":12345678901234567890}}',
    });
    expect(started.status, started.text).toBe(201);
    const runId: string = started.body.run_id;
    const [a, b] = await pendingCalls(server, runId, 2);
    for (const call of [a, b]) {
      const holder = await claimAndAccept(server, world.bindingId, runId, call.call_id);
      await sendReceipt(server, runId, call.call_id, {
        ...holder,
        receipt_id: `${call.call_id}-done`,
        kind: "completed",
        result: { page: call.call_id === a.call_id ? "a" : "b", items: ["整理报告"] },
      });
    }
    const run = await runEnded(server, runId);
    expect(run).toMatchObject({ status: "completed", output: "Read both pages." });
    expect(fake.requests.map((r) => r.format)).toEqual(["anthropic", "anthropic"]);
    // This SDK version sends the key as a bearer token.
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${KEY_VALUE}`);
    const second = fake.requests[1]?.body;
    expect(second.system).toBe("You manage tasks.");
    expect(second.max_tokens).toBe(256);
    expect(second.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "user"]);
    // The input keeps its big integer as the compact text of the stored input.
    expect(second.messages[0].content).toEqual([{ type: "text", text: '{"ask":"read","n":12345678901234567890}' }]);
    expect(second.messages[1].content).toEqual([
      { type: "tool_use", id: a.call_id, name: "tasks_read", input: { cursor: "a" } },
      { type: "tool_use", id: b.call_id, name: "tasks_read", input: { cursor: "b" } },
    ]);
    expect(
      second.messages[2].content.map((block: { type: string; tool_use_id: string }) => [block.type, block.tool_use_id]),
    ).toEqual([
      ["tool_result", a.call_id],
      ["tool_result", b.call_id],
    ]);
    expect(second.messages[2].content[0].content).toBe('{"page":"a","items":["整理报告"]}');
    const requests = await modelRequests(server, runId);
    expect(requests.map((r) => r.actual_input_tokens)).toEqual(fake.requests.map((r) => r.inputTokens));
  }, 60_000);

  it("invalid arguments and unknown tools go back to the model as tool errors; no executor sees them", async () => {
    const fake = await startFakeModelServer();
    fake.push(
      {
        kind: "tool_calls",
        calls: [
          { name: "tasks_create", arguments: "{not json" },
          { name: "tasks_create", arguments: { title: 5 } },
          { name: "tasks_remove", arguments: {} },
        ],
      },
      { kind: "message", text: "I could not." },
    );
    const server = await startModelServer(dialect, { fakeUrl: fake.url });
    const world = await buildModelWorld(server, openAiModel());
    const runId = await startModelRun(server, world);
    const run = await runEnded(server, runId);
    expect(run).toMatchObject({ status: "completed", output: "I could not." });
    const calls = await toolCalls(server, runId);
    expect(calls.map((call) => [call.tool_name, call.status, call.rejected])).toEqual([
      ["tasks.create", "failed", "invalid_arguments"],
      ["tasks.create", "failed", "invalid_arguments"],
      ["tasks_remove", "failed", "unknown_tool"],
    ]);
    const toolMessages = fake.requests[1]?.body.messages.filter((m: { role: string }) => m.role === "tool");
    const errors = toolMessages.map((m: { content: string }) => JSON.parse(m.content).error);
    expect(errors.map((e: { code: string }) => e.code)).toEqual([
      "invalid_arguments",
      "invalid_arguments",
      "unknown_tool",
    ]);
    expect(errors[0].errors[0].message).toMatch(/not valid JSON/);
    expect(errors[1].errors[0].pointer).toBe("/title");
    expect(errors[2].tools).toEqual(["tasks.read", "tasks.create"]);
  }, 60_000);

  it("retries a 429 after its retry-after, then goes on; one request on record", async () => {
    const fake = await startFakeModelServer();
    fake.push(
      {
        kind: "error",
        status: 429,
        headers: { "retry-after": "1" },
        body: { error: { message: "slow down", type: "rate_limit" } },
      },
      { kind: "message", text: "ok" },
    );
    const server = await startModelServer(dialect, { fakeUrl: fake.url });
    const world = await buildModelWorld(server, openAiModel());
    const runId = await startModelRun(server, world);
    const run = await runEnded(server, runId);
    expect(run).toMatchObject({ status: "completed", output: "ok" });
    expect(fake.requests.length).toBe(2);
    const requests = await modelRequests(server, runId);
    expect(requests.length).toBe(1);
    // The SDK waited for the retry-after second before asking again.
    expect(requests[0].latency_ms).toBeGreaterThanOrEqual(900);
  }, 60_000);

  it("fails the run with model_error when 500s exhaust the retries, and at once on a 401", async () => {
    const fake = await startFakeModelServer();
    const error = { kind: "error" as const, status: 500, headers: { "retry-after-ms": "5" } };
    fake.push(error, error, error);
    const server = await startModelServer(dialect, { fakeUrl: fake.url, modelMaxRetries: 2 });
    const world = await buildModelWorld(server, openAiModel());
    const runId = await startModelRun(server, world);
    const run = await runEnded(server, runId);
    expect(run.status).toBe("failed");
    expect(run.error.code).toBe("model_error");
    expect(run.error.message).toMatch(/500/);
    expect(fake.requests.length).toBe(3);
    const [record] = await modelRequests(server, runId);
    expect(record).toMatchObject({ actual_input_tokens: null, error: { code: "model_error" } });

    fake.push({ kind: "error", status: 401, body: { error: { message: "bad key", type: "invalid_request_error" } } });
    const second = await startModelRun(server, world);
    const refused = await runEnded(server, second);
    expect(refused.error).toMatchObject({ code: "model_error" });
    expect(refused.error.message).toMatch(/401/);
    expect(fake.requests.length).toBe(4);
  }, 60_000);

  it("does not start when a connection's api_key_env is not set, naming the connection, never a value", async () => {
    const fake = await startFakeModelServer();
    const modelConnections = {
      ...fakeConnections(fake.url),
      spare: { provider: "openai", base_url: `${fake.url}/v1`, api_key_env: "TOOLHOST_TEST_UNSET_KEY" },
    };
    await expect(startModelServer(dialect, { modelConnections })).rejects.toThrow(
      'option modelConnections: connection "spare": its api_key_env TOOLHOST_TEST_UNSET_KEY is not set in the environment',
    );
    expect(fake.requests.length).toBe(0);
  }, 60_000);
});
