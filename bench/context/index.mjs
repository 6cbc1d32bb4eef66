/**
 * bench/context: the token window over long runs. An `openai` agent version (through the official
 * SDK) reads 100 pages of tasks, one tool call per turn, each result Chinese-heavy or English-heavy,
 * against a local Chat Completions server that counts tokens with a real tokenizer and refuses
 * requests over its window (the agent version's `max_context_tokens`). Measured:
 *
 * - the estimate's error against the tokenizer's count, per request (median and p95, after the first
 *   N turns and over all of them);
 * - requests that overflowed the window (target 0);
 * - prefix stability between compactions: of each request body, the share the previous request's body
 *   keeps as an unchanged prefix (target ≥ 99%), and the share of the new request that prefix is.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeOpenAi } from "./fake-openai.mjs";
import { renderReport } from "./report.mjs";

/** The suite's name: its directory and its RESULTS.md section. */
export const name = "context";

const ADMIN = "bench-context-admin-secret-2b7f";
const WINDOW = 16_384;
const MAX_OUTPUT = 512;
const BUDGET_BYTES = 6_144;
/** Error statistics leave out the first N turns (the calibration's warm-up). */
export const WARMUP_TURNS = 10;

const CHINESE = [
  "整理第一季度销售报告并发送给财务部",
  "检查库存数据与客户反馈并更新看板",
  "预约下周二与供应商的付款对账会议",
  "修复移动端登录页面的显示问题",
  "准备年度预算草案并提交管理层审批",
];
const ENGLISH = [
  "Prepare the quarterly sales report and send it to finance",
  "Check stock levels against customer feedback and update the board",
  "Book the supplier payment reconciliation meeting for next Tuesday",
  "Fix the layout of the mobile login page",
  "Draft the annual budget and submit it for approval",
];

/** A page of tasks of about `bytes` bytes, Chinese-heavy or English-heavy. */
function taskPage(turn, chinese, bytes) {
  const titles = chinese ? CHINESE : ENGLISH;
  const tasks = [];
  for (let i = 0; Buffer.byteLength(JSON.stringify(tasks)) < bytes; i++) {
    const title = titles[(turn * 3 + i) % titles.length];
    tasks.push({
      id: `task_${turn}_${i}`,
      title: chinese ? `${title}（第${turn}批，第${i}项）` : `${title} (batch ${turn}, item ${i})`,
      due: `2026-${String((i % 12) + 1).padStart(2, "0")}-${String((turn % 27) + 1).padStart(2, "0")}`,
      done: (turn + i) % 3 === 0,
    });
  }
  return { status: "ok", tasks, next_cursor: `page-${turn + 1}` };
}

async function api(url, method, path, body, key = ADMIN) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 400) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}

/** Runs one scenario against `fake` (the server's model connection `connection`): tool turns with Chinese-heavy (or English-heavy) results. */
async function scenario(server, label, chinese, fake, connection, log) {
  const binding = `context-${chinese ? "zh" : "en"}`;
  await api(server.url, "POST", "/v1/executor-bindings", { binding_id: binding, name: label });
  const tool = (toolName) => ({
    name: toolName,
    description: "Reads one page of the user's tasks.",
    binding_id: binding,
    effect: "read",
    input_schema: { type: "object", properties: { cursor: { type: "string" } } },
    max_result_context_bytes: BUDGET_BYTES,
  });
  const toolset = await api(server.url, "POST", "/v1/toolsets", { name: label, tools: [tool("tasks.read")] });
  const agent = await api(server.url, "POST", "/v1/agents", { name: label });
  const version = await api(server.url, "POST", `/v1/agents/${agent.agent_id}/versions`, {
    toolset_id: toolset.toolset_id,
    toolset_version: 1,
    instructions: chinese
      ? "你是任务助理。读取每一页任务并列出逾期的任务。"
      : "You are a task assistant. Read every page and list overdue tasks.",
    max_context_tokens: WINDOW,
    model: {
      provider: "openai",
      connection,
      model: `bench-${chinese ? "zh" : "en"}`,
      max_output_tokens: MAX_OUTPUT,
    },
  });
  const session = await api(server.url, "POST", "/v1/sessions", {
    agent_version: version.agent_version,
    subject: "bench",
  });
  const executor = await api(server.url, "POST", "/v1/executors/connect", {
    executor_id: `${binding}-exec`,
    binding_ids: [binding],
  });
  const started = performance.now();
  const run = await api(server.url, "POST", `/v1/sessions/${session.session_id}/runs`, {
    input: chinese
      ? "请读取我所有的任务页面，并告诉我哪些已逾期。"
      : "Read every page of my tasks and tell me which are overdue.",
  });
  let done = 0;
  for (;;) {
    const current = await api(server.url, "GET", `/v1/runs/${run.run_id}`);
    if (["completed", "failed", "cancelled", "expired"].includes(current.status)) {
      if (current.status !== "completed")
        throw new Error(`${label}: the run ended ${current.status}: ${JSON.stringify(current.error)}`);
      break;
    }
    if (current.status !== "waiting_for_tools") {
      await new Promise((resolve) => setTimeout(resolve, 2));
      continue;
    }
    const calls = (
      await api(server.url, "GET", `/v1/runs/${run.run_id}/tool-calls?limit=200&cursor=`.replace("&cursor=", ""))
    ).data;
    for (const call of calls.filter((c) => c.status === "pending")) {
      const claim = await api(server.url, "POST", `/v1/runs/${run.run_id}/tool-calls/${call.call_id}/claim`, {
        executor_id: executor.executor_id,
        connection_id: executor.connection_id,
      });
      const envelope = { executor_id: executor.executor_id, claim_id: claim.claim_id, grant: claim.grant };
      const path = `/v1/runs/${run.run_id}/tool-calls/${call.call_id}/receipts`;
      await api(server.url, "POST", path, { ...envelope, receipt_id: `${call.call_id}-a`, kind: "accepted" });
      await api(server.url, "POST", path, {
        ...envelope,
        receipt_id: `${call.call_id}-c`,
        kind: "completed",
        result: taskPage(done, chinese, BUDGET_BYTES - 200),
      });
      done++;
    }
    if (done % 25 === 0) log(`${label}: ${done} turns`);
  }
  const elapsedMs = performance.now() - started;
  const records = [];
  for (let cursor = null; ; ) {
    const page = await api(
      server.url,
      "GET",
      `/v1/runs/${run.run_id}/model-requests?limit=200${cursor === null ? "" : `&cursor=${cursor}`}`,
    );
    records.push(...page.data);
    if (page.next_cursor === null) break;
    cursor = page.next_cursor;
  }
  await fake.close();
  return { label, turns: done, elapsedMs, records, received: fake.requests };
}

/**
 * Runs the suite.
 * @param {{ quick: boolean, machine: import("../lib/machine.mjs").Machine, log: (line: string) => void }} context
 * @returns {Promise<{ markdown: string, failures: string[] }>}
 */
export async function run({ quick, machine, log }) {
  const { startServer } = await import("../../packages/server/dist/index.js");
  const dir = mkdtempSync(join(tmpdir(), "toolhost-bench-context-"));
  const turns = quick ? 20 : 100;
  // The fakes start first: the server's model connections point at them.
  const zh = await startFakeOpenAi({ contextWindow: WINDOW, turns });
  const en = await startFakeOpenAi({ contextWindow: WINDOW, turns });
  const server = await startServer(
    {
      databaseUrl: `sqlite:${join(dir, "bench.db")}`,
      port: 0,
      bootstrapKey: ADMIN,
      logLevel: "silent",
      modelPollIntervalMs: 5,
      modelMaxRetries: 0,
      modelConnections: {
        "fake-zh": { provider: "openai", base_url: `${zh.url}/v1` },
        "fake-en": { provider: "openai", base_url: `${en.url}/v1` },
      },
    },
    {},
  );
  const results = [];
  try {
    results.push(await scenario(server, "Chinese-heavy", true, zh, "fake-zh", log));
    results.push(await scenario(server, "English-heavy", false, en, "fake-en", log));
  } finally {
    await server.close();
    // Each scenario closes its fake; a failed one may not have (closing again is harmless).
    await Promise.all([zh.close(), en.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
  return renderReport({
    results,
    machine,
    window: WINDOW,
    maxOutput: MAX_OUTPUT,
    budgetBytes: BUDGET_BYTES,
    quick,
    log,
  });
}
