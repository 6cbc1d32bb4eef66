// The runner's handler span against a real server, with an in-memory exporter for both (they share
// the process): the claim hands over the call's traceparent, so the handler's span is a child of the
// server's `toolhost.tool_call` span in the run's trace, and spans the handler starts are its children.
import { type SpanContext, trace } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { useInMemoryTracing } from "../../server/test/support/in-memory-tracing.js";
import { HANDLER_SPAN } from "../src/index.js";
import { buildWorld, callsOf, eventually, newRunner, startRun, startTestServer } from "./support/server-world.js";

const exporter = useInMemoryTracing();

const forCall = (name: string, callId: string): ReadableSpan[] =>
  exporter.getFinishedSpans().filter((span) => span.name === name && span.attributes["toolhost.call_id"] === callId);

describe.each([
  ["batched", true],
  ["per-call routes", false],
])("the handler's span (%s)", (label, batching) => {
  it("is a child of the call's span in the run's trace; the handler's own spans are its children", async () => {
    const server = await startTestServer();
    const world = await buildWorld(server, [
      { tool_calls: [{ name: "tasks.create", arguments: { title: "Buy milk" } }] },
      { message: "done" },
    ]);
    let seen: SpanContext | undefined;
    const runner = newRunner(world, { executorId: `trace-ex-${batching}`, batching });
    runner.register(
      "tasks.create",
      async () => {
        seen = trace.getActiveSpan()?.spanContext();
        trace.getTracer("product").startActiveSpan("product.insert", (span) => span.end());
        return { task_id: "t-1" };
      },
      { effect: "write" },
    );
    await runner.start();
    const runId = await startRun(world);
    const [call] = await eventually(
      () => callsOf(world, runId),
      (calls) => calls[0]?.status === "completed",
      `the call completes (${label})`,
    );
    await runner.stop();

    const [callSpan] = forCall("toolhost.tool_call", call.call_id);
    const handlerSpans = forCall(HANDLER_SPAN, call.call_id);
    expect(handlerSpans).toHaveLength(1);
    const [handler] = handlerSpans;
    expect(callSpan).toBeDefined();
    expect(handler?.spanContext().traceId).toBe(callSpan?.spanContext().traceId);
    expect(handler?.parentSpanContext?.spanId).toBe(callSpan?.spanContext().spanId);
    expect(handler?.attributes).toMatchObject({
      "toolhost.run_id": runId,
      "toolhost.tool_name": "tasks.create",
      "toolhost.outcome": "completed",
    });
    expect(seen?.spanId).toBe(handler?.spanContext().spanId);
    const [insert] = exporter
      .getFinishedSpans()
      .filter((span) => span.name === "product.insert" && span.parentSpanContext?.spanId === seen?.spanId);
    expect(insert?.spanContext().traceId).toBe(callSpan?.spanContext().traceId);
  });
});
