/**
 * The OpenTelemetry span of a handler invocation, through `@opentelemetry/api` (a no-op until the
 * product registers an SDK). Its parent is the call's `traceparent` from the claim answer — the
 * server's `toolhost.tool_call` span in the trace of the run that planned the call — so the handler's
 * work (and any span the handler starts: the span is active while it runs) appears in the run's trace.
 * A call without a `traceparent` gets a span under whatever context is active. See docs/operations.md#traces.
 */

import { type Context, context, type Span, SpanKind, SpanStatusCode, TraceFlags, trace } from "@opentelemetry/api";
import { readTraceparent } from "@toolhost/protocol";
import type { ToolCall } from "./tool-call.js";

/** The instrumentation scope of the runner's spans. */
export const RUNNER_TRACER_NAME = "toolhost-runner";

/** The span of one handler invocation. */
export const HANDLER_SPAN = "toolhost.runner.handler";

/** The context the handler's span starts in: the call's trace context when it has a valid one. */
function parentOf(call: ToolCall): Context {
  const parts = readTraceparent(call.traceparent);
  if (parts === undefined) return context.active();
  return trace.setSpanContext(context.active(), {
    traceId: parts.traceId,
    spanId: parts.spanId,
    traceFlags: parts.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
  });
}

/** A handler invocation's span: started before the handler, ended with the outcome the runner decided. */
export class HandlerSpan {
  private constructor(
    private readonly span: Span,
    private readonly active: Context,
  ) {}

  /** Starts the span of `call`'s handler. */
  static start(call: ToolCall): HandlerSpan {
    const parent = parentOf(call);
    const span = trace.getTracer(RUNNER_TRACER_NAME).startSpan(
      HANDLER_SPAN,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          "toolhost.run_id": call.runId,
          "toolhost.call_id": call.callId,
          "toolhost.tool_name": call.toolName,
          "toolhost.effect": call.effect,
          "toolhost.claim_id": call.claimId,
        },
      },
      parent,
    );
    return new HandlerSpan(span, trace.setSpan(parent, span));
  }

  /** Runs `work` (the handler) with the span active, so the handler's own spans are its children. */
  run<T>(work: () => T): T {
    return context.with(this.active, work);
  }

  /** Ends the span with the outcome (`completed`, `failed`, `deferred`, …) and the handler's error, if it threw. */
  end(outcome: string, thrown?: { error: unknown }): void {
    this.span.setAttribute("toolhost.outcome", outcome);
    if (thrown !== undefined) {
      const { error } = thrown;
      if (error instanceof Error) this.span.recordException(error);
      this.span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
    }
    this.span.end();
  }
}
