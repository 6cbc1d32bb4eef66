// W3C traceparent in and out, and the OpenTelemetry spans' parentage, with an in-memory exporter:
// the caller's span → HTTP server span → toolhost.claim / toolhost.receipt.
import { beforeAll, expect, it } from "vitest";
import { parseTraceparent } from "../../src/observability/traceparent.js";
import {
  buildWorld,
  type ClockedServer,
  connect,
  eventually,
  expectStatus,
  listCalls,
  receipt,
  startClockedServer,
  startRun,
  type World,
} from "../calls/calls-harness.js";
import { useInMemoryTracing } from "../support/in-memory-tracing.js";
import { describeEachDialect } from "../support/test-databases.js";

const exporter = useInMemoryTracing();

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";

// Which values are valid is the protocol's reader's (packages/protocol/test/traceparent.test.ts).
it("reads a traceparent as a remote span context", () => {
  expect(parseTraceparent(`00-${TRACE_ID}-${CALLER_SPAN}-01`)).toEqual({
    traceId: TRACE_ID,
    spanId: CALLER_SPAN,
    traceFlags: 1,
    isRemote: true,
  });
  expect(parseTraceparent(`00-${TRACE_ID}-${CALLER_SPAN}-00`)?.traceFlags).toBe(0);
  expect(parseTraceparent(`00-${TRACE_ID}-${"0".repeat(16)}-01`)).toBeUndefined();
});

describeEachDialect("tracing", (dialect) => {
  let server: ClockedServer;
  let world: World;
  beforeAll(async () => {
    server = await startClockedServer(dialect);
    world = await buildWorld(server, [
      { tool_calls: [{ name: "tasks.write", arguments: { title: "t" } }] },
      { message: "done" },
    ]);
  });

  it("continues the caller's trace: HTTP span under the caller, claim and receipt spans under their HTTP spans", async () => {
    const runId = await startRun(server, world);
    const [call] = await listCalls(server, runId);
    const executor = await connect(server, world, `tr-ex-${dialect}`);
    exporter.reset();
    const traceparent = `00-${TRACE_ID}-${CALLER_SPAN}-01`;
    const claimed = await server.call("POST", `/v1/runs/${runId}/tool-calls/${call.call_id}/claim`, {
      key: world.executorKey,
      body: { executor_id: executor.executor_id, connection_id: executor.connection_id },
      headers: { traceparent },
    });
    const body = expectStatus(claimed, 200);
    const answered = parseTraceparent(claimed.headers.get("traceparent"));
    expect(answered?.traceId).toBe(TRACE_ID);
    expect(answered?.spanId).not.toBe(CALLER_SPAN);
    const held = {
      runId,
      callId: call.call_id,
      executorId: executor.executor_id,
      claimId: body.claim_id,
      grant: body.grant,
    };
    expectStatus(await receipt(server, world, held, { receipt_id: "a", kind: "accepted" }), 200);

    // A server span ends after its answer was sent: wait for the claim's and the receipt's.
    const receiptRoute = "HTTP POST /v1/runs/:run_id/tool-calls/:call_id/receipts";
    const claimRoute = "HTTP POST /v1/runs/:run_id/tool-calls/:call_id/claim";
    const spans = await eventually(
      async () => exporter.getFinishedSpans(),
      (finished) => [claimRoute, receiptRoute].every((route) => finished.some((span) => span.name === route)),
      "the claim's and the receipt's server spans end",
    );
    const named = (name: string) => spans.filter((span) => span.name === name);
    const [claimHttp] = named(claimRoute);
    const [claimSpan] = named("toolhost.claim");
    expect(claimHttp?.spanContext().traceId).toBe(TRACE_ID);
    expect(claimHttp?.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    expect(claimHttp?.spanContext().spanId).toBe(answered?.spanId);
    expect(claimHttp?.attributes["http.response.status_code"]).toBe(200);
    expect(claimSpan?.parentSpanContext?.spanId).toBe(claimHttp?.spanContext().spanId);
    expect(claimSpan?.attributes["toolhost.call_id"]).toBe(call.call_id);

    // The receipt came without a traceparent: a new trace, its receipt span under its HTTP span.
    const [receiptHttp] = named(receiptRoute);
    const [receiptSpan] = named("toolhost.receipt");
    expect(receiptHttp?.parentSpanContext).toBeUndefined();
    expect(receiptHttp?.spanContext().traceId).not.toBe(TRACE_ID);
    expect(receiptSpan?.parentSpanContext?.spanId).toBe(receiptHttp?.spanContext().spanId);
    expect(receiptSpan?.spanContext().traceId).toBe(receiptHttp?.spanContext().traceId);
  });

  it("ignores an invalid traceparent (a new trace)", async () => {
    exporter.reset();
    const answer = await server.call("GET", "/v1/health", { headers: { traceparent: "00-nonsense" } });
    expect(answer.status).toBe(200);
    const [span] = await eventually(
      async () => exporter.getFinishedSpans().filter((s) => s.name === "HTTP GET /v1/health"),
      (found) => found.length > 0,
      "the health request's server span ends",
    );
    expect(span?.parentSpanContext).toBeUndefined();
    expect(parseTraceparent(answer.headers.get("traceparent"))?.traceId).toBe(span?.spanContext().traceId);
  });
});
