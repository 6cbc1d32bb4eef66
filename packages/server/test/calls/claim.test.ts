// Claims over HTTP, on both dialects: who may claim, what a claim answers, and every refusal.
import { argumentsDigest, parseJson } from "@toolhost/protocol";
import { beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../support/test-databases.js";
import {
  admin,
  buildWorld,
  type ClockedServer,
  claim,
  claimed,
  connect,
  expectError,
  expectStatus,
  listCalls,
  receipt,
  startClockedServer,
  startRun,
  type World,
} from "./calls-harness.js";

// Key order and characters the claim must hand over exactly as the model produced them.
const ARGS_TEXT = '{"title":"Zürich 🚀","a":[1,2.5,-0.5],"z":{"y":null,"b":true}}';

describeEachDialect("claims", (dialect) => {
  let server: ClockedServer;
  let world: World;

  beforeAll(async () => {
    server = await startClockedServer(dialect);
    world = await buildWorld(server, [
      {
        tool_calls: [
          { name: "tasks.write", arguments: JSON.parse(ARGS_TEXT) },
          { name: "tasks.write", arguments: { title: "second" } },
        ],
      },
      { message: "done" },
    ]);
  });

  async function pendingCall(): Promise<{ runId: string; callIds: string[] }> {
    const runId = await startRun(server, world);
    return { runId, callIds: (await listCalls(server, runId)).map((call) => call.call_id) };
  }

  it("answers the claim, a grant and the call with its arguments exactly as the model produced them", async () => {
    const { runId, callIds } = await pendingCall();
    const [callId] = callIds as [string];
    const executor = await connect(server, world, "claim-ex-1");
    const answer = await claim(server, world, runId, callId, executor);
    const body = expectStatus(answer, 200);
    const now = server.clock.nowMs();
    expect(Object.keys(body)).toEqual(["claim_id", "grant", "replayed", "call"]);
    expect(body.claim_id).toMatch(/^clm_/);
    expect(body.grant).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.replayed).toBe(false);
    expect(body.call).toEqual({
      run_id: runId,
      call_id: callId,
      tool_name: "tasks.write",
      binding_id: world.bindingId,
      effect: "write",
      arguments: JSON.parse(ARGS_TEXT),
      arguments_digest: argumentsDigest(parseJson(ARGS_TEXT)),
      subject: "user-42",
      agent_id: world.agentId,
      agent_version: world.agentVersion,
      toolset_id: world.toolsetId,
      toolset_version: 1,
      deadline: new Date(now + 600_000).toISOString(),
      accept_deadline: new Date(now + 30_000).toISOString(),
    });
    expect(answer.text).toContain(`"arguments":${ARGS_TEXT},`);
    const listed = (await listCalls(server, runId)).find((call) => call.call_id === callId);
    expect(listed).toMatchObject({ status: "claimed", executor_id: "claim-ex-1", claim_id: body.claim_id });
  });

  it("the same executor claiming again gets the same claim and grant, replayed: true; others get already_claimed", async () => {
    const { runId, callIds } = await pendingCall();
    const [callId] = callIds as [string];
    const first = await connect(server, world, "claim-ex-2");
    const other = await connect(server, world, "claim-ex-3");
    const won = expectStatus(await claim(server, world, runId, callId, first), 200);
    const again = expectStatus(await claim(server, world, runId, callId, first), 200);
    expect(again).toEqual({ ...won, replayed: true });
    expectError(await claim(server, world, runId, callId, other), 409, "already_claimed");
    // Still replayed once the call is accepted.
    const held = { runId, callId, executorId: first.executor_id, claimId: won.claim_id, grant: won.grant };
    expectStatus(await receipt(server, world, held, { receipt_id: "acc", kind: "accepted" }), 200);
    expect(expectStatus(await claim(server, world, runId, callId, first), 200)).toEqual({ ...won, replayed: true });
    expectError(await claim(server, world, runId, callId, other), 409, "already_claimed");
  });

  it("needs tools:execute: an executors:connect key is 403 on claims and receipts", async () => {
    const { runId, callIds } = await pendingCall();
    const [callId] = callIds as [string];
    const executor = await connect(server, world, "claim-ex-4");
    const body = { executor_id: executor.executor_id, connection_id: executor.connection_id };
    const path = `/v1/runs/${runId}/tool-calls/${callId}`;
    expectError(await server.call("POST", `${path}/claim`, { key: world.connectOnlyKey, body }), 403, "forbidden");
    const held = await claimed(server, world, runId, callId, executor);
    const receiptBody = {
      receipt_id: "r",
      executor_id: held.executorId,
      claim_id: held.claimId,
      grant: held.grant,
      kind: "accepted",
    };
    expectError(
      await server.call("POST", `${path}/receipts`, { key: world.connectOnlyKey, body: receiptBody }),
      403,
      "forbidden",
    );
    expectError(await server.call("POST", `${path}/claim`, { body }), 401, "unauthorized");
  });

  it("a call outside the key's agent or binding scope is 404, like a missing one", async () => {
    const { runId, callIds } = await pendingCall();
    const [callId] = callIds as [string];
    const executor = await connect(server, world, "claim-ex-5");
    const body = { executor_id: executor.executor_id, connection_id: executor.connection_id };
    const otherAgents = expectStatus(
      await server.call("POST", "/v1/keys", {
        ...admin,
        body: { name: "a", scopes: ["tools:execute"], agents: ["agt_other"] },
      }),
      201,
    );
    const otherBindings = expectStatus(
      await server.call("POST", "/v1/keys", {
        ...admin,
        body: { name: "b", scopes: ["tools:execute"], bindings: ["elsewhere"] },
      }),
      201,
    );
    const path = `/v1/runs/${runId}/tool-calls/${callId}/claim`;
    for (const key of [otherAgents.key, otherBindings.key]) {
      expectError(await server.call("POST", path, { key, body }), 404, "not_found");
    }
    expectError(await claim(server, world, runId, "call_missing", executor), 404, "not_found");
    expectError(await claim(server, world, "run_missing", callId, executor), 404, "not_found");
    // The call is still pending: nobody claimed it.
    expect((await listCalls(server, runId))[0].status).toBe("pending");
  });

  it("the connection must serve the call's binding (404 otherwise)", async () => {
    const { runId, callIds } = await pendingCall();
    const [callId] = callIds as [string];
    expectStatus(
      await server.call("POST", "/v1/executor-bindings", { ...admin, body: { binding_id: "claims-other", name: "x" } }),
      201,
    );
    const answer = await server.call("POST", "/v1/executors/connect", {
      key: world.executorKey,
      body: { executor_id: "claim-ex-6", binding_ids: ["claims-other"] },
    });
    const executor = expectStatus(answer, 200);
    expectError(await claim(server, world, runId, callId, executor), 404, "not_found");
  });

  it("an older connection is 409 connection_superseded, a disconnected one 409 connection_offline", async () => {
    const { runId, callIds } = await pendingCall();
    const [callId] = callIds as [string];
    const old = await connect(server, world, "claim-ex-7");
    const current = await connect(server, world, "claim-ex-7");
    expectError(await claim(server, world, runId, callId, old), 409, "connection_superseded");
    const disconnected = await server.call("POST", `/v1/executors/claim-ex-7/disconnect`, {
      key: world.executorKey,
      body: { connection_id: current.connection_id },
    });
    expectStatus(disconnected, 200);
    expectError(await claim(server, world, runId, callId, current), 409, "connection_offline");
    expectError(
      await claim(server, world, runId, callId, { executor_id: "never-connected", connection_id: "conn_x" }),
      404,
      "not_found",
    );
    expect((await listCalls(server, runId))[0].status).toBe("pending");
  });

  it("a claim on an ended run is 409 run_terminated", async () => {
    const { runId, callIds } = await pendingCall();
    const executor = await connect(server, world, "claim-ex-8");
    expectStatus(await server.call("POST", `/v1/runs/${runId}/cancel`, { ...admin, body: {} }), 200);
    for (const callId of callIds)
      expectError(await claim(server, world, runId, callId, executor), 409, "run_terminated");
  });

  it("the body is strict: unknown members are 422, missing ones too", async () => {
    const { runId, callIds } = await pendingCall();
    const path = `/v1/runs/${runId}/tool-calls/${callIds[0]}/claim`;
    const executor = await connect(server, world, "claim-ex-9");
    const call = (body: unknown) => server.call("POST", path, { key: world.executorKey, body });
    expectError(await call({ ...executor, extra: 1 }), 422, "unknown_field");
    expectError(await call({ executor_id: executor.executor_id }), 422, "validation_failed");
    expect((await listCalls(server, runId))[0].status).toBe("pending");
  });
});
