/**
 * bench/http: the toolhost server over real HTTP against a Fastify hello-world. Both run in child
 * processes on 127.0.0.1 (toolhost through `toolhost serve`, on a SQLite file in a temp directory); the
 * load comes from this process over a bounded number of keep-alive connections, for a fixed time per
 * case, cases alternating in rounds so background load falls on each alike. Measures (1) a dry-run
 * with a 1 MiB mock result, (2) a configuration read, `GET /v1/agents/{agent_id}`, (3) the hello-world.
 */

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateResult } from "../projection/generate.mjs";
import { startChildServer } from "./child-server.mjs";
import { runLoad } from "./load.mjs";
import { renderReport } from "./report.mjs";

/** The suite's name: its directory and its RESULTS.md section. */
export const name = "http";

const TOOLHOST_BIN = fileURLToPath(new URL("../../packages/cli/bin/toolhost.js", import.meta.url));
const HELLO_SERVER = fileURLToPath(new URL("./hello-server.mjs", import.meta.url));
const RESULT_BYTES = 2 ** 20;
const BUDGET = 16384;

/** Connections, rounds and times: bounded, so the suite stops by itself (about half a minute of load). */
function loadPlan(quick) {
  return quick
    ? { concurrency: 4, rounds: 1, warmupMs: 300, measureMs: 1000 }
    : { concurrency: 8, rounds: 4, warmupMs: 500, measureMs: 2000 };
}

/** Sends one JSON request with the bootstrap key; answers the parsed body, throwing unless `status`. */
async function call(base, key, method, path, body, status) {
  const response = await fetch(new URL(path, base), {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== status)
    throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return { text, value: JSON.parse(text) };
}

/** Publishes one agent version with one tool; answers the IDs the cases need. */
async function publish(base, key) {
  const binding = (await call(base, key, "POST", "/v1/executor-bindings", { name: "bench" }, 201)).value;
  const tool = {
    name: "tasks.read",
    binding_id: binding.binding_id,
    input_schema: { type: "object", properties: { cursor: { type: "string" } } },
    max_result_context_bytes: BUDGET,
    effect: "read",
  };
  const toolset = (await call(base, key, "POST", "/v1/toolsets", { name: "bench", tools: [tool] }, 201)).value;
  const agent = (await call(base, key, "POST", "/v1/agents", { name: "bench" }, 201)).value;
  const version = (
    await call(
      base,
      key,
      "POST",
      `/v1/agents/${agent.agent_id}/versions`,
      {
        toolset_id: toolset.toolset_id,
        toolset_version: toolset.version,
        model: { provider: "scripted", script: [{ message: "done" }] },
      },
      201,
    )
  ).value;
  return { agentId: agent.agent_id, agentVersion: version.agent_version };
}

/** Checks one dry-run answer against the protocol's own projection of the same text; answers failures. */
function checkDryRun(answerText, resultText, protocol) {
  const { compact, parseJson, projectResult } = protocol;
  const preview = projectResult(parseJson(resultText), BUDGET);
  const expected = `"context_preview":${compact({ ...preview })},"execution_verified":false}`;
  const failures = [];
  if (!answerText.endsWith(expected))
    failures.push("dry-run: context_preview differs from projectResult of the same text");
  if (!preview.truncated || preview.retained_bytes > BUDGET)
    failures.push("dry-run: the 1 MiB result was not cut to the budget");
  return failures;
}

/**
 * Runs the suite.
 * @param {{ quick: boolean, machine: import("../lib/machine.mjs").Machine, log: (line: string) => void }} context
 * @returns {Promise<{ markdown: string, failures: string[] }>}
 */
export async function run({ quick, machine, log }) {
  const protocol = await import("../../packages/protocol/dist/index.js");
  const plan = loadPlan(quick);
  const dir = mkdtempSync(join(tmpdir(), "toolhost-bench-http-"));
  const key = `bench-${randomBytes(16).toString("hex")}`;
  const servers = [];
  try {
    log(`starting toolhost serve (SQLite in ${dir}) and the hello-world, each in a child process`);
    const toolhost = await startChildServer(
      "toolhost serve",
      [TOOLHOST_BIN, "serve", "--port", "0", "--db", `sqlite:${join(dir, "bench.db")}`],
      {
        TOOLHOST_BOOTSTRAP_KEY: key,
        TOOLHOST_LOG_LEVEL: "warn",
      },
    );
    servers.push(toolhost);
    const hello = await startChildServer("hello-world", [HELLO_SERVER]);
    servers.push(hello);
    log(`toolhost at ${toolhost.url} (pid ${toolhost.pid}), hello-world at ${hello.url} (pid ${hello.pid})`);

    const { agentId, agentVersion } = await publish(toolhost.url, key);
    const { text: resultText } = generateResult(RESULT_BYTES);
    const dryRunBody = Buffer.from(
      `{"agent_version":"${agentVersion}","tool_name":"tasks.read","arguments":{"cursor":"c-1"},"mock_receipts":[{"receipt_id":"bench-1","kind":"completed","result":${resultText}}]}`,
    );
    const check = await call(toolhost.url, key, "POST", "/v1/tools/dry-run", dryRunBody.toString("utf8"), 200);
    const failures = checkDryRun(check.text, resultText, protocol);
    for (const failure of failures) log(`!!!!!!!! ${failure} !!!!!!!!`);
    log(
      `dry-run body ${dryRunBody.length} bytes, answer ${Buffer.byteLength(check.text)} bytes, preview checked against projectResult`,
    );

    const auth = { authorization: `Bearer ${key}` };
    const cases = [
      {
        name: "hello-world `GET /`",
        url: `${hello.url}/`,
        method: "GET",
        headers: {},
        body: undefined,
        expectStatus: 200,
      },
      {
        name: "config read `GET /v1/agents/{id}`",
        url: `${toolhost.url}/v1/agents/${agentId}`,
        method: "GET",
        headers: auth,
        body: undefined,
        expectStatus: 200,
      },
      {
        name: "dry-run, 1 MiB mock result",
        url: `${toolhost.url}/v1/tools/dry-run`,
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: dryRunBody,
        expectStatus: 200,
      },
    ];
    const totals = cases.map(() => ({
      latenciesMs: [],
      elapsedMs: 0,
      roundRps: [],
      errors: 0,
      firstError: undefined,
      responseBytes: 0,
    }));
    for (let round = 1; round <= plan.rounds; round++) {
      const order = round % 2 === 1 ? cases.map((_, i) => i) : cases.map((_, i) => cases.length - 1 - i);
      for (const i of order) {
        const loadCase = cases[i];
        await runLoad(loadCase, plan.concurrency, plan.warmupMs);
        const result = await runLoad(loadCase, plan.concurrency, plan.measureMs);
        const total = totals[i];
        total.latenciesMs.push(...result.latenciesMs);
        total.elapsedMs += result.elapsedMs;
        total.errors += result.errors;
        total.firstError ??= result.firstError;
        total.responseBytes = result.responseBytes;
        const rps = result.latenciesMs.length / (result.elapsedMs / 1000);
        total.roundRps.push(rps);
        log(
          `round ${round}/${plan.rounds} ${loadCase.name}: ${result.latenciesMs.length} requests, ${rps.toFixed(1)} req/s, ${result.errors} errors`,
        );
      }
    }
    for (const [i, total] of totals.entries()) {
      if (total.errors > 0)
        failures.push(`${cases[i].name}: ${total.errors} failed requests (first: ${total.firstError})`);
    }
    const { markdown, summary } = renderReport({
      cases,
      totals,
      plan,
      machine,
      quick,
      dryRunBytes: dryRunBody.length,
      resultBytes: RESULT_BYTES,
      budget: BUDGET,
      failures,
    });
    log("");
    for (const line of summary.split("\n")) log(line);
    return { markdown, failures };
  } finally {
    for (const server of servers.reverse()) {
      const code = await server.stop();
      if (code !== 0) log(`note: a server child exited with ${code}`);
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
