// An executor belongs to the API key that opened its current connection: no other key may claim,
// report, heartbeat, poll or detach for it (403 executor_key_mismatch), not even with its
// connection_id and grants; a reconnect with a new key moves it, and its claims, to that key.
import { beforeAll, expect, it } from "vitest";
import { GRANT_KEY_NAME, grantHash, grantKeyOf, legacyGrant } from "../../src/calls/grant.js";
import { connectDatabase } from "../../src/storage/engine/connect-database.js";
import { dumpTables } from "../support/table-dump.js";
import { describeEachDialect } from "../support/test-databases.js";
import {
  admin,
  buildWorld,
  type ClockedServer,
  claim,
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
} from "./calls-harness.js";

describeEachDialect("executor ownership", (dialect) => {
  let server: ClockedServer;
  let world: World;
  /** Holds tools:execute only; it never connected. */
  let executeOnlyKey: string;
  /** Holds executors:connect and tools:execute, like the executor's own key, but is another key. */
  let otherKey: string;

  beforeAll(async () => {
    server = await startClockedServer(dialect);
    world = await buildWorld(server, [
      {
        tool_calls: [
          { name: "tasks.write", arguments: { title: "one" } },
          { name: "tasks.write", arguments: { title: "two" } },
        ],
      },
      { message: "done" },
    ]);
    const newKey = async (name: string, scopes: string[]): Promise<string> =>
      expectStatus(await server.call("POST", "/v1/keys", { ...admin, body: { name, scopes } }), 201).key;
    executeOnlyKey = await newKey("execute only", ["tools:execute"]);
    otherKey = await newKey("other executor", ["executors:connect", "tools:execute"]);
  });

  async function pendingCalls(): Promise<{ runId: string; callIds: string[] }> {
    const runId = await startRun(server, world);
    return { runId, callIds: (await listCalls(server, runId)).map((call) => call.call_id) };
  }

  function claimAs(key: string, runId: string, callId: string, executor: Executor) {
    return server.call("POST", `/v1/runs/${runId}/tool-calls/${callId}/claim`, {
      key,
      body: { executor_id: executor.executor_id, connection_id: executor.connection_id },
    });
  }

  function receiptAs(key: string, held: Held, fields: Record<string, unknown>) {
    return server.call("POST", `/v1/runs/${held.runId}/tool-calls/${held.callId}/receipts`, {
      key,
      body: { executor_id: held.executorId, claim_id: held.claimId, grant: held.grant, ...fields },
    });
  }

  it("another key claiming as E with E's connection_id is 403; E's own claim then wins, not replayed", async () => {
    const { runId, callIds } = await pendingCalls();
    const [callId] = callIds as [string];
    const executor = await connect(server, world, "own-ex-1");
    const before = await dumpTables(server.database.url);
    for (const key of [executeOnlyKey, otherKey]) {
      expectError(await claimAs(key, runId, callId, executor), 403, "executor_key_mismatch");
    }
    expect(await dumpTables(server.database.url)).toEqual(before);
    const won = expectStatus(await claim(server, world, runId, callId, executor), 200);
    expect(won.replayed).toBe(false);
    // Once E holds the call, another key still learns nothing of the claim: no grant, no replay.
    for (const key of [executeOnlyKey, otherKey]) {
      expectError(await claimAs(key, runId, callId, executor), 403, "executor_key_mismatch");
    }
  });

  it("heartbeat, pending, report and disconnect from another key are 403 and change nothing", async () => {
    const { callIds } = await pendingCalls();
    const executor = await connect(server, world, "own-ex-2");
    const base = `/v1/executors/${executor.executor_id}`;
    const connection = { connection_id: executor.connection_id };
    const requests = (key: string) => [
      server.call("POST", `${base}/heartbeat`, { key, body: connection }),
      server.call("GET", `${base}/pending?connection_id=${executor.connection_id}`, { key }),
      server.call("POST", `${base}/calls/report`, {
        key,
        body: { ...connection, calls: [{ call_id: callIds[0], state: "pending_delivery" }] },
      }),
      server.call("POST", `${base}/disconnect`, { key, body: connection }),
    ];
    const before = await dumpTables(server.database.url);
    for (const answer of await Promise.all(requests(otherKey))) expectError(answer, 403, "executor_key_mismatch");
    // Without executors:connect the scope refuses first.
    for (const answer of await Promise.all(requests(executeOnlyKey))) expectError(answer, 403, "forbidden");
    expect(await dumpTables(server.database.url)).toEqual(before);
    // E's connection is untouched: its own heartbeat and poll still work.
    expectStatus(await server.call("POST", `${base}/heartbeat`, { key: world.executorKey, body: connection }), 200);
    const pending = `${base}/pending?connection_id=${executor.connection_id}`;
    expect(
      expectStatus(await server.call("GET", pending, { key: world.executorKey }), 200).data.length,
    ).toBeGreaterThan(0);
  });

  it("receipts from another key are 403 even with E's claim and grant; E's own receipts go on", async () => {
    const { runId, callIds } = await pendingCalls();
    const held = await claimed(server, world, runId, callIds[0] as string, await connect(server, world, "own-ex-3"));
    const before = await dumpTables(server.database.url);
    for (const key of [executeOnlyKey, otherKey]) {
      expectError(await receiptAs(key, held, { receipt_id: "acc", kind: "accepted" }), 403, "executor_key_mismatch");
    }
    expect(await dumpTables(server.database.url)).toEqual(before);
    const accepted = await receipt(server, world, held, { receipt_id: "acc", kind: "accepted" });
    expect(expectStatus(accepted, 200)).toMatchObject({ replayed: false, confirmed: true });
    // Not even a replay of E's own receipt is answered to another key.
    expectError(await receiptAs(otherKey, held, { receipt_id: "acc", kind: "accepted" }), 403, "executor_key_mismatch");
    expectError(
      await receiptAs(otherKey, held, { receipt_id: "done", kind: "completed", result: { stolen: true } }),
      403,
      "executor_key_mismatch",
    );
    const done = await receipt(server, world, held, { receipt_id: "done", kind: "completed", result: { ok: true } });
    expect(expectStatus(done, 200)).toMatchObject({ applied: true, call_status: "completed" });
  });

  it("a reconnect with a new key moves E to it: the old key is refused, the new one goes on with E's grants", async () => {
    const { runId, callIds } = await pendingCalls();
    const [first, second] = callIds as [string, string];
    const before = await connect(server, world, "own-ex-4");
    const accepted = await claimed(server, world, runId, first, before);
    const acceptedFields = { receipt_id: "acc", kind: "accepted" };
    expect(expectStatus(await receipt(server, world, accepted, acceptedFields), 200)).toMatchObject({
      confirmed: true,
    });
    const unaccepted = await claimed(server, world, runId, second, before);

    const reconnected = expectStatus(
      await server.call("POST", "/v1/executors/connect", {
        key: otherKey,
        body: { executor_id: "own-ex-4", binding_ids: [world.bindingId] },
      }),
      200,
    );
    const after = { executor_id: "own-ex-4", connection_id: reconnected.connection_id };
    // The old key: refused everywhere, with its old connection or the new one.
    const oldHeartbeat = await server.call("POST", "/v1/executors/own-ex-4/heartbeat", {
      key: world.executorKey,
      body: { connection_id: before.connection_id },
    });
    expectError(oldHeartbeat, 403, "executor_key_mismatch");
    expectError(await claim(server, world, runId, second, after), 403, "executor_key_mismatch");
    expectError(
      await receipt(server, world, accepted, { receipt_id: "p", kind: "progress" }),
      403,
      "executor_key_mismatch",
    );
    // The new key: the grants issued before the reconnect still hold the claims.
    expect(expectStatus(await receiptAs(otherKey, accepted, acceptedFields), 200)).toMatchObject({
      replayed: true,
      confirmed: true,
    });
    expect(expectStatus(await receiptAs(otherKey, unaccepted, acceptedFields), 200)).toMatchObject({
      replayed: false,
      confirmed: true,
    });
    const done = await receiptAs(otherKey, accepted, { receipt_id: "done", kind: "completed", result: { id: 1 } });
    expect(expectStatus(done, 200)).toMatchObject({ applied: true, call_status: "completed" });
    // A claim replay never hands a grant made for the old key to the new one.
    expectError(await claimAs(otherKey, runId, second, after), 409, "conflict");
  });

  it("an executor ID holding ':' cannot make one call's grant pass for another call", async () => {
    const { runId, callIds } = await pendingCalls();
    const [first, second] = callIds as [string, string];
    // The old grant input `claim:call:executor` of (clm, first, `${second}:x`) was the same text as that of
    // (`clm:first`, second, "x"): the grant passed as authentic on the second call.
    const shifty = await connect(server, world, `${second}:x`);
    const held = await claimed(server, world, runId, first, shifty);
    await connect(server, world, "x");
    const before = await dumpTables(server.database.url);
    const forged = { ...held, callId: second, claimId: `${held.claimId}:${first}`, executorId: "x" };
    expectError(await receipt(server, world, forged, { receipt_id: "acc", kind: "accepted" }), 403, "invalid_grant");
    expect(await dumpTables(server.database.url)).toEqual(before);
  });

  it("a grant issued before the upgrade (claim:call:executor) still serves the claim holding the call", async () => {
    const { runId, callIds } = await pendingCalls();
    const executor = await connect(server, world, "own-ex-5");
    const held = await claimed(server, world, runId, callIds[0] as string, executor);
    // As an older server would have left it: the row holds the hash of the grant in the old format.
    const connection = await connectDatabase(server.database.url);
    let legacy: string;
    try {
      const secret = await connection.db
        .selectFrom("server_secrets")
        .select("value")
        .where("name", "=", GRANT_KEY_NAME)
        .executeTakeFirstOrThrow();
      legacy = legacyGrant(grantKeyOf(secret.value), held.claimId, held.callId, held.executorId);
      await connection.db
        .updateTable("tool_calls")
        .set({ grant_hash: grantHash(legacy) })
        .where("call_id", "=", held.callId)
        .execute();
    } finally {
      await connection.db.destroy();
    }
    const upgraded = { ...held, grant: legacy };
    // A lost claim answer asked again gets the grant that was issued, not a new one.
    expect(expectStatus(await claim(server, world, runId, held.callId, executor), 200)).toMatchObject({
      claim_id: held.claimId,
      grant: legacy,
      replayed: true,
    });
    const accepted = await receipt(server, world, upgraded, { receipt_id: "acc", kind: "accepted" });
    expect(expectStatus(accepted, 200)).toMatchObject({ confirmed: true, call_status: "accepted" });
    // Never for another key, and never for a claim that does not hold the call.
    expectError(
      await receiptAs(otherKey, upgraded, { receipt_id: "p", kind: "progress" }),
      403,
      "executor_key_mismatch",
    );
    const stale = { ...upgraded, claimId: "clm_other" };
    expectError(await receipt(server, world, stale, { receipt_id: "acc", kind: "accepted" }), 403, "invalid_grant");
    const done = await receipt(server, world, upgraded, { receipt_id: "done", kind: "completed", result: { ok: 1 } });
    expect(expectStatus(done, 200)).toMatchObject({ applied: true, call_status: "completed" });
  });
});
