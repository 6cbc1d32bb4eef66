// Regex and schema bombs over real HTTP, on both dialects: a catastrophic pattern checked by a
// dry-run and by a run's model call answers at once while /v1/health stays answered, the issue's
// 5,000-property schema is refused naming the property limit (nothing stored), and a schema at the
// limits is created and checked without holding the event loop.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { SCHEMA_LIMITS, VALIDATION_WORK_BUDGET } from "@toolhost/protocol";
import { beforeAll, describe, expect, it } from "vitest";
import { type Published, publishAgent } from "../dryrun/dry-run-fixtures.js";
import { BOOTSTRAP_SECRET, startTestServer, type TestServer } from "../http/http-harness.js";
import { describeEachDialect } from "../support/test-databases.js";
import { admin, createBinding, expectError } from "./config-fixtures.js";

/** "Did not hang" bounds: generous, far below the 21 s one such check held the loop before. */
const DID_NOT_HANG_MS = 3_000;

/** The tool: a `pattern` that backtracks exponentially on a near-match. */
const BOMB_TOOL = {
  name: "bomb",
  input_schema: { type: "object", properties: { x: { type: "string", pattern: "^(a+)+$" } } },
};
/** The argument: 21 s on the event loop with a backtracking engine. */
const BOMB_ARGUMENT = `${"a".repeat(28)}!`;

/** The slowest delay of the event loop (ms) while `work` runs, how long `work` took (ms), and its result. */
async function loopDelayDuring<T>(work: () => Promise<T>): Promise<{ value: T; maxDelayMs: number; tookMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const started = performance.now();
  try {
    const value = await work();
    return { value, maxDelayMs: histogram.max / 1e6, tookMs: performance.now() - started };
  } finally {
    histogram.disable();
  }
}

/** Sends GET /v1/health while `request` is in flight; answers both, with how long health took (ms). */
async function withHealth<T>(server: TestServer, request: Promise<T>) {
  const started = performance.now();
  const health = server.call("GET", "/v1/health").then((answer) => ({ answer, ms: performance.now() - started }));
  const [value, healthAnswer] = await Promise.all([request, health]);
  return { value, health: healthAnswer };
}

describeEachDialect("regex and schema bombs", (dialect) => {
  let server: TestServer;
  let bomb: Published;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    bomb = await publishAgent(server, [BOMB_TOOL]);
  });

  it("dry-runs the issue's catastrophic argument at once, and health answers meanwhile", async () => {
    const { value, maxDelayMs } = await loopDelayDuring(() =>
      withHealth(
        server,
        server.call("POST", "/v1/tools/dry-run", {
          ...admin,
          body: { agent_version: bomb.agentVersion, tool_name: "bomb", arguments: { x: BOMB_ARGUMENT } },
        }),
      ),
    );
    expect(value.value.status, value.value.text).toBe(200);
    expect(value.value.body.arguments).toEqual({
      valid: false,
      errors: [{ pointer: "/x", message: 'must match pattern "^(a+)+$"' }],
    });
    expect(value.health.answer.status).toBe(200);
    expect(value.health.ms).toBeLessThan(DID_NOT_HANG_MS);
    expect(maxDelayMs).toBeLessThan(DID_NOT_HANG_MS);
  });

  it("checks a run's model call against the catastrophic pattern at once", async () => {
    const bindingId = await createBinding(server);
    const toolset = await server.call("POST", "/v1/toolsets", {
      ...admin,
      body: { name: "bomb toolset", tools: [{ ...BOMB_TOOL, binding_id: bindingId }] },
    });
    expect(toolset.status, toolset.text).toBe(201);
    const model = {
      provider: "scripted",
      script: [{ tool_calls: [{ name: "bomb", arguments: { x: BOMB_ARGUMENT } }] }, { message: "done" }],
    };
    const agent = await server.call("POST", "/v1/agents", { ...admin, body: { name: "bomb agent" } });
    const version = await server.call("POST", `/v1/agents/${agent.body.agent_id}/versions`, {
      ...admin,
      body: { toolset_id: toolset.body.toolset_id, toolset_version: 1, model },
    });
    expect(version.status, version.text).toBe(201);
    const session = await server.call("POST", "/v1/sessions", {
      ...admin,
      body: { agent_version: version.body.agent_version, subject: "user-1" },
    });
    const { value, maxDelayMs } = await loopDelayDuring(() =>
      withHealth(
        server,
        server.call("POST", `/v1/sessions/${session.body.session_id}/runs`, { ...admin, body: { input: "go" } }),
      ),
    );
    expect(value.value.status, value.value.text).toBe(201);
    expect(value.value.body).toMatchObject({ status: "completed", output: "done" });
    expect(value.health.answer.status).toBe(200);
    expect(value.health.ms).toBeLessThan(DID_NOT_HANG_MS);
    expect(maxDelayMs).toBeLessThan(DID_NOT_HANG_MS);
    const calls = await server.call("GET", `/v1/runs/${value.value.body.run_id}/tool-calls`, admin);
    expect(calls.body.data.map((call: { status: string; rejected: string }) => [call.status, call.rejected])).toEqual([
      ["failed", "invalid_arguments"],
    ]);
  });

  it("checks a model turn of 64 calls that each spend the whole work budget, one call per turn of the event loop", async () => {
    // Thirty anyOf levels, each referencing the next twice: every check spends the whole budget.
    const $defs: Record<string, unknown> = { d30: { type: "string" } };
    for (let k = 0; k < 30; k++) {
      $defs[`d${k}`] = { anyOf: [{ $ref: `#/$defs/d${k + 1}` }, { $ref: `#/$defs/d${k + 1}`, minimum: 1 }] };
    }
    const bindingId = await createBinding(server);
    const toolset = await server.call("POST", "/v1/toolsets", {
      ...admin,
      body: {
        name: "doubling",
        tools: [
          {
            name: "doubling",
            binding_id: bindingId,
            input_schema: { type: "object", properties: { x: { $ref: "#/$defs/d0" } }, $defs },
          },
        ],
      },
    });
    expect(toolset.status, toolset.text).toBe(201);
    const calls = Array.from({ length: 64 }, () => ({ name: "doubling", arguments: { x: 5 } }));
    const model = { provider: "scripted", script: [{ tool_calls: calls }, { message: "done" }] };
    const agent = await server.call("POST", "/v1/agents", { ...admin, body: { name: "doubling agent" } });
    const version = await server.call("POST", `/v1/agents/${agent.body.agent_id}/versions`, {
      ...admin,
      body: { toolset_id: toolset.body.toolset_id, toolset_version: 1, model },
    });
    expect(version.status, version.text).toBe(201);
    const session = await server.call("POST", "/v1/sessions", {
      ...admin,
      body: { agent_version: version.body.agent_version, subject: "user-1" },
    });
    const { value, maxDelayMs, tookMs } = await loopDelayDuring(() =>
      withHealth(
        server,
        server.call("POST", `/v1/sessions/${session.body.session_id}/runs`, { ...admin, body: { input: "go" } }),
      ),
    );
    expect(value.value.status, value.value.text).toBe(201);
    expect(value.value.body).toMatchObject({ status: "completed", output: "done" });
    expect(value.health.answer.status).toBe(200);
    // One check per turn: no single hold near the sum of 64 (checked in one go, it held for all of them).
    expect(maxDelayMs).toBeLessThan(tookMs / 4);
    const history = await server.call("GET", `/v1/runs/${value.value.body.run_id}/history?limit=200`, admin);
    const results = history.body.data.filter((item: { type: string }) => item.type === "tool_result");
    expect(results).toHaveLength(64);
    expect(results[0].context_preview.result.error.errors).toEqual([
      { pointer: "", message: expect.stringContaining(String(VALIDATION_WORK_BUDGET)) },
    ]);
  });

  it("refuses the issue's 5,000-property schema with 422 naming the property limit, storing nothing", async () => {
    const bindingId = await createBinding(server);
    const before = await server.call("GET", "/v1/toolsets?limit=200", admin);
    const properties = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`p${i}`, { type: "string" }]));
    const { value: answer, maxDelayMs } = await loopDelayDuring(() =>
      server.call("POST", "/v1/toolsets", {
        key: BOOTSTRAP_SECRET,
        body: {
          name: "huge",
          tools: [{ name: "huge", binding_id: bindingId, input_schema: { type: "object", properties } }],
        },
      }),
    );
    expectError(answer, 422, "schema_too_large", "/tools/0/input_schema/properties");
    expect(answer.body.error.details).toEqual({
      field: "input_schema",
      limit: "properties",
      max: SCHEMA_LIMITS.properties,
      value: 5_000,
    });
    expect(maxDelayMs).toBeLessThan(DID_NOT_HANG_MS);
    expect((await server.call("GET", "/v1/toolsets?limit=200", admin)).body).toEqual(before.body);
  });

  it("refuses a lookahead pattern at its pointer, saying why", async () => {
    const bindingId = await createBinding(server);
    const answer = await server.call("POST", "/v1/toolsets", {
      ...admin,
      body: {
        name: "lookahead",
        tools: [
          {
            name: "t",
            binding_id: bindingId,
            input_schema: { type: "object", properties: { x: { type: "string", pattern: "^(?=a)a$" } } },
          },
        ],
      },
    });
    expectError(answer, 422, "invalid_schema", "/tools/0/input_schema/properties/x/pattern");
    expect(answer.body.error.message).toContain("lookahead");
  });

  describe("a schema at the limits", () => {
    // As many properties, subschemas and patterns as allowed.
    const properties = Object.fromEntries(
      Array.from({ length: SCHEMA_LIMITS.properties }, (_, i) => [
        `p${i}`,
        i < SCHEMA_LIMITS.patterns ? { type: "string", pattern: `^(a+)+${i}$` } : { type: "string", maxLength: 9 },
      ]),
    );
    // The rest of the subschemas: two each (the member and its `not`).
    const allOf = Array.from(
      { length: Math.floor((SCHEMA_LIMITS.subschemas - 1 - SCHEMA_LIMITS.properties) / 2) },
      (_, i) => ({
        not: { required: [`q${i}`] },
      }),
    );
    // The dialect in the text: both dialects run in one process, and compiled schemas are cached by text.
    const schema = {
      type: "object",
      description: `at the limits (${dialect})`,
      properties,
      allOf,
      required: ["p0"],
      additionalProperties: false,
    };

    it("is created, dry-run and refused-as-invalid without holding the event loop", async () => {
      const { value: agent, maxDelayMs: createDelayMs } = await loopDelayDuring(() =>
        publishAgent(server, [{ name: "wide", input_schema: schema }]),
      );
      expect(createDelayMs).toBeLessThan(DID_NOT_HANG_MS);
      const args = Object.fromEntries(Object.keys(properties).map((key) => [key, `${"a".repeat(5_000)}!`]));
      const { value: answer, maxDelayMs: checkDelayMs } = await loopDelayDuring(() =>
        server.call("POST", "/v1/tools/dry-run", {
          ...admin,
          body: { agent_version: agent.agentVersion, tool_name: "wide", arguments: args },
        }),
      );
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.arguments.valid).toBe(false);
      expect(checkDelayMs).toBeLessThan(DID_NOT_HANG_MS);
    });

    it("is created 40 times in one toolset, one compile per turn of the event loop, while health answers", async () => {
      const bindingId = await createBinding(server);
      const tools = Array.from({ length: 40 }, (_, i) => ({
        name: `wide${i}`,
        binding_id: bindingId,
        // A distinct text per tool, so no compile is served from the cache.
        input_schema: { ...schema, description: `tool ${i} (${dialect})` },
      }));
      const { value, maxDelayMs, tookMs } = await loopDelayDuring(() =>
        withHealth(server, server.call("POST", "/v1/toolsets", { ...admin, body: { name: "wide", tools } })),
      );
      expect(value.value.status, value.value.text).toBe(201);
      expect(value.health.answer.status).toBe(200);
      expect(value.health.ms).toBeLessThan(DID_NOT_HANG_MS);
      // One compile per turn: no single hold near the sum of 40 (compiled in one go, it held for all of them).
      expect(maxDelayMs).toBeLessThan(Math.min(DID_NOT_HANG_MS, tookMs / 4));
    });
  });
});
