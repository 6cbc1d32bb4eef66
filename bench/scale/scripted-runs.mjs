/**
 * What bench/scale's growth and history-reads cases share: a fresh database of each dialect (a SQLite
 * file in a temp directory, a PostgreSQL schema dropped afterwards; PostgreSQL skipped when it does not
 * answer), the server started in this process from its build (`packages/server/dist`, so its storage
 * counters can be read) with a clock the case can move, a world whose scripted model plays a given
 * script, and one call driven through claim and receipts by a simulated executor.
 */

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { startServer } from "../../packages/server/dist/index.js";
import { HttpConnection } from "../protocol/http-connection.mjs";

/** The PostgreSQL database the cases make their schemas in. */
export const POSTGRES_URL = process.env.TOOLHOST_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

const ADMIN_KEY = `bench-scale-${randomBytes(8).toString("hex")}`;

/**
 * A fresh database of `dialect`, or undefined (logged) when PostgreSQL does not answer.
 * @returns {Promise<{ dialect: string, url: string, path?: string, schema?: string, dispose: () => Promise<void> } | undefined>}
 */
export async function freshDatabase(dialect, log) {
  if (dialect === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "toolhost-bench-scale-"));
    const path = join(dir, "toolhost.db");
    return { dialect, url: `sqlite:${path}`, path, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  if (new URL(POSTGRES_URL).hostname !== "127.0.0.1") throw new Error(`${POSTGRES_URL}: 127.0.0.1 only`);
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
  } catch (error) {
    log(`PostgreSQL at ${POSTGRES_URL} does not answer (${error instanceof Error ? error.message : error}): skipped`);
    return undefined;
  }
  const schema = `bench_${randomBytes(6).toString("hex")}`;
  try {
    await client.query(`create schema "${schema}"`);
  } finally {
    await client.end();
  }
  const url = `${POSTGRES_URL}${POSTGRES_URL.includes("?") ? "&" : "?"}schema=${schema}`;
  const dispose = () => withPostgres((c) => c.query(`drop schema if exists "${schema}" cascade`));
  return { dialect, url, schema, dispose };
}

/** Runs `fn` with a PostgreSQL client on POSTGRES_URL. */
export async function withPostgres(fn) {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A clock the case moves forward. */
export class BenchClock {
  #offsetMs = 0;
  nowMs() {
    return Date.now() + this.#offsetMs;
  }
  advance(ms) {
    this.#offsetMs += ms;
  }
}

/**
 * Starts the server in this process on `database`.
 * @returns {Promise<{ url: string, server: any, clock: BenchClock, admin: HttpConnection }>}
 */
export async function startBenchServer(database, options = {}) {
  const clock = new BenchClock();
  const server = await startServer(
    { databaseUrl: database.url, host: "127.0.0.1", port: 0, bootstrapKey: ADMIN_KEY, logLevel: "error", ...options },
    {},
    clock,
  );
  return { url: server.url, server, clock, admin: new HttpConnection(server.url, ADMIN_KEY) };
}

/** Sends a request and parses its JSON answer, failing unless it has `status`. */
export async function expectJson(connection, method, path, body, status) {
  const answer = await connection.request(method, path, body === undefined ? undefined : JSON.stringify(body));
  if (answer.status !== status) {
    throw new Error(`${method} ${path} answered ${answer.status}, expected ${status}: ${answer.text.slice(0, 300)}`);
  }
  return JSON.parse(answer.text);
}

/**
 * Builds a binding, a toolset with `tasks.write`, an agent version playing `script` and a session,
 * and connects one executor. @returns {Promise<{ sessionId: string, executor: { executor_id: string, connection_id: string } }>}
 */
export async function buildScriptedWorld(admin, script, maxResultContextBytes = 1024) {
  const binding = await expectJson(admin, "POST", "/v1/executor-bindings", { name: "bench scale" }, 201);
  const tool = {
    name: "tasks.write",
    description: "Writes a task.",
    binding_id: binding.binding_id,
    input_schema: { type: "object", properties: { title: { type: "string" } } },
    max_result_context_bytes: maxResultContextBytes,
    effect: "write",
    timeout_ms: 86_400_000,
  };
  const toolset = await expectJson(admin, "POST", "/v1/toolsets", { name: "bench scale", tools: [tool] }, 201);
  const agent = await expectJson(admin, "POST", "/v1/agents", { name: "bench scale" }, 201);
  const version = await expectJson(
    admin,
    "POST",
    `/v1/agents/${agent.agent_id}/versions`,
    { toolset_id: toolset.toolset_id, toolset_version: toolset.version, model: { provider: "scripted", script } },
    201,
  );
  const session = await expectJson(
    admin,
    "POST",
    "/v1/sessions",
    { agent_version: version.agent_version, subject: "bench" },
    201,
  );
  const connected = await expectJson(
    admin,
    "POST",
    "/v1/executors/connect",
    { executor_id: `bench-scale-${randomBytes(4).toString("hex")}`, binding_ids: [binding.binding_id] },
    200,
  );
  const executor = { executor_id: connected.executor_id, connection_id: connected.connection_id };
  return { sessionId: session.session_id, executor };
}

/** Starts a run of the world's session; answers its ID. */
export async function startRun(admin, world) {
  return (await expectJson(admin, "POST", `/v1/sessions/${world.sessionId}/runs`, { input: { ask: "go" } }, 201))
    .run_id;
}

/** The run's one pending call. */
export async function pendingCall(admin, runId) {
  const pending = [];
  // Every page: a long run's newest call lies beyond the first (the list is in creation order).
  let cursor = null;
  do {
    const query = `limit=200${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;
    const calls = await expectJson(admin, "GET", `/v1/runs/${runId}/tool-calls?${query}`, undefined, 200);
    pending.push(...calls.data.filter((call) => call.status === "pending"));
    cursor = calls.next_cursor;
  } while (cursor !== null);
  if (pending.length !== 1) throw new Error(`run ${runId} has ${pending.length} pending calls, expected 1`);
  return pending[0].call_id;
}

/**
 * Claims the call and sends `accepted`, `progress` and then `completed` with `result`; `beforeCompleted`
 * runs just before the last receipt (to read counters around it).
 */
export async function completeCall(admin, world, runId, callId, result, beforeCompleted = () => undefined) {
  const base = `/v1/runs/${runId}/tool-calls/${callId}`;
  const claim = await expectJson(admin, "POST", `${base}/claim`, world.executor, 200);
  const envelope = { executor_id: world.executor.executor_id, claim_id: claim.claim_id, grant: claim.grant };
  await expectJson(admin, "POST", `${base}/receipts`, { ...envelope, receipt_id: "a", kind: "accepted" }, 200);
  await expectJson(
    admin,
    "POST",
    `${base}/receipts`,
    { ...envelope, receipt_id: "p", kind: "progress", progress: { done: 0.5 } },
    200,
  );
  beforeCompleted();
  await expectJson(admin, "POST", `${base}/receipts`, { ...envelope, receipt_id: "c", kind: "completed", result }, 200);
}
