/**
 * The real side of the protocol model: one restartable server per suite (its database and manual
 * clock shared by every generated run), and per run a fresh world built through the API — binding,
 * toolset, scripted agent, two sessions (one of an agent version whose runs expire soon), two
 * executor keys, two connected executors and one run — with a
 * trace of every request and answer, shown when an invariant breaks.
 */

import type { Answer } from "../http/http-harness.js";
import { admin } from "./calls-harness.js";
import { MODEL_PROGRESS_LIMITS } from "./protocol-model-predictions.js";
import {
  ACCEPT_WINDOW_MS,
  type ExecName,
  expectedSnapshot,
  type KeyName,
  LEASE_TTL_MS,
  type ModelCall,
  type ModelExecutor,
  OWN_KEY,
  type ProtocolModel,
  RUN_TIMEOUT_MS,
  SHORT_RUN_TIMEOUT_MS,
  type Snapshot,
  UNDO_TIMEOUT_MS,
  WRITE_TIMEOUT_MS,
} from "./protocol-model-state.js";
import type { ProtocolRows } from "./protocol-rows.js";
import type { RestartableServer } from "./restartable-server.js";

/** What every run of one suite shares: the server (restarted by some commands) and a row reader. */
export interface ModelBench {
  readonly server: RestartableServer;
  readonly rows: ProtocolRows;
  /** Worlds built so far (names stay unique on the shared database). */
  worlds: number;
}

/** The real system of one run. */
export interface ModelReal {
  readonly bench: ModelBench;
  readonly bindingId: string;
  readonly sessionId: string;
  /** A session of the same agent whose version sets `run_timeout_ms` SHORT_RUN_TIMEOUT_MS. */
  readonly shortSessionId: string;
  /** The secret of each key. */
  readonly keys: Readonly<Record<KeyName, string>>;
  /** Every request of this run with its answer, in order. */
  readonly trace: string[];
  /** The last state observed (and found as the model predicted). */
  last: Snapshot;
}

/** The server options the model's constants assume. */
export const MODEL_SERVER_OPTIONS = {
  leaseTtlMs: LEASE_TTL_MS,
  acceptWindowMs: ACCEPT_WINDOW_MS,
  ...MODEL_PROGRESS_LIMITS,
} as const;

/** Sends one request, writes it and its answer to the trace, and answers it. */
export async function send(
  real: ModelReal,
  method: string,
  path: string,
  key: string,
  body?: unknown,
): Promise<Answer> {
  const answer = await real.bench.server.call(method, path, { key, ...(body === undefined ? {} : { body }) });
  const who =
    key === admin.key ? "admin" : (Object.entries(real.keys).find(([, secret]) => secret === key)?.[0] ?? "?");
  const shownBody =
    body === undefined ? "" : ` ${typeof body === "string" ? body.replace(/\s+/g, " ") : JSON.stringify(body)}`;
  real.trace.push(`    ${method} ${path} [${who}]${shownBody}\n      → ${answer.status} ${answer.text}`);
  return answer;
}

/** Writes a note (a command, a clock move) to the trace. */
export function note(real: ModelReal, text: string): void {
  real.trace.push(`  ${text}`);
}

/** Throws `message` with the run's trace: the failing run's story, request by request. */
export function fail(real: ModelReal, message: string): never {
  throw new Error(`${message}\n\nTrace of this run (${real.trace.length} lines):\n${real.trace.join("\n")}`);
}

/** Expects `answer` to have `status`, else fails with the trace. */
// biome-ignore lint/suspicious/noExplicitAny: answers are read member by member.
export function expectAnswer(real: ModelReal, answer: Answer, status: number, what: string): any {
  if (answer.status !== status) fail(real, `${what}: expected ${status}, got ${answer.status} ${answer.text}`);
  return answer.body;
}

/** The ISO form of a model time, as the wire shows times. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Builds a fresh world and its model: the setup of one generated run. */
export async function buildModelWorld(bench: ModelBench): Promise<{ model: ProtocolModel; real: ModelReal }> {
  const n = ++bench.worlds;
  const server = bench.server;
  const post = async (path: string, body: unknown, status = 201) => {
    const answer = await server.call("POST", path, { ...admin, body });
    if (answer.status !== status) throw new Error(`world ${n}: POST ${path} answered ${answer.status} ${answer.text}`);
    return answer.body;
  };
  const bindingId = `model-binding-${n}`;
  await post("/v1/executor-bindings", { binding_id: bindingId, name: "model binding" });
  const toolset = await post("/v1/toolsets", {
    name: "model toolset",
    tools: [
      {
        name: "tasks.write",
        description: "Writes a task.",
        binding_id: bindingId,
        input_schema: { type: "object" },
        timeout_ms: WRITE_TIMEOUT_MS,
      },
      {
        name: "tasks.undo",
        description: "Undoes a task write.",
        binding_id: bindingId,
        input_schema: { type: "object" },
        timeout_ms: UNDO_TIMEOUT_MS,
      },
    ],
  });
  const agent = await post("/v1/agents", { name: "model agent" });
  const version = await post(`/v1/agents/${agent.agent_id}/versions`, {
    toolset_id: toolset.toolset_id,
    toolset_version: 1,
    model: {
      provider: "scripted",
      script: [
        {
          tool_calls: [
            { name: "tasks.write", arguments: { title: "one" } },
            { name: "tasks.write", arguments: { title: "two" } },
          ],
        },
        { message: "done" },
      ],
    },
  });
  const session = await post("/v1/sessions", { agent_version: version.agent_version, subject: "user-42" });
  const short = await post(`/v1/agents/${agent.agent_id}/versions`, {
    toolset_id: toolset.toolset_id,
    toolset_version: 1,
    model: version.model,
    run_timeout_ms: SHORT_RUN_TIMEOUT_MS,
  });
  const shortSession = await post("/v1/sessions", { agent_version: short.agent_version, subject: "user-42" });
  const scopes = ["executors:connect", "tools:execute"];
  const k1 = await post("/v1/keys", { name: `model ${n} k1`, scopes });
  const k2 = await post("/v1/keys", { name: `model ${n} k2`, scopes });
  const real: ModelReal = {
    bench,
    bindingId,
    sessionId: session.session_id,
    shortSessionId: shortSession.session_id,
    keys: { k1: k1.key, k2: k2.key },
    trace: [],
    last: { calls: {}, runs: {}, executors: {}, receipts: {} },
  };
  const nowMs = server.clock.nowMs();
  const executors = {} as Record<ExecName, ModelExecutor>;
  for (const exec of ["a", "b"] as const) {
    const id = `model-${n}-${exec}`;
    const key = OWN_KEY[exec];
    const body = { executor_id: id, binding_ids: [bindingId] };
    const connection = expectAnswer(
      real,
      await send(real, "POST", "/v1/executors/connect", real.keys[key], body),
      200,
      `connecting ${exec}`,
    );
    executors[exec] = {
      id,
      owner: key,
      connectionId: connection.connection_id,
      epoch: connection.epoch,
      online: true,
      leaseExpiresMs: nowMs + LEASE_TTL_MS,
      byKey: { [key]: connection.connection_id },
      older: [],
      toolNames: null,
    };
  }
  const model: ProtocolModel = {
    nowMs,
    keyIds: { k1: k1.key_id, k2: k2.key_id },
    executors,
    runs: [],
    calls: [],
    claims: [],
    sent: [],
    stored: [],
    confirmations: [],
    nextReceipt: 1,
  };
  real.last = expectedSnapshot(model);
  return { model, real };
}

/**
 * Starts a run; the model learns its two pending calls. The world's first run is of the session with
 * the server's run timeout, every later one of the session whose runs expire after SHORT_RUN_TIMEOUT_MS.
 */
export async function startModelRun(model: ProtocolModel, real: ModelReal): Promise<void> {
  const short = model.runs.length > 0;
  const sessionId = short ? real.shortSessionId : real.sessionId;
  const run = expectAnswer(
    real,
    await send(real, "POST", `/v1/sessions/${sessionId}/runs`, admin.key, { input: { ask: "go" } }),
    201,
    "starting a run",
  );
  const listed = expectAnswer(
    real,
    await send(real, "GET", `/v1/runs/${run.run_id}/tool-calls?limit=200`, admin.key),
    200,
    "listing calls",
  );
  type Listed = { call_id: string; deadline: string; created_at: string; arguments_digest: string };
  const calls: ModelCall[] = listed.data.map((call: Listed) => ({
    callId: call.call_id,
    runId: run.run_id,
    compensates: null,
    status: "pending",
    createdAtMs: Date.parse(call.created_at),
    deadlineMs: Date.parse(call.deadline),
    argumentsDigest: call.arguments_digest,
    claim: null,
    cancelRequested: false,
  }));
  const fresh = (call: ModelCall) =>
    call.createdAtMs === model.nowMs && call.deadlineMs === model.nowMs + WRITE_TIMEOUT_MS;
  if (calls.length !== 2 || !calls.every(fresh)) {
    fail(real, `a new run should have two pending calls created now and due at ${iso(model.nowMs + WRITE_TIMEOUT_MS)}`);
  }
  model.calls.push(...calls);
  model.runs.push({
    runId: run.run_id,
    status: "waiting_for_tools",
    deadlineMs: model.nowMs + (short ? SHORT_RUN_TIMEOUT_MS : RUN_TIMEOUT_MS),
    turnCallIds: calls.map((call) => call.callId),
  });
}
