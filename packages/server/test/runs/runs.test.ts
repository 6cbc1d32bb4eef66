// Runs over HTTP, driven by the scripted model: creation and the first turn, message and tool-call
// steps, refused calls (unknown tool, invalid arguments) that never reach an executor, the exhausted
// script, the stored input and history byte for byte, and the lists in pages.
import { beforeAll, expect, it } from "vitest";
import { expectError, ISO_TIME, readAll } from "../config/config-fixtures.js";
import { startTestServer, type TestServer } from "../http/http-harness.js";
import { describeEachDialect } from "../support/test-databases.js";
import { admin, at, callsOf, historyOf, publishScript, read, startRun } from "./run-fixtures.js";

const CALL_ID = /^call_[0-9a-z]{26}$/;

describeEachDialect("runs", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });

  it("completes a message-only script in the creating request; GET answers its output", async () => {
    const script = await publishScript(server, [{ message: "Hello, 世界" }]);
    const created = await startRun(server, script.sessionId);
    expect(created.body).toMatchObject({
      session_id: script.sessionId,
      agent_id: script.agentId,
      agent_version: script.agentVersion,
      status: "completed",
      output: "Hello, 世界",
    });
    expect(created.body.run_id).toMatch(/^run_[0-9a-z]{26}$/);
    expect(created.body.created_at).toMatch(ISO_TIME);
    expect(created.body.ended_at).toMatch(ISO_TIME);
    expect(created.body.error).toBeUndefined();
    const got = await read(server, `/v1/runs/${created.body.run_id}`);
    expect(got.body).toEqual(created.body);
    const history = await read(server, `/v1/runs/${created.body.run_id}/history`);
    expect(history.text).toBe(
      '{"data":[{"type":"input","input":"hello"},{"type":"message","text":"Hello, 世界"}],"next_cursor":null}',
    );
    expect(await callsOf(server, created.body.run_id)).toEqual([]);
  });

  it("turns a tool_calls step into pending calls and waits for them", async () => {
    const script = await publishScript(server, [
      {
        tool_calls: [
          { name: "tasks.read", arguments: { cursor: "c1" } },
          { name: "tasks.create", arguments: { title: "Buy milk" } },
        ],
      },
      { message: "done" },
    ]);
    const run = (await startRun(server, script.sessionId)).body;
    expect(run.status).toBe("waiting_for_tools");
    expect(run.output).toBeUndefined();
    const calls = await callsOf(server, run.run_id);
    expect(calls.map((call) => [call.tool_name, call.status, call.effect, call.turn, call.binding_id])).toEqual([
      ["tasks.read", "pending", "read", 0, script.bindingId],
      ["tasks.create", "pending", "write", 0, script.bindingId],
    ]);
    for (const call of calls) {
      expect(call.call_id).toMatch(CALL_ID);
      expect(call.run_id).toBe(run.run_id);
      expect(call.arguments_digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(call.executor_id).toBeUndefined();
      expect(call.claim_id).toBeUndefined();
      expect(call.rejected).toBeUndefined();
      expect(call.settled_at).toBeUndefined();
    }
    // The deadline is creation plus the tool's timeout (tasks.create: 60 s; tasks.read: the 5 min default).
    const readCall = at(calls, 0);
    const createCall = at(calls, 1);
    expect(Date.parse(createCall.deadline) - Date.parse(createCall.created_at)).toBe(60_000);
    expect(Date.parse(readCall.deadline) - Date.parse(readCall.created_at)).toBe(300_000);
    expect(await historyOf(server, run.run_id)).toEqual([
      { type: "input", input: "hello" },
      {
        type: "tool_calls",
        calls: [
          { call_id: readCall.call_id, name: "tasks.read", arguments: { cursor: "c1" } },
          { call_id: createCall.call_id, name: "tasks.create", arguments: { title: "Buy milk" } },
        ],
      },
    ]);
  });

  it("never makes refused calls pending: the model sees the error and the run goes on to its next step", async () => {
    const script = await publishScript(server, [
      {
        tool_calls: [
          { name: "tasks.create", arguments: { title: 7, colour: "red" } },
          { name: "tasks.remove", arguments: { id: "1" } },
        ],
      },
      { message: "I could not do it." },
    ]);
    const run = (await startRun(server, script.sessionId)).body;
    expect(run).toMatchObject({ status: "completed", output: "I could not do it." });
    const calls = await callsOf(server, run.run_id);
    expect(calls.map((call) => [call.tool_name, call.status, call.rejected, call.binding_id])).toEqual([
      ["tasks.create", "failed", "invalid_arguments", script.bindingId],
      ["tasks.remove", "failed", "unknown_tool", undefined],
    ]);
    const invalid = at(calls, 0);
    const unknown = at(calls, 1);
    const history = await read(server, `/v1/runs/${run.run_id}/history`);
    const invalidResult =
      '{"error":{"code":"invalid_arguments","message":"The arguments do not match the input schema of tool \\"tasks.create\\"; nothing was executed. Fix them and call again.","errors":[{"pointer":"/colour","message":"must NOT have property \'colour\' (additionalProperties)"},{"pointer":"/title","message":"must be string"}]}}';
    const unknownResult =
      '{"error":{"code":"unknown_tool","message":"There is no tool named \\"tasks.remove\\"; nothing was executed. Call one of the listed tools.","tools":["tasks.read","tasks.create","tasks.delete"]}}';
    const bytes = (text: string): number => Buffer.byteLength(text);
    expect(history.text).toBe(
      `{"data":[{"type":"input","input":"hello"},` +
        `{"type":"tool_calls","calls":[{"call_id":"${invalid.call_id}","name":"tasks.create","arguments":{"title":7,"colour":"red"}},{"call_id":"${unknown.call_id}","name":"tasks.remove","arguments":{"id":"1"}}]},` +
        `{"type":"tool_result","call_id":"${invalid.call_id}","receipt_id":null,"context_preview":{"max_result_context_bytes":2048,"original_bytes":${bytes(invalidResult)},"retained_bytes":${bytes(invalidResult)},"truncated":false,"result":${invalidResult}}},` +
        `{"type":"tool_result","call_id":"${unknown.call_id}","receipt_id":null,"context_preview":{"max_result_context_bytes":16384,"original_bytes":${bytes(unknownResult)},"retained_bytes":${bytes(unknownResult)},"truncated":false,"result":${unknownResult}}},` +
        `{"type":"message","text":"I could not do it."}],"next_cursor":null}`,
    );
  });

  it("waits only for the valid calls of a step that also holds refused ones", async () => {
    const script = await publishScript(server, [
      {
        tool_calls: [
          { name: "tasks.read", arguments: {} },
          { name: "tasks.create", arguments: {} },
        ],
      },
      { message: "done" },
    ]);
    const run = (await startRun(server, script.sessionId)).body;
    expect(run.status).toBe("waiting_for_tools");
    expect((await callsOf(server, run.run_id)).map((call) => [call.status, call.rejected])).toEqual([
      ["pending", undefined],
      ["failed", "invalid_arguments"],
    ]);
    const history = await historyOf(server, run.run_id);
    expect(history.map((item) => item.type)).toEqual(["input", "tool_calls", "tool_result"]);
    expect(history[2]).toMatchObject({
      receipt_id: null,
      context_preview: { result: { error: { code: "invalid_arguments" } } },
    });
  });

  it("fails the run with script_exhausted when the script runs out", async () => {
    const script = await publishScript(server, [{ tool_calls: [{ name: "nope", arguments: {} }] }]);
    const run = (await startRun(server, script.sessionId)).body;
    expect(run).toMatchObject({
      status: "failed",
      error: { code: "script_exhausted", message: "the script has 1 step and turn 2 needs another one" },
    });
    expect(run.output).toBeUndefined();
    expect((await read(server, `/v1/runs/${run.run_id}`)).body).toEqual(run);
  });

  it("stores the input losslessly: big integers, key order and non-ASCII text survive, compact", async () => {
    const script = await publishScript(server, [{ message: "ok" }]);
    const sent =
      '{ "input" : {"z": 12345678901234567890123, "a": [1.0, 2.50, "é😀\\n"], "m": {"b": null, "a": true}} }';
    const run = (await startRun(server, script.sessionId, sent)).body;
    const history = await read(server, `/v1/runs/${run.run_id}/history`);
    const stored = '{"z":12345678901234567890123,"a":[1.0,2.5,"é😀\\n"],"m":{"b":null,"a":true}}';
    expect(history.text.startsWith(`{"data":[{"type":"input","input":${stored}},`)).toBe(true);
  });

  it("plays scripted arguments exactly as the agent version's body wrote them (integer-like keys, big integers)", async () => {
    const base = await publishScript(server, [{ message: "unused" }]);
    const toolsets = await read(server, `/v1/toolsets?limit=200`);
    const toolsetId = toolsets.body.data.at(-1).toolset_id as string;
    const args = '{"task_id":"t-1","10":12345678901234567890,"b":1.50}';
    const versionText = `{"toolset_id":${JSON.stringify(toolsetId)},"toolset_version":1,"model":{"provider":"scripted","script":[{"tool_calls":[{"name":"tasks.delete","arguments":${args}}]},{"message":"ok"}]}}`;
    const version = await server.call("POST", `/v1/agents/${base.agentId}/versions`, { ...admin, body: versionText });
    expect(version.status, version.text).toBe(201);
    const session = await server.call("POST", "/v1/sessions", {
      ...admin,
      body: { agent_version: version.body.agent_version, subject: "user-1" },
    });
    expect(session.status, session.text).toBe(201);
    const run = (await startRun(server, session.body.session_id)).body;
    const history = await read(server, `/v1/runs/${run.run_id}/history`);
    expect(history.text).toContain('"arguments":{"task_id":"t-1","10":12345678901234567890,"b":1.5}');
  });

  it("refuses bad run requests without creating anything", async () => {
    const script = await publishScript(server, [{ message: "ok" }]);
    const path = `/v1/sessions/${script.sessionId}/runs`;
    expectError(await server.call("POST", path, { ...admin, body: {} }), 422, "validation_failed", "/input");
    expectError(
      await server.call("POST", path, { ...admin, body: { input: 1, extra: 2 } }),
      422,
      "unknown_field",
      "/extra",
    );
    expectError(
      await server.call("POST", path, { ...admin, body: '{"input":1e400}' }),
      422,
      "number_out_of_range",
      "/input",
    );
    expectError(
      await server.call("POST", "/v1/sessions/ses_missing/runs", { ...admin, body: { input: 1 } }),
      404,
      "not_found",
    );
    expectError(await server.call("GET", "/v1/runs/run_missing", admin), 404, "not_found");
    expect((await readAll(server, `/v1/sessions/${script.sessionId}/runs`)).items).toEqual([]);
  });

  it("lists a session's runs in creation order, in pages", async () => {
    const script = await publishScript(server, [{ message: "ok" }]);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await startRun(server, script.sessionId, { input: i })).body.run_id);
    const all = await readAll(server, `/v1/sessions/${script.sessionId}/runs`, admin.key, 2);
    expect(all.pages).toBe(3);
    expect(all.items.map((run) => run.run_id)).toEqual(ids);
    expect(all.items.every((run) => run.status === "completed")).toBe(true);
    expectError(await server.call("GET", "/v1/sessions/ses_missing/runs", admin), 404, "not_found");
  });

  it("serves history in pages whose items are the stored texts", async () => {
    const script = await publishScript(server, [
      { tool_calls: [{ name: "nope", arguments: { a: 1 } }] },
      { tool_calls: [{ name: "nope", arguments: { b: 2 } }] },
      { message: "end" },
    ]);
    const run = (await startRun(server, script.sessionId)).body;
    const whole = await read(server, `/v1/runs/${run.run_id}/history`);
    expect(whole.body.data.map((item: { type: string }) => item.type)).toEqual([
      "input",
      "tool_calls",
      "tool_result",
      "tool_calls",
      "tool_result",
      "message",
    ]);
    const paged = await readAll(server, `/v1/runs/${run.run_id}/history`, admin.key, 4);
    expect(paged.pages).toBe(2);
    expect(paged.items).toEqual(whole.body.data);
    const [first, second] = paged.texts;
    const inner = (text: string | undefined): string =>
      (text ?? "").replace(/^\{"data":\[/, "").replace(/\],"next_cursor":.*$/, "");
    expect(`${inner(first)},${inner(second)}`).toBe(inner(whole.text));
    expectError(
      await server.call("GET", `/v1/runs/${run.run_id}/history?cursor=bogus`, admin),
      422,
      "validation_failed",
      "/cursor",
    );
  });

  it("lists tool calls in pages", async () => {
    const calls = Array.from({ length: 5 }, (_, i) => ({ name: "tasks.read", arguments: { cursor: `c${i}` } }));
    const script = await publishScript(server, [{ tool_calls: calls }]);
    const run = (await startRun(server, script.sessionId)).body;
    const all = await readAll(server, `/v1/runs/${run.run_id}/tool-calls`, admin.key, 2);
    expect(all.pages).toBe(3);
    expect(all.items.map((call) => call.status)).toEqual(Array(5).fill("pending"));
    const history = await historyOf(server, run.run_id);
    expect((history[1] as { calls: Array<{ call_id: string }> }).calls.map((call) => call.call_id)).toEqual(
      all.items.map((call) => call.call_id),
    );
  });
});
