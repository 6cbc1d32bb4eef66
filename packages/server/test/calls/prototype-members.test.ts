// Free-form JSON is data, on both dialects: a `__proto__` or `constructor` member inside a run's
// input, the model's arguments, compensation arguments, a progress body or a result is stored and
// read back byte for byte, and projected like any other member; the same names among a body's own
// members (its envelope) are still refused at their pointer.
import { beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../support/test-databases.js";
import {
  admin,
  buildWorld,
  type ClockedServer,
  claimed,
  connect,
  expectStatus,
  historyText,
  listCalls,
  receipt,
  startClockedServer,
  type World,
} from "./calls-harness.js";

/** An ordinary JSON document whose members JavaScript would give a meaning to. */
const DOC = '{"doc":{"__proto__":"user data","constructor":{"prototype":{"polluted":true}}}}';
/** The same document as the model's arguments to `tasks.write`. */
const ARGS = '{"title":"t","doc":{"__proto__":"user data","constructor":{"prototype":{"polluted":true}}}}';

describeEachDialect("__proto__ and constructor members are data", (dialect) => {
  let server: ClockedServer;
  let world: World;

  beforeAll(async () => {
    server = await startClockedServer(dialect);
    // The script reaches the agent version as text, so its arguments keep their own `__proto__` member.
    world = await buildWorld(server, [
      { tool_calls: [{ name: "tasks.write", arguments: JSON.parse(ARGS) }] },
      { message: "done" },
    ]);
  });

  /** Starts a run whose input is `DOC`, sent as text. */
  async function startDocRun(): Promise<string> {
    const answer = await server.call("POST", `/v1/sessions/${world.sessionId}/runs`, {
      ...admin,
      body: `{"input":${DOC}}`,
    });
    return expectStatus(answer, 201).run_id as string;
  }

  it("a run's input, the model's arguments, progress and a result go through and come back byte for byte", async () => {
    const runId = await startDocRun();
    const [call] = await listCalls(server, runId);
    const claim = await server.call("POST", `/v1/runs/${runId}/tool-calls/${call.call_id}/claim`, {
      key: world.executorKey,
      body: { executor_id: "proto-ex-1", connection_id: (await connect(server, world, "proto-ex-1")).connection_id },
    });
    expect(claim.status, claim.text).toBe(200);
    expect(claim.text).toContain(`"arguments":${ARGS},`);
    const held = {
      runId,
      callId: call.call_id,
      executorId: "proto-ex-1",
      claimId: claim.body.claim_id,
      grant: claim.body.grant,
    };
    const envelope = `"executor_id":"proto-ex-1","claim_id":"${held.claimId}","grant":"${held.grant}"`;
    expectStatus(await receipt(server, world, held, { receipt_id: "acc", kind: "accepted" }), 200);
    const progress = await receipt(
      server,
      world,
      held,
      `{"receipt_id":"p","kind":"progress",${envelope},"progress":${DOC}}`,
    );
    expect(expectStatus(progress, 200)).toMatchObject({ kind: "progress", applied: true });
    const done = await receipt(
      server,
      world,
      held,
      `{"receipt_id":"c","kind":"completed",${envelope},"result":${DOC}}`,
    );
    expect(expectStatus(done, 200)).toMatchObject({ kind: "completed", call_status: "completed" });

    const history = await historyText(server, runId);
    expect(history).toContain(`{"type":"input","input":${DOC}}`);
    expect(history).toContain(`"arguments":${ARGS}}`);
    expect(history).toContain(
      `"original_bytes":${DOC.length},"retained_bytes":${DOC.length},"truncated":false,"result":${DOC}}`,
    );
    const run = expectStatus(await server.call("GET", `/v1/runs/${runId}`, admin), 200);
    expect(run.status).toBe("completed");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("a result too large for its budget is cut like any other, keeping the member names it shows", async () => {
    const runId = await startDocRun();
    const [call] = await listCalls(server, runId);
    const held = await claimed(server, world, runId, call.call_id, await connect(server, world, "proto-ex-2"));
    const envelope = `"executor_id":"proto-ex-2","claim_id":"${held.claimId}","grant":"${held.grant}"`;
    expectStatus(await receipt(server, world, held, { receipt_id: "acc", kind: "accepted" }), 200);
    const big = `{"__proto__":"${"x".repeat(3000)}","constructor":"user data"}`;
    const done = await receipt(
      server,
      world,
      held,
      `{"receipt_id":"c","kind":"completed",${envelope},"result":${big}}`,
    );
    expectStatus(done, 200);
    const history = JSON.parse(await historyText(server, runId)) as {
      data: Array<{ type: string; context_preview?: { retained_bytes: number } }>;
    };
    const preview = history.data.find((item) => item.type === "tool_result")?.context_preview;
    expect(preview).toMatchObject({ original_bytes: big.length, truncated: true, max_result_context_bytes: 1024 });
    expect(preview?.retained_bytes).toBeLessThanOrEqual(1024);
  });

  it("compensation arguments keep the members byte for byte, in the call an executor claims", async () => {
    const runId = await startDocRun();
    const [call] = await listCalls(server, runId);
    const held = await claimed(server, world, runId, call.call_id, await connect(server, world, "proto-ex-3"));
    const envelope = `"executor_id":"proto-ex-3","claim_id":"${held.claimId}","grant":"${held.grant}"`;
    expectStatus(await receipt(server, world, held, { receipt_id: "acc", kind: "accepted" }), 200);
    expectStatus(
      await receipt(server, world, held, `{"receipt_id":"c","kind":"completed",${envelope},"result":{}}`),
      200,
    );
    const created = await server.call("POST", `/v1/runs/${runId}/tool-calls/${call.call_id}/compensate`, {
      ...admin,
      body: `{"tool_name":"tasks.undo","arguments":${DOC}}`,
    });
    const compensation = expectStatus(created, 201);
    const executor = await connect(server, world, "proto-ex-4");
    const claim = await server.call("POST", `/v1/runs/${runId}/tool-calls/${compensation.call_id}/claim`, {
      key: world.executorKey,
      body: { executor_id: "proto-ex-4", connection_id: executor.connection_id },
    });
    expect(claim.status, claim.text).toBe(200);
    expect(claim.text).toContain(`"arguments":${DOC},`);
  });

  it("the dry-run checks such arguments and results, and previews the result byte for byte", async () => {
    const answer = await server.call("POST", "/v1/tools/dry-run", {
      ...admin,
      body: `{"agent_version":"${world.agentVersion}","tool_name":"tasks.write","arguments":${ARGS},"mock_receipts":[{"receipt_id":"m","kind":"completed","result":${DOC}}]}`,
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.text).toContain(`"result":${DOC}`);
    expect(answer.text).not.toContain("invalid_json");
  });

  it("the same names among a body's own members are still refused at their pointer, and nothing is stored", async () => {
    const runs = `/v1/sessions/${world.sessionId}/runs`;
    const before = expectStatus(await server.call("GET", `${runs}?limit=200`, admin), 200).data.length;
    for (const [body, pointer] of [
      [`{"input":1,"__proto__":{"polluted":true}}`, "/__proto__"],
      [`{"input":1,"constructor":{"prototype":{"polluted":true}}}`, "/constructor"],
    ] as const) {
      const answer = await server.call("POST", runs, { ...admin, body });
      expect(answer.status, answer.text).toBe(422);
      expect(answer.body.error).toMatchObject({ code: "unknown_field", pointer });
    }
    const keys = await server.call("POST", "/v1/keys", {
      ...admin,
      body: '{"name":"a","scopes":["runtime:read"],"__proto__":{"admin":true}}',
    });
    expect(keys.status, keys.text).toBe(422);
    expect(keys.body.error).toMatchObject({ code: "unknown_field", pointer: "/__proto__" });
    expect(expectStatus(await server.call("GET", `${runs}?limit=200`, admin), 200).data.length).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});
