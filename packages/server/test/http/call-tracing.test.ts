// A tool call in the traces, with an in-memory exporter: the call's `toolhost.tool_call` span is a
// child of the run turn that planned it (in the run's trace); the executor's claim and receipt
// requests, in the executor's own trace, link to it, and so does `toolhost.tool_call.settled`. The
// call's trace context is stored with the call, so the links survive a restart of the server.
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { beforeAll, expect, it } from "vitest";
import { parseTraceparent } from "../../src/observability/traceparent.js";
import {
  admin,
  buildWorld,
  connect,
  eventually,
  expectStatus,
  type Held,
  listCalls,
  type World,
} from "../calls/calls-harness.js";
import { type RestartableServer, startRestartableServer } from "../calls/restartable-server.js";
import { startFakeModelServer } from "../models/fake-model-server.js";
import {
  buildModelWorld,
  openAiModel,
  pendingCalls,
  startModelRun,
  startModelServer,
} from "../models/model-harness.js";
import { useInMemoryTracing } from "../support/in-memory-tracing.js";
import { describeEachDialect } from "../support/test-databases.js";

const exporter = useInMemoryTracing();

const RUN_TRACE = "0af7651916cd43dd8448eb211c80319c";
const RUN_CALLER = "b7ad6b7169203331";
const EXECUTOR_TRACE = "5b8efff798038103d269b633813fc60c";
const EXECUTOR_SPAN = "eee19b7ec3c1b174";
const executorTraceparent = `00-${EXECUTOR_TRACE}-${EXECUTOR_SPAN}-01`;

const named = (name: string): ReadableSpan[] => exporter.getFinishedSpans().filter((span) => span.name === name);
const only = (name: string, callId: string): ReadableSpan => {
  const spans = named(name).filter((span) => span.attributes["toolhost.call_id"] === callId);
  expect(spans.map((span) => span.name)).toEqual([name]);
  return spans[0] as ReadableSpan;
};
/** The links of `span` to a call's creation span, as `trace-span` strings. */
const callLinks = (span: ReadableSpan | undefined): string[] =>
  (span?.links ?? [])
    .filter((link) => link.attributes?.["toolhost.link"] === "toolhost.tool_call")
    .map((link) => `${link.context.traceId}-${link.context.spanId}`);
/** The server spans of `route`, once `count` of them ended (a server span ends after its answer was sent). */
const serverSpans = (route: string, count: number): Promise<ReadableSpan[]> =>
  eventually(
    async () => named(`HTTP ${route}`),
    (spans) => spans.length >= count,
    `${count} ${route} span(s) end`,
  );
const idOf = (span: ReadableSpan): string => `${span.spanContext().traceId}-${span.spanContext().spanId}`;

describeEachDialect("tool call tracing", (dialect) => {
  let server: RestartableServer;
  let world: World;
  beforeAll(async () => {
    server = await startRestartableServer(dialect);
    world = await buildWorld(server, [
      { tool_calls: [{ name: "tasks.write", arguments: { title: "t" } }] },
      { message: "done" },
    ]);
  });

  /** Starts a run in the run's trace and answers its ID and its one call's ID. */
  const startTracedRun = async (): Promise<{ runId: string; callId: string }> => {
    const started = await server.call("POST", `/v1/sessions/${world.sessionId}/runs`, {
      ...admin,
      body: { input: { ask: "go" } },
      headers: { traceparent: `00-${RUN_TRACE}-${RUN_CALLER}-01` },
    });
    const runId = expectStatus(started, 201).run_id as string;
    const [call] = await listCalls(server, runId);
    return { runId, callId: call.call_id as string };
  };

  /** Claims the call in the executor's trace; answers the claim and the `traceparent` its candidate and answer named. */
  const claimInExecutorTrace = async (
    runId: string,
    callId: string,
    executorId: string,
  ): Promise<Held & { candidateTraceparent: unknown; claimTraceparent: unknown }> => {
    const executor = await connect(server, world, executorId);
    const pending = await server.call(
      "GET",
      `/v1/executors/${executorId}/pending?connection_id=${executor.connection_id}&limit=200`,
      { key: world.executorKey },
    );
    const candidate = (expectStatus(pending, 200).data as Array<Record<string, unknown>>).find(
      (item) => item.call_id === callId,
    );
    const answer = await server.call("POST", `/v1/runs/${runId}/tool-calls/${callId}/claim`, {
      key: world.executorKey,
      body: { executor_id: executor.executor_id, connection_id: executor.connection_id },
      headers: { traceparent: executorTraceparent },
    });
    const body = expectStatus(answer, 200);
    expect(parseTraceparent(answer.headers.get("traceparent"))?.traceId).toBe(EXECUTOR_TRACE);
    return {
      runId,
      callId,
      executorId,
      claimId: body.claim_id,
      grant: body.grant,
      candidateTraceparent: candidate?.traceparent,
      claimTraceparent: body.call.traceparent,
    };
  };
  /** The `traceparent` of a span's context (sampled). */
  const traceparentOf = (span: ReadableSpan): string =>
    `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;

  it("puts the call under its run turn and links the executor's claim and receipts to it", async () => {
    exporter.reset();
    const { runId, callId } = await startTracedRun();

    // The run's trace: the caller → HTTP → toolhost.run_turn → toolhost.tool_call.
    const [runHttp] = await serverSpans("POST /v1/sessions/:session_id/runs", 1);
    const turn = named("toolhost.run_turn").find((span) => span.attributes["toolhost.run_id"] === runId);
    const callSpan = only("toolhost.tool_call", callId);
    expect(runHttp?.spanContext().traceId).toBe(RUN_TRACE);
    expect(turn?.parentSpanContext?.spanId).toBe(runHttp?.spanContext().spanId);
    expect(turn?.attributes["toolhost.turn"]).toBe(0);
    expect(callSpan.spanContext().traceId).toBe(RUN_TRACE);
    expect(callSpan.parentSpanContext?.spanId).toBe(turn?.spanContext().spanId);
    expect(callSpan.attributes).toMatchObject({
      "toolhost.run_id": runId,
      "toolhost.call_id": callId,
      "toolhost.tool_name": "tasks.write",
      "toolhost.call_status": "pending",
    });
    const callContext = idOf(callSpan);

    // The claim, in the executor's trace, links to the call (its server span and its claim span).
    exporter.reset();
    const held = await claimInExecutorTrace(runId, callId, `ct-ex-${dialect}`);
    const [claimHttp] = await serverSpans("POST /v1/runs/:run_id/tool-calls/:call_id/claim", 1);
    const claimSpan = only("toolhost.claim", callId);
    expect(claimHttp?.spanContext().traceId).toBe(EXECUTOR_TRACE);
    expect(claimHttp?.parentSpanContext?.spanId).toBe(EXECUTOR_SPAN);
    expect(callLinks(claimHttp)).toEqual([callContext]);
    expect(callLinks(claimSpan)).toEqual([callContext]);
    // The candidate and the claim answer name the call's context, for the executor's handler span.
    expect(held.candidateTraceparent).toBe(traceparentOf(callSpan));
    expect(held.claimTraceparent).toBe(traceparentOf(callSpan));

    // The receipts link too; the final one settles the call: a settled span, linked, with the status.
    exporter.reset();
    for (const fields of [
      { receipt_id: "a", kind: "accepted" },
      { receipt_id: "f", kind: "completed", result: { ok: true } },
    ]) {
      const answer = await server.call("POST", `/v1/runs/${runId}/tool-calls/${callId}/receipts`, {
        key: world.executorKey,
        body: { executor_id: held.executorId, claim_id: held.claimId, grant: held.grant, ...fields },
        headers: { traceparent: executorTraceparent },
      });
      expectStatus(answer, 200);
    }
    const receipts = named("toolhost.receipt");
    expect(
      receipts.map((span) => [span.attributes["toolhost.receipt_kind"], span.attributes["toolhost.call_status"]]),
    ).toEqual([
      ["accepted", "accepted"],
      ["completed", "completed"],
    ]);
    const receiptHttp = await serverSpans("POST /v1/runs/:run_id/tool-calls/:call_id/receipts", 2);
    expect(receiptHttp).toHaveLength(2);
    for (const span of [...receipts, ...receiptHttp]) {
      expect(span.spanContext().traceId).toBe(EXECUTOR_TRACE);
      expect(callLinks(span)).toEqual([callContext]);
    }
    const settled = only("toolhost.tool_call.settled", callId);
    expect(settled.attributes["toolhost.call_status"]).toBe("completed");
    expect(settled.attributes["toolhost.executor_id"]).toBe(held.executorId);
    expect(settled.parentSpanContext?.spanId).toBe(receipts[1]?.spanContext().spanId);
    expect(callLinks(settled)).toEqual([callContext]);
  });

  it("keeps the call's trace context across a server restart", async () => {
    exporter.reset();
    const { runId, callId } = await startTracedRun();
    const callSpan = only("toolhost.tool_call", callId);
    const callContext = idOf(callSpan);

    await server.restart();
    exporter.reset();
    const held = await claimInExecutorTrace(runId, callId, `ct-restart-${dialect}`);
    expect(held.claimTraceparent).toBe(traceparentOf(callSpan));
    expect(callLinks(only("toolhost.claim", callId))).toEqual([callContext]);
    const [claimHttp] = await serverSpans("POST /v1/runs/:run_id/tool-calls/:call_id/claim", 1);
    expect(callLinks(claimHttp)).toEqual([callContext]);

    // Settled by the deadline sweep (no request): the settled span still links to the call.
    server.clock.advance(600_001);
    await eventually(
      () => listCalls(server, runId),
      (calls) => calls[0]?.status === "expired",
      "the claimed, unaccepted call expires",
    );
    const settled = only("toolhost.tool_call.settled", callId);
    expect(settled.attributes["toolhost.call_status"]).toBe("expired");
    expect(callLinks(settled)).toEqual([callContext]);
  });
});

describeEachDialect("tool call tracing with a model provider", (dialect) => {
  it("puts the call under the run driver's turn, beside the turn's model request", async () => {
    const fake = await startFakeModelServer();
    fake.push({ kind: "tool_calls", calls: [{ name: "tasks_create", arguments: { title: "Buy milk" } }] });
    const server = await startModelServer(dialect, { fakeUrl: fake.url });
    const world = await buildModelWorld(server, openAiModel());
    exporter.reset();
    const runId = await startModelRun(server, world);
    const [call] = await pendingCalls(server, runId, 1);
    const callSpan = only("toolhost.tool_call", String(call?.call_id));
    // The turn's span ends after its commit, which the calls become visible at: wait for it.
    const turn = await eventually(
      async () => named("toolhost.run_turn").find((span) => span.attributes["toolhost.run_id"] === runId),
      (span) => span !== undefined,
      "the run driver's turn span ends",
    );
    const request = named("toolhost.model_request").find((span) => span.attributes["toolhost.run_id"] === runId);
    expect(turn?.parentSpanContext).toBeUndefined();
    expect(callSpan.spanContext().traceId).toBe(turn?.spanContext().traceId);
    expect(callSpan.parentSpanContext?.spanId).toBe(turn?.spanContext().spanId);
    expect(request?.parentSpanContext?.spanId).toBe(turn?.spanContext().spanId);
    expect(callSpan.attributes["toolhost.tool_name"]).toBe("tasks.create");
  }, 60_000);
});
