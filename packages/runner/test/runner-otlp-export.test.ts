// A ToolRunner started with OTEL_EXPORTER_OTLP_ENDPOINT in its environment starts the trace SDK
// itself: its handler span reaches a local OTLP/HTTP listener (JSON) by the time stop() resolves,
// with the service name from OTEL_SERVICE_NAME, in the trace of the server's call span (server and
// runner share this process, so they share the SDK the runner started).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OtlpListener, startOtlpListener } from "../../server/test/support/otlp-listener.js";
import { HANDLER_SPAN } from "../src/index.js";
import { buildWorld, callsOf, eventually, newRunner, startRun, startTestServer } from "./support/server-world.js";

let listener: OtlpListener;
const VARIABLES = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_SERVICE_NAME"] as const;
beforeAll(async () => {
  listener = await startOtlpListener();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = listener.url;
  process.env.OTEL_EXPORTER_OTLP_PROTOCOL = "http/json";
  process.env.OTEL_SERVICE_NAME = "orders-executor";
});
afterAll(async () => {
  for (const name of VARIABLES) delete process.env[name];
  await listener.close();
});

describe("the runner with OTEL_* variables", () => {
  it("exports its handler span over OTLP/HTTP before stop() resolves", async () => {
    const server = await startTestServer();
    const world = await buildWorld(server, [
      { tool_calls: [{ name: "tasks.create", arguments: { title: "Buy milk" } }] },
      { message: "done" },
    ]);
    const runner = newRunner(world, { executorId: "otlp-ex-1" });
    runner.register("tasks.create", async () => ({ task_id: "t-1" }), { effect: "write" });
    await runner.start();
    const runId = await startRun(world);
    const [call] = await eventually(
      () => callsOf(world, runId),
      (calls) => calls[0]?.status === "completed",
      "the call completes",
    );
    await runner.stop();
    const spans = listener.jsonSpans();
    const handler = spans.find((span) => span.name === HANDLER_SPAN);
    expect(handler, JSON.stringify(spans.map((span) => span.name))).toBeDefined();
    expect(handler?.attributes).toMatchObject({ "toolhost.call_id": call.call_id, "toolhost.outcome": "completed" });
    expect(handler?.resource).toMatchObject({ "service.name": "orders-executor" });
    expect(spans.some((span) => span.name === "toolhost.tool_call")).toBe(true);
    await server.close();
  });
});
