// Run limits (docs/runs.md#limits), black-box over HTTP on a real server and database of each dialect:
// the agent version fields at or below the server's, a model that keeps calling a tool that does not
// exist stopped by max_turns (scripted and over HTTP to a fake provider), max_tool_calls, the per-turn
// call limit answered to the model as tool errors, and the deadline sweep expiring many runs.

import { afterAll, beforeAll, expect, it } from "vitest";
import {
  admin,
  type ClockedServer,
  eventually,
  expectError,
  expectStatus,
  getRun,
  listCalls,
  type ScriptStep,
  startClockedServer,
} from "../calls/calls-harness.js";
import type { TestServer } from "../http/http-harness.js";
import { startFakeModelServer } from "../models/fake-model-server.js";
import {
  buildModelWorld,
  modelRequests,
  openAiModel,
  runEnded,
  startModelServer,
  toolCalls,
} from "../models/model-harness.js";
import { describeEachDialect } from "../support/test-databases.js";

/** The server's limits in these tests (small, so runs reach them fast). */
const SERVER_LIMITS = { maxTurns: 6, maxToolCalls: 80, runTimeoutMs: 60_000 } as const;

let worlds = 0;

/** A binding with one tool, `tasks.write`; answers the toolset's ID. */
async function publishToolset(server: Pick<TestServer, "call">): Promise<{ toolsetId: string; bindingId: string }> {
  const bindingId = `limits-binding-${++worlds}`;
  expectStatus(
    await server.call("POST", "/v1/executor-bindings", { ...admin, body: { binding_id: bindingId, name: "b" } }),
    201,
  );
  const tool = { name: "tasks.write", binding_id: bindingId, input_schema: { type: "object" }, timeout_ms: 600_000 };
  const toolset = expectStatus(
    await server.call("POST", "/v1/toolsets", { ...admin, body: { name: "limits", tools: [tool] } }),
    201,
  );
  return { toolsetId: toolset.toolset_id, bindingId };
}

/** Publishes an agent version playing `script` with the run limit fields `limits`; answers the raw answer. */
async function publishVersion(
  server: Pick<TestServer, "call">,
  script: ScriptStep[],
  limits: Record<string, unknown> = {},
) {
  const { toolsetId } = await publishToolset(server);
  const agent = expectStatus(await server.call("POST", "/v1/agents", { ...admin, body: { name: "limits" } }), 201);
  const answer = await server.call("POST", `/v1/agents/${agent.agent_id}/versions`, {
    ...admin,
    body: { toolset_id: toolsetId, toolset_version: 1, model: { provider: "scripted", script }, ...limits },
  });
  return { agentId: agent.agent_id as string, answer };
}

/** Starts a run of a new session of `agentVersion`; answers the created run. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of answers.
async function runOf(server: Pick<TestServer, "call">, agentVersion: string): Promise<any> {
  const session = expectStatus(
    await server.call("POST", "/v1/sessions", { ...admin, body: { agent_version: agentVersion, subject: "u" } }),
    201,
  );
  return expectStatus(
    await server.call("POST", `/v1/sessions/${session.session_id}/runs`, { ...admin, body: { input: "go" } }),
    201,
  );
}

/** A script step calling `count` times a tool the toolset lacks. */
function unknownCalls(count: number): ScriptStep {
  return { tool_calls: Array.from({ length: count }, (_, i) => ({ name: "tasks.missing", arguments: { i } })) };
}

describeEachDialect("run limits", (dialect) => {
  let server: ClockedServer;

  beforeAll(async () => {
    server = await startClockedServer(dialect, SERVER_LIMITS);
  });

  afterAll(async () => {
    await server?.close();
  });

  it("an agent version keeps its limits at or below the server's; above, or not a positive integer, is 422 at the field", async () => {
    const { answer } = await publishVersion(server, [{ message: "hi" }], {
      max_turns: 6,
      max_tool_calls: 3,
      run_timeout_ms: 1_000,
    });
    const version = expectStatus(answer, 201);
    expect(version).toMatchObject({ max_turns: 6, max_tool_calls: 3, run_timeout_ms: 1_000 });
    const read = await server.call("GET", `/v1/agents/${version.agent_id}/versions/${version.agent_version}`, admin);
    expect(expectStatus(read, 200)).toEqual(version);

    const refusals: Array<[Record<string, unknown>, string, string]> = [
      [{ max_turns: 7 }, "/max_turns", "validation_failed"],
      [{ max_tool_calls: 81 }, "/max_tool_calls", "validation_failed"],
      [{ run_timeout_ms: 60_001 }, "/run_timeout_ms", "validation_failed"],
      [{ max_turns: 0 }, "/max_turns", "validation_failed"],
      [{ max_tool_calls: 2.5 }, "/max_tool_calls", "validation_failed"],
      [{ run_timeout_ms: "1000" }, "/run_timeout_ms", "validation_failed"],
    ];
    for (const [fields, pointer, code] of refusals) {
      const { agentId, answer: refused } = await publishVersion(server, [{ message: "hi" }], fields);
      expectError(refused, 422, code);
      expect(refused.body.error.pointer, refused.text).toBe(pointer);
      // Nothing was stored.
      const versions = expectStatus(await server.call("GET", `/v1/agents/${agentId}/versions`, admin), 200);
      expect(versions.data).toEqual([]);
    }
  });

  it("a model that keeps calling a tool that does not exist fails run_limit_exceeded after max_turns turns", async () => {
    // Ten steps that each call a missing tool: without the limit the script plays to its end.
    const script = Array.from({ length: 10 }, () => unknownCalls(1));
    const { answer } = await publishVersion(server, script, { max_turns: 4 });
    const run = await runOf(server, expectStatus(answer, 201).agent_version);
    expect(run.status).toBe("failed");
    expect(run.error.code).toBe("run_limit_exceeded");
    expect(run.error.message).toContain("max_turns");
    expect((await listCalls(server, run.run_id)).map((call) => call.rejected)).toEqual(Array(4).fill("unknown_tool"));
    const requests = expectStatus(await server.call("GET", `/v1/runs/${run.run_id}/model-requests`, admin), 200);
    expect(requests.data).toHaveLength(4);
  });

  it("the server's max_turns applies when the version sets none", async () => {
    const script = Array.from({ length: 10 }, () => unknownCalls(1));
    const { answer } = await publishVersion(server, script);
    const run = await runOf(server, expectStatus(answer, 201).agent_version);
    expect(run).toMatchObject({ status: "failed", error: { code: "run_limit_exceeded" } });
    expect(await listCalls(server, run.run_id)).toHaveLength(SERVER_LIMITS.maxTurns);
  });

  it("a turn asking for more tool calls than max_tool_calls leaves fails the run and creates none of them", async () => {
    const { answer } = await publishVersion(server, [unknownCalls(2), unknownCalls(2), { message: "done" }], {
      max_tool_calls: 3,
    });
    const run = await runOf(server, expectStatus(answer, 201).agent_version);
    expect(run.status).toBe("failed");
    expect(run.error.code).toBe("run_limit_exceeded");
    expect(run.error.message).toContain("max_tool_calls");
    // The first turn's two calls exist; the second turn's two would make four.
    expect(await listCalls(server, run.run_id)).toHaveLength(2);
  });

  it("the deadline sweep expires every overdue run in deadline order, past a batch, and cancels their unconfirmed calls", async () => {
    const { toolsetId } = await publishToolset(server);
    const agent = expectStatus(await server.call("POST", "/v1/agents", { ...admin, body: { name: "slow" } }), 201);
    const script: ScriptStep[] = [{ tool_calls: [{ name: "tasks.write", arguments: {} }] }, { message: "done" }];
    const publish = async (runTimeoutMs: number) =>
      expectStatus(
        await server.call("POST", `/v1/agents/${agent.agent_id}/versions`, {
          ...admin,
          body: {
            toolset_id: toolsetId,
            toolset_version: 1,
            model: { provider: "scripted", script },
            run_timeout_ms: runTimeoutMs,
          },
        }),
        201,
      ).agent_version as string;
    const short = await publish(1_000);
    const long = await publish(5_000);
    const session = async (version: string) =>
      expectStatus(
        await server.call("POST", "/v1/sessions", { ...admin, body: { agent_version: version, subject: "u" } }),
        201,
      ).session_id as string;
    const shortSession = await session(short);
    const longSession = await session(long);
    const start = async (sessionId: string) =>
      expectStatus(
        await server.call("POST", `/v1/sessions/${sessionId}/runs`, { ...admin, body: { input: "go" } }),
        201,
      ).run_id as string;
    // More overdue runs than one tick expires (200), and one that is not due yet.
    const due: string[] = [];
    for (let i = 0; i < 230; i++) due.push(await start(shortSession));
    const later = await start(longSession);

    server.clock.advance(1_000);
    const last = due[due.length - 1] as string;
    await eventually(
      () => getRun(server, last),
      (run) => run.status === "expired",
      "the last overdue run expires",
    );
    for (const runId of [due[0] as string, due[150] as string, last]) {
      const run = await getRun(server, runId);
      expect(run.status).toBe("expired");
      expect(run.error.code).toBe("run_limit_exceeded");
      expect(run.error.message).toContain("run_timeout_ms");
      expect((await listCalls(server, runId)).map((call) => call.status)).toEqual(["cancelled"]);
    }
    expect((await getRun(server, later)).status).toBe("waiting_for_tools");
    server.clock.advance(4_000);
    await eventually(
      () => getRun(server, later),
      (run) => run.status === "expired",
      "the later run expires at its own deadline",
    );
    // An expired run takes nothing more: its cancel is 409.
    expectError(await server.call("POST", `/v1/runs/${last}/cancel`, admin), 409, "run_terminated");
  }, 120_000);
});

describeEachDialect("run limits with an HTTP model", (dialect) => {
  it("a model that keeps calling a missing tool makes max_turns requests, then the run fails run_limit_exceeded", async () => {
    const fake = await startFakeModelServer({
      respond: () => ({ kind: "tool_calls", calls: [{ name: "tasks_nonexistent", arguments: {} }] }),
    });
    const server = await startModelServer(dialect, { maxTurns: 5, fakeUrl: fake.url });
    try {
      const world = await buildModelWorld(server, openAiModel());
      const created = expectStatus(
        await server.call("POST", `/v1/sessions/${world.sessionId}/runs`, { ...admin, body: { input: "go" } }),
        201,
      );
      const run = await runEnded(server, created.run_id);
      expect(run.status).toBe("failed");
      expect(run.error.code).toBe("run_limit_exceeded");
      expect(run.error.message).toContain("max_turns");
      expect(fake.requests).toHaveLength(5);
      expect(await modelRequests(server, created.run_id)).toHaveLength(5);
    } finally {
      await server.close();
    }
  }, 60_000);

  it("calls past 64 in one turn are refused too_many_calls and answered to the model as tool errors", async () => {
    const calls = Array.from({ length: 70 }, (_, i) => ({ name: "tasks_nonexistent", arguments: { i } }));
    const fake = await startFakeModelServer();
    fake.push({ kind: "tool_calls", calls }, { kind: "message", text: "done" });
    const server = await startModelServer(dialect, { fakeUrl: fake.url });
    try {
      const world = await buildModelWorld(server, openAiModel());
      const created = expectStatus(
        await server.call("POST", `/v1/sessions/${world.sessionId}/runs`, { ...admin, body: { input: "go" } }),
        201,
      );
      expect((await runEnded(server, created.run_id)).status).toBe("completed");
      const listed = await toolCalls(server, created.run_id);
      expect(listed.map((call: { rejected: string }) => call.rejected)).toEqual([
        ...Array(64).fill("unknown_tool"),
        ...Array(6).fill("too_many_calls"),
      ]);
      // The second request answers every call of the first: the extra ones with the tool error.
      const second = fake.requests[1]?.text ?? "";
      expect(second.split("unknown_tool").length - 1).toBe(64);
      expect(second.split("too_many_calls").length - 1).toBe(6);
    } finally {
      await server.close();
    }
  }, 60_000);
});
