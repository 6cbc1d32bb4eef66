// The batched executor routes over HTTP, on both dialects: `pending?claim=N` answers claims that are
// exactly the claim route's (same grant, replayable through the claim route), candidates left
// unclaimed carry no arguments or grant, and `POST /v1/executors/{id}/receipts` answers per receipt
// what the per-call receipt route answers (status and body, errors included) with the same
// idempotency across both routes. Bad values and foreign keys are refused and change nothing.
import { beforeAll, expect, it } from "vitest";
import {
  admin,
  buildWorld,
  type ClockedServer,
  claimed,
  connect,
  type Executor,
  expectError,
  expectStatus,
  type Held,
  listCalls,
  receipt,
  startClockedServer,
  startRun,
  type World,
} from "../calls/calls-harness.js";
import { dumpTables } from "../support/table-dump.js";
import { describeEachDialect } from "../support/test-databases.js";

/** An error body without its request's own ID (which each carries, batched or not). */
function withoutRequestId(body: { error: Record<string, unknown> }): { error: Record<string, unknown> } {
  const { request_id: requestId, ...error } = body.error;
  expect(requestId).toMatch(/^\S+$/);
  return { error };
}

const THREE_CALLS = [
  {
    tool_calls: [
      { name: "tasks.write", arguments: { title: "one" } },
      { name: "tasks.write", arguments: { title: "two" } },
      { name: "tasks.write", arguments: { title: "three" } },
    ],
  },
  { message: "done" },
];

describeEachDialect("batched executors", (dialect) => {
  let server: ClockedServer;
  let otherKey: string;

  beforeAll(async () => {
    server = await startClockedServer(dialect);
    otherKey = expectStatus(
      await server.call("POST", "/v1/keys", {
        ...admin,
        body: { name: "other", scopes: ["executors:connect", "tools:execute"] },
      }),
      201,
    ).key;
  });

  /** A fresh world (its own binding, so no other test's calls are candidates) with one run of three calls. */
  async function freshRun(executorId: string): Promise<{ world: World; runId: string; executor: Executor }> {
    const world = await buildWorld(server, THREE_CALLS);
    const runId = await startRun(server, world);
    return { world, runId, executor: await connect(server, world, executorId) };
  }

  function pending(world: World, executor: Executor, query: string, key = world.executorKey) {
    return server.call(
      "GET",
      `/v1/executors/${executor.executor_id}/pending?connection_id=${executor.connection_id}${query}`,
      { key },
    );
  }

  function batch(world: World, executorId: string, receipts: unknown[], key = world.executorKey) {
    return server.call("POST", `/v1/executors/${executorId}/receipts`, { key, body: { receipts } });
  }

  function item(held: Held, fields: Record<string, unknown>) {
    return {
      run_id: held.runId,
      call_id: held.callId,
      receipt: { executor_id: held.executorId, claim_id: held.claimId, grant: held.grant, ...fields },
    };
  }

  it("connect offers the batched routes with their limits", async () => {
    const world = await buildWorld(server, THREE_CALLS);
    const answer = await server.call("POST", "/v1/executors/connect", {
      key: world.executorKey,
      body: { executor_id: "batch-offer", binding_ids: [world.bindingId] },
    });
    expect(expectStatus(answer, 200).batch).toEqual({ claim_max: 32, receipts_max: 100 });
  });

  it("claim=2 claims the two oldest candidates as the claim route would; the third stays a bare candidate", async () => {
    const { world, runId, executor } = await freshRun("batch-claim-1");
    const calls = await listCalls(server, runId);
    const body = expectStatus(await pending(world, executor, "&claim=2"), 200);
    expect(body.claims).toHaveLength(2);
    expect(body.data).toHaveLength(1);
    expect(Object.keys(body.data[0]).sort()).toEqual(["binding_id", "call_id", "created_at", "run_id", "tool_name"]);
    const claimedIds = body.claims.map((c: { call: { call_id: string } }) => c.call.call_id);
    expect(new Set([...claimedIds, body.data[0].call_id])).toEqual(new Set(calls.map((c) => c.call_id)));
    for (const made of body.claims) {
      expect(made.replayed).toBe(false);
      expect(made.call.run_id).toBe(runId);
      expect(made.call.arguments).toHaveProperty("title");
      // The claim route answers the same claim, grant and call again, replayed.
      const again = expectStatus(
        await server.call("POST", `/v1/runs/${runId}/tool-calls/${made.call.call_id}/claim`, {
          key: world.executorKey,
          body: { executor_id: executor.executor_id, connection_id: executor.connection_id },
        }),
        200,
      );
      expect(again).toEqual({ ...made, replayed: true });
      // The batch claim's grant is good for receipts.
      const held = {
        runId,
        callId: made.call.call_id,
        executorId: executor.executor_id,
        claimId: made.claim_id,
        grant: made.grant,
      };
      expect(
        expectStatus(await receipt(server, world, held, { receipt_id: "a", kind: "accepted" }), 200),
      ).toMatchObject({ confirmed: true });
    }
    // The claimed calls are no candidates any more; the third one is, and another executor may claim it.
    const other = await connect(server, world, "batch-claim-1b");
    const rest = expectStatus(await pending(world, other, "&claim=5"), 200);
    expect(rest.data).toEqual([]);
    expect(rest.claims.map((c: { call: { call_id: string } }) => c.call.call_id)).toEqual([body.data[0].call_id]);
  });

  it("a connection that declared its tools is claimed only calls of those tools; the rest stay candidates", async () => {
    const world = await buildWorld(server, THREE_CALLS);
    const runId = await startRun(server, world);
    const connectAs = async (executorId: string, toolNames: string[]) =>
      expectStatus(
        await server.call("POST", "/v1/executors/connect", {
          key: world.executorKey,
          body: { executor_id: executorId, binding_ids: [world.bindingId], tool_names: toolNames },
        }),
        200,
      ) as Executor;
    const undoOnly = await connectAs("batch-tools-1", ["tasks.undo"]);
    const none = expectStatus(await pending(world, undoOnly, "&claim=3"), 200);
    expect(none.claims).toEqual([]);
    expect(none.data).toHaveLength(3);
    const writer = await connectAs("batch-tools-2", ["tasks.write"]);
    expect(expectStatus(await pending(world, writer, "&claim=3"), 200).claims).toHaveLength(3);
    expect((await listCalls(server, runId)).map((c) => c.status)).toEqual(["claimed", "claimed", "claimed"]);
  });

  it("without claim the answer is unchanged: no claims member, nothing claimed", async () => {
    const { world, runId, executor } = await freshRun("batch-claim-2");
    const body = expectStatus(await pending(world, executor, ""), 200);
    expect(body.claims).toBeUndefined();
    expect(body.data).toHaveLength(3);
    expect((await listCalls(server, runId)).map((c) => c.status)).toEqual(["pending", "pending", "pending"]);
  });

  it("bad claim values are 422 validation_failed and claim nothing", async () => {
    const { world, runId, executor } = await freshRun("batch-claim-3");
    for (const value of ["0", "33", "-1", "abc", "1.5", ""]) {
      const answer = await pending(world, executor, `&claim=${value}`);
      expect(answer.status, value).toBeGreaterThanOrEqual(400);
      expect(answer.status, value).toBeLessThan(500);
      expect(answer.body.error.code, value).toBe("validation_failed");
    }
    expect((await listCalls(server, runId)).map((c) => c.status)).toEqual(["pending", "pending", "pending"]);
  });

  it("claim needs tools:execute: a connect-only key is 403 forbidden, nothing claimed", async () => {
    const { world, runId } = await freshRun("batch-claim-4-unused");
    const answer = await server.call("POST", "/v1/executors/connect", {
      key: world.connectOnlyKey,
      body: { executor_id: "batch-claim-4", binding_ids: [world.bindingId] },
    });
    const executor = expectStatus(answer, 200);
    expectError(await pending(world, executor, "&claim=1", world.connectOnlyKey), 403, "forbidden");
    expectStatus(await pending(world, executor, "", world.connectOnlyKey), 200);
    expect((await listCalls(server, runId)).map((c) => c.status)).toEqual(["pending", "pending", "pending"]);
  });

  it("another key acting as the executor is 403 executor_key_mismatch on both batch routes, nothing changed", async () => {
    const { world, runId, executor } = await freshRun("batch-owner");
    const [call] = await listCalls(server, runId);
    const held = await claimed(server, world, runId, call.call_id, executor);
    const before = await dumpTables(server.database.url);
    expectError(await pending(world, executor, "&claim=3", otherKey), 403, "executor_key_mismatch");
    expectError(
      await batch(world, executor.executor_id, [item(held, { receipt_id: "r1", kind: "accepted" })], otherKey),
      403,
      "executor_key_mismatch",
    );
    expect(await dumpTables(server.database.url)).toEqual(before);
  });

  it("no key is 401 and a key whose binding scope misses the executor is 404 on both batch routes", async () => {
    const { world, runId, executor } = await freshRun("batch-reach");
    const [call] = await listCalls(server, runId);
    const held = await claimed(server, world, runId, call.call_id, executor);
    const narrow = expectStatus(
      await server.call("POST", "/v1/keys", {
        ...admin,
        body: { name: "narrow", scopes: ["executors:connect", "tools:execute"], bindings: ["elsewhere"] },
      }),
      201,
    ).key;
    const before = await dumpTables(server.database.url);
    const one = [item(held, { receipt_id: "acc", kind: "accepted" })];
    const path = `/v1/executors/${executor.executor_id}`;
    expectError(
      await server.call("GET", `${path}/pending?connection_id=${executor.connection_id}&claim=3`),
      401,
      "unauthorized",
    );
    expectError(await server.call("POST", `${path}/receipts`, { body: { receipts: one } }), 401, "unauthorized");
    expectError(await pending(world, executor, "&claim=3", narrow), 404, "not_found");
    expectError(await batch(world, executor.executor_id, one, narrow), 404, "not_found");
    expect(await dumpTables(server.database.url)).toEqual(before);
  });

  it("batched receipts answer what the per-call route answers, replays included, across both routes", async () => {
    const { world, runId, executor } = await freshRun("batch-receipts-1");
    const calls = await listCalls(server, runId);
    const held = await Promise.all(calls.map((c) => claimed(server, world, runId, c.call_id, executor)));
    const [a, b, c] = held as [Held, Held, Held];
    const accepted = expectStatus(
      await batch(world, executor.executor_id, [
        item(a, { receipt_id: "acc", kind: "accepted" }),
        item(b, { receipt_id: "acc", kind: "accepted" }),
      ]),
      200,
    );
    expect(accepted.data.map((x: { status: number }) => x.status)).toEqual([200, 200]);
    expect(accepted.data[0]).toMatchObject({ run_id: runId, call_id: a.callId });
    expect(accepted.data[0].body).toEqual({
      receipt_id: "acc",
      kind: "accepted",
      replayed: false,
      confirmed: true,
      applied: true,
      call_status: "accepted",
      run_status: "waiting_for_tools",
    });
    // The per-call route replays a batched receipt: the first answer, replayed.
    const perCall = expectStatus(await receipt(server, world, a, { receipt_id: "acc", kind: "accepted" }), 200);
    expect(perCall).toEqual({ ...accepted.data[0].body, replayed: true });
    // The batch route replays a per-call receipt the same way the per-call route does.
    const cAccepted = expectStatus(await receipt(server, world, c, { receipt_id: "acc", kind: "accepted" }), 200);
    const replays = expectStatus(
      await batch(world, executor.executor_id, [
        item(c, { receipt_id: "acc", kind: "accepted" }),
        item(b, { receipt_id: "acc", kind: "accepted" }),
      ]),
      200,
    );
    expect(replays.data[0]).toEqual({
      run_id: runId,
      call_id: c.callId,
      status: 200,
      body: { ...cAccepted, replayed: true },
    });
    expect(replays.data[1].body).toEqual({ ...accepted.data[1].body, replayed: true });
    // A completed receipt in a batch settles its call; its big integer and float spelling are kept, so
    // the per-call route, sent the same receipt with other whitespace and key order, replays it.
    const envelope = `"executor_id":"${a.executorId}","claim_id":"${a.claimId}","grant":"${a.grant}"`;
    const doneText = `{"receipts":[{"run_id":"${runId}","call_id":"${a.callId}","receipt":{${envelope},"receipt_id":"done","kind":"completed","result":{"id":12345678901234567890,"n":1.50}}}]}`;
    const done = expectStatus(
      await server.call("POST", `/v1/executors/${executor.executor_id}/receipts`, {
        key: world.executorKey,
        body: doneText,
      }),
      200,
    );
    expect(done.data[0].status).toBe(200);
    expect(done.data[0].body).toMatchObject({ kind: "completed", replayed: false, call_status: "completed" });
    const doneAgain = await receipt(
      server,
      world,
      a,
      `{ "kind": "completed", "receipt_id": "done", ${envelope}, "result": { "id": 12345678901234567890, "n": 1.50 } }`,
    );
    expect(expectStatus(doneAgain, 200)).toEqual({ ...done.data[0].body, replayed: true });
    // Another result under the same receipt ID: 409 receipt_conflict, the same on both routes.
    const otherResult = await receipt(
      server,
      world,
      a,
      `{${envelope},"receipt_id":"done","kind":"completed","result":{"id":12345678901234567891,"n":1.50}}`,
    );
    expectError(otherResult, 409, "receipt_conflict");
    const otherInBatch = expectStatus(
      await server.call("POST", `/v1/executors/${executor.executor_id}/receipts`, {
        key: world.executorKey,
        body: doneText.replace("12345678901234567890", "12345678901234567891"),
      }),
      200,
    );
    expect({ status: otherInBatch.data[0].status, body: withoutRequestId(otherInBatch.data[0].body) }).toEqual({
      status: 409,
      body: withoutRequestId(otherResult.body),
    });
  });

  it("refusals are per receipt, with the per-call route's status and body; the other receipts are recorded", async () => {
    const { world, runId, executor } = await freshRun("batch-receipts-2");
    const calls = await listCalls(server, runId);
    const [a, b, c] = (await Promise.all(calls.map((x) => claimed(server, world, runId, x.call_id, executor)))) as [
      Held,
      Held,
      Held,
    ];
    expectStatus(await receipt(server, world, a, { receipt_id: "acc", kind: "accepted" }), 200);
    const cases: Array<[Held, Record<string, unknown>, number, string]> = [
      [a, { receipt_id: "acc", kind: "progress", progress: { p: 1 } }, 409, "receipt_conflict"],
      [b, { receipt_id: "early", kind: "completed", result: 1 }, 409, "accept_required"],
      [{ ...b, grant: "x".repeat(43) }, { receipt_id: "g", kind: "accepted" }, 403, "invalid_grant"],
      [a, { receipt_id: "bad", kind: "failed" }, 422, "validation_failed"],
      [{ ...a, callId: "call_nope" }, { receipt_id: "nf", kind: "accepted" }, 404, "not_found"],
    ];
    const answer = expectStatus(
      await batch(world, executor.executor_id, [
        ...cases.map(([held, fields]) => item(held, fields)),
        item(c, { receipt_id: "acc", kind: "accepted" }),
      ]),
      200,
    );
    expect(answer.data).toHaveLength(cases.length + 1);
    for (const [index, [held, fields, status, code]] of cases.entries()) {
      expect(answer.data[index].status, code).toBe(status);
      expect(answer.data[index].body.error.code).toBe(code);
      // The per-call route answers the same status and body for the same receipt.
      const perCall = await receipt(server, world, held, fields);
      expect({ status: perCall.status, body: withoutRequestId(perCall.body) }).toEqual({
        status: answer.data[index].status,
        body: withoutRequestId(answer.data[index].body),
      });
    }
    expect(answer.data[cases.length]).toMatchObject({ status: 200, body: { confirmed: true, replayed: false } });
  });

  it("a receipt naming another executor is refused alone (422); the batch route's executor is the one owned", async () => {
    const { world, runId, executor } = await freshRun("batch-receipts-3");
    const [call] = await listCalls(server, runId);
    const held = await claimed(server, world, runId, call.call_id, executor);
    const mine = await connect(server, world, "batch-receipts-3b");
    const answer = expectStatus(
      await batch(world, mine.executor_id, [item(held, { receipt_id: "acc", kind: "accepted" })]),
      200,
    );
    expect(answer.data[0].status).toBe(422);
    expect(answer.data[0].body.error).toMatchObject({
      code: "validation_failed",
      pointer: "/receipts/0/receipt/executor_id",
    });
    expect((await listCalls(server, runId))[0].status).toBe("claimed");
  });

  it("bad batches are refused whole with the error body and change nothing", async () => {
    const { world, runId, executor } = await freshRun("batch-receipts-4");
    const [call] = await listCalls(server, runId);
    const held = await claimed(server, world, runId, call.call_id, executor);
    const one = item(held, { receipt_id: "acc", kind: "accepted" });
    const before = await dumpTables(server.database.url);
    const path = `/v1/executors/${executor.executor_id}/receipts`;
    const bad: Array<[unknown, string]> = [
      [{ receipts: [] }, "validation_failed"],
      [{ receipts: Array.from({ length: 101 }, () => one) }, "validation_failed"],
      [{ receipts: [{ ...one, extra: 1 }] }, "unknown_field"],
      [{ receipts: [{ ...one, receipt: { ...one.receipt, kind: "nope" } }] }, "validation_failed"],
      [{}, "validation_failed"],
    ];
    for (const [body, code] of bad) {
      const answer = await server.call("POST", path, { key: world.executorKey, body });
      expect(answer.status).toBe(422);
      expect(answer.body.error.code).toBe(code);
    }
    expectError(
      await server.call("POST", path, { key: world.executorKey, body: '{"receipts":[' }),
      400,
      "invalid_json",
    );
    expectError(
      await server.call("POST", path, { key: world.connectOnlyKey, body: { receipts: [one] } }),
      403,
      "forbidden",
    );
    expectError(
      await server.call("POST", "/v1/executors/nobody/receipts", { key: world.executorKey, body: { receipts: [one] } }),
      404,
      "not_found",
    );
    expect(await dumpTables(server.database.url)).toEqual(before);
  });

  it("the OpenAPI document names and documents both batched operations", async () => {
    const doc = (await server.call("GET", "/v1/openapi.json")).body;
    const post = doc.paths["/v1/executors/{executor_id}/receipts"].post;
    expect(post.operationId).toBe("postExecutorReceipts");
    // Wire schemas are named components, referenced by $ref.
    const ref: string = post.requestBody.content["application/json"].schema.$ref;
    expect(ref).toBe("#/components/schemas/ReceiptBatchRequest");
    expect(doc.components.schemas.ReceiptBatchRequest.properties.receipts.maxItems).toBe(100);
    const get = doc.paths["/v1/executors/{executor_id}/pending"].get;
    expect(get.operationId).toBe("listPendingCalls");
    expect(get.parameters.find((p: { name: string }) => p.name === "claim").schema).toMatchObject({
      minimum: 1,
      maximum: 32,
    });
  });
});
