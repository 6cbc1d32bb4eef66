// POST /v1/tools/dry-run over real HTTP, on both dialects: the seed's example, projection byte for byte
// as history would store it (read losslessly from the raw body), invalid arguments and receipts reported
// in a 200 answer, authorization and agent scope, and nothing stored.
import { compact, measure, parseJson, projectResult, type ResultType } from "@toolhost/protocol";
import { beforeAll, describe, expect, it } from "vitest";
import { BOOTSTRAP_SECRET, createKey, startTestServer, type TestServer } from "../http/http-harness.js";
import { dumpTables } from "../support/table-dump.js";
import { describeEachDialect } from "../support/test-databases.js";
import { type Published, publishAgent } from "./dry-run-fixtures.js";

const TASKS_READ = {
  name: "tasks.read",
  description: "分页读取任务",
  input_schema: {
    type: "object",
    properties: { cursor: { type: "string" }, limit: { type: "integer", maximum: 100 } },
    additionalProperties: false,
  },
  output_schema: { type: "object" },
  max_result_context_bytes: 16384,
  effect: "read",
};
const SMALL_BUDGET_TOOL = { name: "tasks.export", input_schema: { type: "object" }, max_result_context_bytes: 1024 };

/** A deterministic ~40 KB result text that JSON.parse would not round-trip: big integers, float spellings, duplicate keys. */
function largeResultText(): string {
  const tasks = Array.from(
    { length: 200 },
    (_, i) =>
      `{"id": ${12345678901234567890n + BigInt(i)}, "title": "整理第${i}季度销售报告😀 \\"q\\"", "score": 1.50, "ratio": 1e5, "done": ${i % 2 === 0}}`,
  );
  return `{"status": "ok", "data": {"tasks": [${tasks.join(", ")}], "next_cursor": "page-2"}, "total": 1E+2, "status": "partial"}`;
}

/** The exact text a dry-run answer ends with for a preview of `resultText`. */
function expectedPreviewText(resultText: string, budget: number, resultType: ResultType = "json"): string {
  const preview = projectResult(parseJson(resultText), budget, resultType);
  return compact({
    max_result_context_bytes: preview.max_result_context_bytes,
    original_bytes: preview.original_bytes,
    retained_bytes: preview.retained_bytes,
    truncated: preview.truncated,
    result: preview.result,
  });
}

/** A dry-run body as text, with the mock receipts spliced in verbatim. */
function bodyText(agentVersion: string, toolName: string, argumentsText: string, receiptTexts: string[]): string {
  return `{"agent_version":${JSON.stringify(agentVersion)},"tool_name":${JSON.stringify(toolName)},"arguments":${argumentsText},"mock_receipts":[${receiptTexts.join(",")}]}`;
}

describeEachDialect("POST /v1/tools/dry-run", (dialect) => {
  let server: TestServer;
  let agent: Published;
  let otherAgent: Published;
  const dryRun = (body: unknown, key: string = BOOTSTRAP_SECRET) =>
    server.call("POST", "/v1/tools/dry-run", { key, body });

  beforeAll(async () => {
    server = await startTestServer(dialect);
    agent = await publishAgent(server, [TASKS_READ, SMALL_BUDGET_TOOL]);
    otherAgent = await publishAgent(server, [TASKS_READ]);
  });

  it("answers the seed's example: the result fits, 35 bytes, not truncated", async () => {
    const answer = await dryRun({
      agent_version: agent.agentVersion,
      tool_name: "tasks.read",
      arguments: {},
      mock_receipts: [
        { receipt_id: "dry-run-page-001", kind: "completed", result: { next_cursor: "page-2", tasks: [] } },
      ],
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(answer.body).toEqual({
      tool: { name: "tasks.read", binding_id: agent.bindingId, effect: "read", max_result_context_bytes: 16384 },
      arguments: { valid: true, errors: [] },
      receipts: [{ receipt_id: "dry-run-page-001", kind: "completed", valid: true, errors: [] }],
      context_preview: {
        max_result_context_bytes: 16384,
        original_bytes: 35,
        retained_bytes: 35,
        truncated: false,
        result: { next_cursor: "page-2", tasks: [] },
      },
      execution_verified: false,
    });
    // Compact text, keys in the documented order.
    expect(answer.text).toBe(JSON.stringify(answer.body));
  });

  it("cuts a large result to the tool's budget, byte for byte as history would store it", async () => {
    const resultText = largeResultText();
    const text = bodyText(agent.agentVersion, "tasks.export", "{}", [
      `{"receipt_id": "r-large", "kind": "completed", "result": ${resultText}}`,
    ]);
    const answer = await dryRun(text);
    expect(answer.status, answer.text).toBe(200);
    const preview = answer.body.context_preview;
    expect(preview.truncated).toBe(true);
    expect(preview.max_result_context_bytes).toBe(1024);
    expect(preview.retained_bytes).toBeLessThanOrEqual(1024);
    expect(preview.original_bytes).toBe(measure(parseJson(resultText)));
    expect(preview.result.preserved_fields).toMatchObject({ status: "partial", "data.next_cursor": "page-2" });
    expect(
      answer.text.endsWith(`"context_preview":${expectedPreviewText(resultText, 1024)},"execution_verified":false}`),
    ).toBe(true);
  });

  it("keeps big integers, float spellings and key order of a result that fits", async () => {
    const resultText = `{"id": 12345678901234567890, "ratio": 1e5, "b": 1.0, "a": -0, "z": 1.5e-7}`;
    const text = bodyText(agent.agentVersion, "tasks.read", "{}", [
      `{"receipt_id":"r-big","kind":"completed","result":${resultText}}`,
    ]);
    const answer = await dryRun(text);
    expect(answer.status, answer.text).toBe(200);
    const kept = '{"id":12345678901234567890,"ratio":100000.0,"b":1.0,"a":0,"z":1.5e-07}';
    expect(answer.text).toContain(
      `"original_bytes":${Buffer.byteLength(kept)},"retained_bytes":${Buffer.byteLength(kept)},"truncated":false,"result":${kept}}`,
    );
    expect(
      answer.text.endsWith(`"context_preview":${expectedPreviewText(resultText, 16384)},"execution_verified":false}`),
    ).toBe(true);
  });

  it("previews a multimodal result with the receipt's result_type", async () => {
    const long = "长".repeat(2000);
    const resultText = JSON.stringify({
      content: [
        { type: "text", text: long },
        { type: "image", mime_type: "image/png", data: "iVBORw0KGgo=".repeat(200) },
      ],
    });
    const text = bodyText(agent.agentVersion, "tasks.export", "{}", [
      `{"receipt_id":"r-mm","kind":"completed","result_type":"multimodal","result":${resultText}}`,
    ]);
    const answer = await dryRun(text);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.context_preview.truncated).toBe(true);
    expect(answer.body.context_preview.retained_bytes).toBeGreaterThan(1024);
    expect(
      answer.text.endsWith(
        `"context_preview":${expectedPreviewText(resultText, 1024, "multimodal")},"execution_verified":false}`,
      ),
    ).toBe(true);
  });

  it("answers a null preview when no mock receipt is completed", async () => {
    for (const mock_receipts of [
      undefined,
      [],
      [
        { receipt_id: "a1", kind: "accepted" },
        { receipt_id: "p1", kind: "progress", progress: { percent: 50 } },
        { receipt_id: "f1", kind: "failed", error: { message: "no such page" } },
      ],
    ]) {
      const answer = await dryRun({ agent_version: agent.agentVersion, tool_name: "tasks.read", mock_receipts });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.context_preview).toBeNull();
      expect(answer.body.execution_verified).toBe(false);
      expect(answer.body.arguments).toEqual({ valid: true, errors: [] });
      expect(answer.body.receipts.every((receipt: { valid: boolean }) => receipt.valid)).toBe(true);
    }
  });

  it("reports invalid arguments in the answer, pointing into the arguments", async () => {
    const answer = await dryRun({
      agent_version: agent.agentVersion,
      tool_name: "tasks.read",
      arguments: { cursor: 5, limit: 500, colour: "red" },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.arguments.valid).toBe(false);
    const pointers = answer.body.arguments.errors.map((error: { pointer: string }) => error.pointer).sort();
    expect(pointers).toEqual(["/colour", "/cursor", "/limit"]);
    for (const error of answer.body.arguments.errors) expect(error.message).toEqual(expect.any(String));
  });

  it("reports arguments that are not an object, and arguments the lossless reader refuses", async () => {
    const notObject = await dryRun({ agent_version: agent.agentVersion, tool_name: "tasks.read", arguments: [1] });
    expect(notObject.body.arguments).toEqual({ valid: false, errors: [{ pointer: "", message: expect.any(String) }] });
    const surrogate = await dryRun(bodyText(agent.agentVersion, "tasks.read", '{"cursor":"\\ud800"}', []));
    expect(surrogate.status, surrogate.text).toBe(200);
    expect(surrogate.body.arguments.valid).toBe(false);
    expect(surrogate.body.arguments.errors[0]).toMatchObject({
      pointer: "/cursor",
      message: expect.stringMatching(/^lone_surrogate/),
    });
  });

  it("reports each invalid receipt and previews the first valid completed one", async () => {
    const receipts = [
      `"not an object"`,
      `{"receipt_id":"c-noresult","kind":"completed"}`,
      `{"receipt_id":"x1","kind":"finished","result":{}}`,
      `{"kind":"completed","result":{"a":1},"max_result_bytes":10}`,
      `{"receipt_id":"c-surrogate","kind":"completed","result":{"text":"\\udc00"}}`,
      `{"receipt_id":"c-huge","kind":"completed","result":{"n":1e400}}`,
      `{"receipt_id":"c-mm","kind":"completed","result_type":"multimodal","result":{"content":[{"type":"video"}]}}`,
      `{"receipt_id":"c-type","kind":"completed","result_type":"html","result":{}}`,
      `{"receipt_id":"a-result","kind":"accepted","result":{}}`,
      `{"receipt_id":"c-ok","kind":"completed","result":{"first":"valid"}}`,
      `{"receipt_id":"c-later","kind":"completed","result":{"second":"valid"}}`,
    ];
    const answer = await dryRun(bodyText(agent.agentVersion, "tasks.read", "{}", receipts));
    expect(answer.status, answer.text).toBe(200);
    const summary = answer.body.receipts.map(
      (r: { receipt_id: string | null; kind: string | null; valid: boolean; errors: Array<{ pointer: string }> }) => [
        r.receipt_id,
        r.kind,
        r.valid,
        r.errors.map((error) => error.pointer),
      ],
    );
    expect(summary).toEqual([
      [null, null, false, [""]],
      ["c-noresult", "completed", false, ["/result"]],
      ["x1", null, false, ["/kind"]],
      [null, "completed", false, ["/max_result_bytes", "/receipt_id"]],
      ["c-surrogate", "completed", false, ["/result/text"]],
      ["c-huge", "completed", false, ["/result/n"]],
      ["c-mm", "completed", false, ["/result/content/0/type"]],
      ["c-type", "completed", false, ["/result_type"]],
      ["a-result", "accepted", false, ["/result"]],
      ["c-ok", "completed", true, []],
      ["c-later", "completed", true, []],
    ]);
    expect(answer.body.receipts[4].errors[0].message).toMatch(/^lone_surrogate/);
    expect(answer.body.receipts[5].errors[0].message).toMatch(/^number_out_of_range/);
    expect(answer.body.context_preview.result).toEqual({ first: "valid" });
  });

  it("answers 404 for an unknown agent version and an unknown tool, and 422 for a malformed body", async () => {
    const unknownVersion = await dryRun({ agent_version: "agentver_missing", tool_name: "tasks.read" });
    expect(unknownVersion.status).toBe(404);
    expect(unknownVersion.body.error).toMatchObject({ code: "not_found", pointer: "/agent_version" });
    const unknownTool = await dryRun({ agent_version: agent.agentVersion, tool_name: "tasks.write" });
    expect(unknownTool.status).toBe(404);
    expect(unknownTool.body.error).toMatchObject({
      code: "not_found",
      pointer: "/tool_name",
      details: { tools: ["tasks.read", "tasks.export"] },
    });
    const unknownField = await dryRun({ agent_version: agent.agentVersion, tool_name: "tasks.read", colour: 1 });
    expect(unknownField.status).toBe(422);
    expect(unknownField.body.error).toMatchObject({ code: "unknown_field", pointer: "/colour" });
    const missing = await dryRun({ tool_name: "tasks.read" });
    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatchObject({ code: "validation_failed", pointer: "/agent_version" });
    const broken = await dryRun('{"agent_version":');
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe("invalid_json");
  });

  describe("authorization", () => {
    const seedBody = () => ({
      agent_version: agent.agentVersion,
      tool_name: "tasks.read",
      mock_receipts: [{ receipt_id: "r1", kind: "completed", result: { ok: true } }],
    });

    it("needs a key (401)", async () => {
      const answer = await server.call("POST", "/v1/tools/dry-run", { body: seedBody() });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe("unauthorized");
    });

    it("refuses a key with none of the reading scopes (403)", async () => {
      const { key } = await createKey(server, { name: "writer", scopes: ["configuration:write", "runtime:write"] });
      const answer = await dryRun(seedBody(), key);
      expect(answer.status).toBe(403);
      expect(answer.body.error).toMatchObject({
        code: "forbidden",
        details: { required_scopes: ["runtime:read", "configuration:read", "tools:execute"] },
      });
    });

    it("admits runtime:read, configuration:read and tools:execute", async () => {
      for (const scope of ["runtime:read", "configuration:read", "tools:execute"]) {
        const { key } = await createKey(server, { name: scope, scopes: [scope], agents: [agent.agentId] });
        const answer = await dryRun(seedBody(), key);
        expect(answer.status, `${scope}: ${answer.text}`).toBe(200);
        expect(answer.body.context_preview.result).toEqual({ ok: true });
      }
    });

    it("answers 404 for an agent outside the key's agent scope, like a missing one", async () => {
      const { key } = await createKey(server, {
        name: "other agent",
        scopes: ["runtime:read"],
        agents: [otherAgent.agentId],
      });
      const outside = await dryRun(seedBody(), key);
      const missing = await dryRun({ ...seedBody(), agent_version: "agentver_missing" }, key);
      expect(outside.status).toBe(404);
      expect(outside.body.error).toMatchObject({ code: "not_found", pointer: "/agent_version" });
      expect(outside.body.error.message).toBe(
        missing.body.error.message.replace("agentver_missing", agent.agentVersion),
      );
      const inside = await dryRun({ ...seedBody(), agent_version: otherAgent.agentVersion }, key);
      expect(inside.status).toBe(200);
    });
  });

  it("stores nothing: every table is unchanged after dry-runs, valid and invalid", async () => {
    const before = await dumpTables(server.database.url);
    expect(Object.keys(before).length).toBeGreaterThan(3);
    const bodies = [
      bodyText(agent.agentVersion, "tasks.export", "{}", [
        `{"receipt_id":"r","kind":"completed","result":${largeResultText()}}`,
      ]),
      bodyText(agent.agentVersion, "tasks.read", '{"cursor":7}', [`{"receipt_id":"a","kind":"accepted"}`, "[]"]),
      { agent_version: "agentver_missing", tool_name: "tasks.read" },
      { agent_version: agent.agentVersion, tool_name: "tasks.read", extra: true },
    ];
    for (const body of bodies) await dryRun(body);
    expect(await dumpTables(server.database.url)).toEqual(before);
  });

  it("is documented in the OpenAPI document", async () => {
    const answer = await server.call("GET", "/v1/openapi.json");
    const operation = answer.body.paths["/v1/tools/dry-run"].post;
    expect(operation.tags).toEqual(["dry-run"]);
    const answerRef = operation.responses["200"].content["application/json"].schema.$ref;
    expect(Object.keys(answer.body.components.schemas[answerRef.split("/").pop()].properties)).toEqual([
      "tool",
      "arguments",
      "receipts",
      "context_preview",
      "execution_verified",
    ]);
  });
});
