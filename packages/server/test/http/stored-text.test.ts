// Text the store cannot keep. Every string the API accepts is stored and read back exactly, or refused
// up front with a 422 naming its pointer — never a 500 (PostgreSQL text refuses U+0000), never a value
// that differs from what was answered (both drivers turned a lone surrogate into U+FFFD), never a run
// stuck with its receipt refused on every redelivery. A member name given twice in a body's envelope
// is refused too.

import { sql } from "kysely";
import { expect, it } from "vitest";
import { connectDatabase } from "../../src/storage/engine/connect-database.js";
import {
  admin,
  buildWorld,
  claimed,
  connect,
  expectError,
  expectStatus,
  getRun,
  type Held,
  listCalls,
  receipt,
  startClockedServer,
  startRun,
  type World,
  worldTools,
} from "../calls/calls-harness.js";
import { dumpTables } from "../support/table-dump.js";
import { describeEachDialect, testDatabaseUrl } from "../support/test-databases.js";
import { type Answer, startTestServer, type TestServer } from "./http-harness.js";

/** The two kinds of text a raw text column cannot keep, as JSON escapes inside a string literal. */
const HOSTILE = { nul: "\\u0000", surrogate: "\\ud800" } as const;

/** What each kind is refused with. */
const REFUSAL = { nul: "validation_failed", surrogate: "lone_surrogate" } as const;

/** One request carrying a hostile string at `pointer`: `X` in `body` is replaced by the escape. */
interface Case {
  readonly method: string;
  readonly path: string;
  readonly body: string;
  readonly pointer: string;
  readonly key?: string;
  /** The kinds refused here (default both): a JSON-stored value keeps U+0000. */
  readonly kinds?: ReadonlyArray<keyof typeof HOSTILE>;
}

/** Every kind of string the server stores as text, in a request that is valid but for it. */
function storedTextCases(world: World, held: Held, connectionId: string, runIdParam: string): Case[] {
  const tool = JSON.stringify(worldTools("X")[0]).replace('"X"', '"bX"');
  const executorEnvelope = `"executor_id":"${held.executorId}","claim_id":"${held.claimId}","grant":"${held.grant}"`;
  return [
    { method: "POST", path: "/v1/executor-bindings", body: '{"name":"aXb"}', pointer: "/name" },
    { method: "POST", path: "/v1/executor-bindings", body: '{"name":"n","binding_id":"bX"}', pointer: "/binding_id" },
    { method: "POST", path: "/v1/toolsets", body: '{"name":"aXb","tools":[]}', pointer: "/name" },
    { method: "POST", path: "/v1/toolsets", body: `{"name":"t","tools":[${tool}]}`, pointer: "/tools/0/binding_id" },
    { method: "POST", path: "/v1/agents", body: '{"name":"aXb"}', pointer: "/name" },
    {
      method: "POST",
      path: `/v1/agents/${world.agentId}/versions`,
      body: `{"toolset_id":"${world.toolsetId}","toolset_version":1,"model":{"provider":"scripted","script":[{"message":"ok"}]},"instructions":"iXi"}`,
      pointer: "/instructions",
    },
    {
      method: "POST",
      path: `/v1/agents/${world.agentId}/versions`,
      body: `{"toolset_id":"${world.toolsetId}","toolset_version":1,"model":{"provider":"scripted","script":[{"tool_calls":[{"name":"tX","arguments":{}}]}]}}`,
      pointer: "/model/script/0/tool_calls/0/name",
    },
    {
      method: "POST",
      path: `/v1/agents/${world.agentId}/versions`,
      body: `{"toolset_id":"${world.toolsetId}","toolset_version":1,"model":{"provider":"scripted","script":[{"message":"mX"}]}}`,
      pointer: "/model/script/0/message",
      kinds: ["surrogate"],
    },
    {
      method: "POST",
      path: "/v1/sessions",
      body: `{"agent_version":"${world.agentVersion}","subject":"sXs"}`,
      pointer: "/subject",
    },
    { method: "POST", path: "/v1/keys", body: '{"name":"kXk","scopes":["runtime:read"]}', pointer: "/name" },
    {
      method: "POST",
      path: `/v1/runs/${held.runId}/tool-calls/${held.callId}/receipts`,
      body: `{"receipt_id":"rX",${executorEnvelope},"kind":"accepted"}`,
      pointer: "/receipt_id",
      key: world.executorKey,
    },
    {
      method: "POST",
      path: `/v1/executors/${held.executorId}/calls/report`,
      body: `{"connection_id":"${connectionId}","calls":[{"call_id":"${held.callId}","state":"pending_delivery","receipt_ids":["rX"]}]}`,
      pointer: "/calls/0/receipt_ids/0",
      key: world.executorKey,
    },
    {
      method: "POST",
      path: `/v1/sessions/${runIdParam}/runs`,
      body: '{"input":{"deep":["X"]}}',
      pointer: "/input/deep/0",
      kinds: ["surrogate"],
    },
  ];
}

/** The status and code an answer must have for `kind`. */
function expectRefused(answer: Answer, kind: keyof typeof HOSTILE, pointer: string, shown: string): void {
  expect(answer.status, `${shown} → ${answer.text}`).toBe(422);
  expect(answer.body.error, shown).toMatchObject({ code: REFUSAL[kind], pointer });
}

async function heldCall(server: TestServer, world: World): Promise<{ held: Held; connectionId: string }> {
  const runId = await startRun(server, world);
  const callId = (await listCalls(server, runId))[0]?.call_id as string;
  const executor = await connect(server, world, `text-executor-${runId}`);
  return { held: await claimed(server, world, runId, callId, executor), connectionId: executor.connection_id };
}

describeEachDialect("text the store cannot keep", (dialect) => {
  it("refuses U+0000 and lone surrogates in every string stored as text, at the pointer; nothing changes", async () => {
    const server = await startClockedServer(dialect, { sweepIntervalMs: 60_000 });
    const world = await buildWorld(server, [{ tool_calls: [{ name: "tasks.write", arguments: {} }] }]);
    const { held, connectionId } = await heldCall(server, world);
    const before = await dumpTables(server.database.url);
    for (const kind of ["nul", "surrogate"] as const) {
      for (const c of storedTextCases(world, held, connectionId, world.sessionId)) {
        if (c.kinds !== undefined && !c.kinds.includes(kind)) continue;
        const body = c.body.replace("X", HOSTILE[kind]);
        const answer = await server.call(c.method, c.path, { key: c.key ?? admin.key, body });
        expectRefused(answer, kind, c.pointer, `${kind} ${c.method} ${c.path} ${body}`);
      }
    }
    // In the query: a cursor holding U+0000, and a forged cursor whose decoded key holds one.
    expectRefused(await server.call("GET", "/v1/keys?cursor=a%00b", admin), "nul", "/cursor", "cursor");
    const forged = Buffer.from(JSON.stringify({ l: "keys", t: 1, id: "\u0000" })).toString("base64url");
    const answer = await server.call("GET", `/v1/keys?cursor=${forged}`, admin);
    expect(answer.status, answer.text).toBe(422);
    expect(answer.body.error).toMatchObject({ code: "validation_failed", pointer: "/cursor" });
    expect(await dumpTables(server.database.url)).toEqual(before);
  });

  it("keeps U+0000 exactly in what it stores as JSON: input, arguments, progress, result, the final message", async () => {
    const server = await startClockedServer(dialect, { sweepIntervalMs: 60_000 });
    const world = await buildWorld(server, [
      { tool_calls: [{ name: "tasks.write", arguments: { title: "t\u0000t" } }] },
      { message: "a\u0000b" },
    ]);
    const runId = await startRun(server, world, { text: "x\u0000y" });
    const callId = (await listCalls(server, runId))[0]?.call_id as string;
    const executor = await connect(server, world, "nul-executor");
    const claim = expectStatus(
      await server.call("POST", `/v1/runs/${runId}/tool-calls/${callId}/claim`, {
        key: world.executorKey,
        body: executor,
      }),
      200,
    );
    expect(claim.call.arguments).toEqual({ title: "t\u0000t" });
    const held: Held = { runId, callId, executorId: executor.executor_id, claimId: claim.claim_id, grant: claim.grant };
    expectStatus(await receipt(server, world, held, { receipt_id: "r\u00001", kind: "accepted" }), 422);
    expectStatus(await receipt(server, world, held, { receipt_id: "acc", kind: "accepted" }), 200);
    expectStatus(
      await receipt(server, world, held, { receipt_id: "prog", kind: "progress", progress: { p: "\u0000" } }),
      200,
    );
    const done = { receipt_id: "done", kind: "completed", result: { v: "r\u0000s" } };
    const first = expectStatus(await receipt(server, world, held, done), 200);
    expect(first).toMatchObject({ applied: true, run_status: "completed" });
    // The scripted final message with U+0000 completes the run with exactly that output.
    const run = await getRun(server, runId);
    expect(run).toMatchObject({ status: "completed", output: "a\u0000b" });
    const history = expectStatus(await server.call("GET", `/v1/runs/${runId}/history?limit=200`, admin), 200).data;
    const texts = JSON.stringify(history);
    for (const kept of ["x\u0000y", "t\u0000t", "r\u0000s", "a\u0000b"]) expect(texts).toContain(JSON.stringify(kept));
    // A redelivery answers the first answer again.
    expect(expectStatus(await receipt(server, world, held, done), 200)).toEqual({ ...first, replayed: true });
  });

  it("refuses a member name given twice in a body's envelope with 400 duplicate_member; nothing changes", async () => {
    const server = await startClockedServer(dialect, { sweepIntervalMs: 60_000 });
    const world = await buildWorld(server, [{ tool_calls: [{ name: "tasks.write", arguments: {} }] }]);
    const { held } = await heldCall(server, world);
    const before = await dumpTables(server.database.url);
    const envelope = `"executor_id":"${held.executorId}","claim_id":"${held.claimId}","grant":"${held.grant}"`;
    const twice = await receipt(
      server,
      world,
      held,
      `{"receipt_id":"r1",${envelope},"kind":"progress","kind":"accepted"}`,
    );
    expectError(twice, 400, "duplicate_member");
    expect(twice.body.error.pointer).toBe("/kind");
    const escaped = await server.call("POST", "/v1/executor-bindings", {
      ...admin,
      body: '{"name":"a","n\\u0061me":"b"}',
    });
    expectError(escaped, 400, "duplicate_member");
    expect(escaped.body.error.pointer).toBe("/name");
    expect(await dumpTables(server.database.url)).toEqual(before);
  });

  it("fails the run with model_error when its next turn cannot be decided: the receipt is kept, never refused forever", async () => {
    const database = await testDatabaseUrl(dialect);
    const first = await startTestServer(dialect, {}, database);
    const world = await buildWorld(first, [
      { tool_calls: [{ name: "tasks.write", arguments: {} }] },
      { message: "ok" },
    ]);
    const { held } = await heldCall(first, world);
    expectStatus(await receipt(first, world, held, { receipt_id: "acc", kind: "accepted" }), 200);
    await first.close();
    // The stored script becomes unreadable (a bug, or data an older version wrote): deciding the
    // next turn throws, and it would throw again on every redelivery.
    const connection = await connectDatabase(database.url);
    try {
      await sql`update agent_versions set model_json = ${'{"provider":"scripted","script":"broken"}'}`.execute(
        connection.db,
      );
    } finally {
      await connection.db.destroy();
    }
    const second = await startTestServer(dialect, {}, database);
    const done = { receipt_id: "done", kind: "completed", result: { ok: true } };
    const answer = expectStatus(await receipt(second, world, held, done), 200);
    expect(answer).toMatchObject({ applied: true, call_status: "completed", run_status: "failed" });
    const run = await getRun(second, held.runId);
    expect(run.status).toBe("failed");
    expect(run.error).toMatchObject({ code: "model_error", message: expect.stringContaining("script") });
    expect(expectStatus(await receipt(second, world, held, done), 200)).toEqual({ ...answer, replayed: true });
  });
});
