// The token window with real providers (fake servers through the SDKs, gpt-tokenizer counts): the
// estimator converges on the tokenizer's counts and its calibration is shared through the database;
// compaction summarises the oldest turns with the same model and keeps every later item
// byte-identical; a provider's context-length refusal compacts once, then fails the run with
// context_window_exceeded.

import { expect, it } from "vitest";
import { BOOTSTRAP_SECRET } from "../http/http-harness.js";
import { describeEachDialect } from "../support/test-databases.js";
import { startFakeModelServer } from "./fake-model-server.js";
import {
  buildModelWorld,
  executeUntilEnded,
  fakeConnections,
  historyItems,
  KEY_ENV,
  modelRequests,
  openAiModel,
  readingAgent,
  runEnded,
  startModelRun,
  startModelServer,
} from "./model-harness.js";

const CHINESE = "整理第一季度销售报告并发送给财务部，同时检查库存数据与客户反馈。";
const ENGLISH = "Prepare the quarterly sales report and send it to finance; also check stock levels and feedback. ";

/** A task page of about `bytes` bytes, Chinese-heavy or English-heavy. */
function page(index: number, chinese: boolean, bytes = 900): unknown {
  const text = chinese ? CHINESE : ENGLISH;
  const tasks: Array<{ id: string; title: string }> = [];
  while (JSON.stringify(tasks).length < bytes * (chinese ? 0.4 : 1)) {
    tasks.push({
      id: `task_${index}_${tasks.length}`,
      title: text.slice(0, 20 + ((index * 7 + tasks.length * 3) % 20)),
    });
  }
  return { status: "ok", tasks, next_cursor: `page-${index + 1}` };
}

describeEachDialect("the token window", (dialect) => {
  it("converges: after a few turns each estimate is within 5% of the tokenizer's count; the calibration is shared", async () => {
    const fake = await startFakeModelServer({ respond: readingAgent(14) });
    const otherFake = await startFakeModelServer({ respond: readingAgent(4) });
    // Both instances declare both connections: either may drive either run's turns.
    const modelConnections = {
      ...fakeConnections(fake.url),
      "other-openai": { provider: "openai", base_url: `${otherFake.url}/v1`, api_key_env: KEY_ENV },
    };
    const server = await startModelServer(dialect, { modelConnections });
    const world = await buildModelWorld(server, openAiModel(), {}, { max_result_context_bytes: 4096 });
    const runId = await startModelRun(server, world, "Read every page of my tasks and tell me what is overdue.");
    const run = await executeUntilEnded(server, world, runId, (_call, i) => page(i, i % 3 !== 2));
    expect(run.status).toBe("completed");
    const requests = await modelRequests(server, runId);
    expect(requests.length).toBe(15);
    const errors = requests.map(
      (r) => Math.abs(r.estimated_input_tokens - r.actual_input_tokens) / r.actual_input_tokens,
    );
    for (const error of errors.slice(5)) expect(error).toBeLessThan(0.05);

    // A second instance on the same database starts from what the first learned, and adds to it.
    const storage = server.server.storage;
    const learned = await storage.tokenCalibrations.get("openai", "gpt-test");
    expect(learned?.observations).toBe(15);
    const other = await startModelServer(dialect, { modelConnections }, server.database);
    const otherWorld = await buildModelWorld(
      other,
      openAiModel({ connection: "other-openai" }),
      {},
      { max_result_context_bytes: 4096 },
    );
    const secondRun = await startModelRun(other, otherWorld, "Read my tasks again.");
    await executeUntilEnded(other, otherWorld, secondRun, (_call, i) => page(i + 40, i % 2 === 0));
    const second = await modelRequests(other, secondRun);
    expect(second.length).toBe(5);
    // Its first request with a tool result was already estimated with the shared calibration (within
    // 10%: these requests are a few hundred tokens, where one page's wording moves the count most;
    // with the prior alone the first run's was 15% off).
    for (const r of second.slice(1)) {
      expect(Math.abs(r.estimated_input_tokens - r.actual_input_tokens) / r.actual_input_tokens).toBeLessThan(0.1);
    }
    expect((await storage.tokenCalibrations.get("openai", "gpt-test"))?.observations).toBe(20);
  }, 120_000);

  it("compacts the oldest turns with the same model; every later item is byte-identical, nothing overflows", async () => {
    const window = 2048;
    const fake = await startFakeModelServer({ respond: readingAgent(20), contextWindow: window });
    const server = await startModelServer(dialect, { fakeUrl: fake.url });
    const world = await buildModelWorld(server, openAiModel({ max_output_tokens: 200 }), {
      max_context_tokens: window,
    });
    const runId = await startModelRun(server, world, "Read every page.");
    const run = await executeUntilEnded(server, world, runId, (_call, i) => page(i, i % 2 === 0, 700));
    expect(run.status, JSON.stringify(run)).toBe("completed");
    // No request the provider saw was over its window (it would have refused it).
    for (const request of fake.requests)
      expect(request.inputTokens + request.body.max_tokens).toBeLessThanOrEqual(window);

    const items = await historyItems(server, runId);
    const compactions = items.filter((item) => item.type === "compaction");
    expect(compactions.length).toBeGreaterThanOrEqual(2);
    // Stored tool projections are never regenerated: the history only grew.
    expect(items.filter((item) => item.type === "tool_result").length).toBe(20);

    const requests = await modelRequests(server, runId);
    const summaries = requests.filter((r) => r.purpose === "summary");
    expect(summaries.length).toBe(compactions.length);
    // Each compaction: a summary request whose messages extend the previous turn request's (a cache
    // hit), then a turn request whose kept messages are byte for byte the ones sent before.
    const bodies = fake.requests.map((r) => r.body);
    let checked = 0;
    for (let i = 1; i < bodies.length - 1; i++) {
      if (bodies[i].tool_choice !== "none") continue;
      const before = bodies[i - 1].messages.map((m: unknown) => JSON.stringify(m));
      const summary = bodies[i].messages.map((m: unknown) => JSON.stringify(m));
      expect(summary.slice(0, -1)).toEqual(before.slice(0, summary.length - 1));
      const after = bodies[i + 1].messages.map((m: unknown) => JSON.stringify(m));
      expect(after[0]).toBe(before[0]);
      expect(after[1]).toBe(before[1]);
      expect(JSON.parse(after[2]).content).toMatch(
        /^Summary of the earlier part of this conversation \(compacted\):\nSummary: /,
      );
      // The kept tail: the previous request's last messages, then the newest turn's.
      const kept = after.slice(3);
      const newest = kept.slice(kept.length - 2);
      const old = kept.slice(0, kept.length - 2);
      expect(old).toEqual(before.slice(before.length - old.length));
      expect(JSON.parse(newest[0] as string).role).toBe("assistant");
      checked++;
    }
    expect(checked).toBe(compactions.length);
    const compacted = requests.filter((r) => r.compacted);
    expect(compacted.length).toBe(compactions.length);
    for (const r of compacted) expect(r.purpose).toBe("turn");
  }, 120_000);

  it("compacts once on the provider's context-length refusal, then goes on", async () => {
    // Request k holds k pages of ~300 tokens: the fifth turn's request is over 1,300 tokens, while the
    // summary of all but the newest page still fits.
    const fake = await startFakeModelServer({ respond: readingAgent(5), contextWindow: 1300 });
    const server = await startModelServer(dialect, { fakeUrl: fake.url });
    const world = await buildModelWorld(server, openAiModel({ max_output_tokens: 100 }));
    const runId = await startModelRun(server, world, "Read every page.");
    const run = await executeUntilEnded(server, world, runId, (_call, i) => page(i, false, 1000));
    expect(run.status, JSON.stringify(run)).toBe("completed");
    const requests = await modelRequests(server, runId);
    const refused = requests.findIndex((r) => r.error !== undefined);
    expect(refused).toBeGreaterThan(0);
    expect(requests[refused]).toMatchObject({ purpose: "turn", error: { code: "context_window_exceeded" } });
    expect(requests[refused + 1]).toMatchObject({ purpose: "summary", turn: requests[refused].turn });
    expect(requests[refused + 2]).toMatchObject({ purpose: "turn", turn: requests[refused].turn, compacted: true });
    expect((await historyItems(server, runId)).some((item) => item.type === "compaction")).toBe(true);
  }, 120_000);

  it("fails the run with context_window_exceeded when even a compacted request is refused", async () => {
    const fake = await startFakeModelServer({ respond: readingAgent(3), contextWindow: 600 });
    const server = await startModelServer(dialect, { fakeUrl: fake.url });
    const world = await buildModelWorld(server, openAiModel({ max_output_tokens: 100 }));
    const runId = await startModelRun(server, world, ENGLISH.repeat(30));
    const run = await runEnded(server, runId);
    expect(run.status).toBe("failed");
    expect(run.error.code).toBe("context_window_exceeded");
    // The input is pinned: nothing could be compacted, so the model was asked once.
    expect(fake.requests.length).toBe(1);
  }, 60_000);

  // The case: with max_context_tokens 1024 and six 40 KB results, the run used to complete
  // with a 198 KB history, the window stored and never read.
  it("scripted: six 40 KB results in a 1024-token window are compacted, every request within the window", async () => {
    const server = await startModelServer(dialect);
    const read = { tool_calls: [{ name: "tasks.read", arguments: {} }] };
    const world = await buildModelWorld(
      server,
      { provider: "scripted", script: [read, read, read, read, read, read, { message: "done" }] },
      { max_context_tokens: 1024 },
    );
    const runId = await startModelRun(server, world, "Read six pages.");
    const big = { status: "ok", rows: Array.from({ length: 800 }, (_, i) => `row ${i}: ${"x".repeat(40)}`) };
    expect(JSON.stringify(big).length).toBeGreaterThan(40_000);
    const run = await executeUntilEnded(server, world, runId, () => big);
    expect(run).toMatchObject({ status: "completed", output: "done" });
    const items = await historyItems(server, runId);
    expect(items.filter((item) => item.type === "tool_result").length).toBe(6);
    const compactions = items.filter((item) => item.type === "compaction");
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    expect(compactions[0].summary).toMatch(/^Compacted \d+ turns?: /);
    const requests = await modelRequests(server, runId);
    expect(requests.map((r) => [r.purpose, r.provider, r.actual_input_tokens])).toEqual(
      Array.from({ length: 7 }, () => ["turn", "scripted", null]),
    );
    for (const r of requests) expect(r.estimated_input_tokens).toBeLessThanOrEqual(1024);
    expect(requests.filter((r) => r.compacted).length).toBe(compactions.length);
  }, 60_000);

  it("scripted: an input that cannot fit the window fails the run with context_window_exceeded", async () => {
    const server = await startModelServer(dialect);
    const world = await buildModelWorld(
      server,
      { provider: "scripted", script: [{ message: "never" }] },
      { max_context_tokens: 1024 },
    );
    const answer = await server.call("POST", `/v1/sessions/${world.sessionId}/runs`, {
      key: BOOTSTRAP_SECRET,
      body: { input: ENGLISH.repeat(60) },
    });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({ status: "failed", error: { code: "context_window_exceeded" } });
    expect(answer.body.error.message).toMatch(/max_context_tokens 1024/);
  });
});
