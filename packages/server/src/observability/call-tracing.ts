/**
 * A tool call's place in the traces. A call lives across many requests, executors and possibly
 * server restarts, so it is not one long span: when a turn creates it, a short `toolhost.tool_call`
 * span (a child of the active context — the run turn that planned it) is emitted and its
 * `traceparent` stored on the call's row (`trace_context`). The spans of the executor's claim and
 * receipt requests, which arrive in the executor's own trace, then LINK to it (and so does the
 * request's server span), as does the `toolhost.tool_call.settled` span emitted when the call
 * settles. The row is the source, so links survive a restart and work on every server instance.
 * See docs/operations.md#traces.
 */

import { context, type Link, type Span, trace } from "@opentelemetry/api";
import type { CallRecord } from "../storage/records.js";
import { requestSpan, toolhostTracer } from "./request-tracing.js";
import { formatTraceparent, parseTraceparent } from "./traceparent.js";

/** The span emitted when a call is created; its context is the call's trace context. */
export const TOOL_CALL_SPAN = "toolhost.tool_call";

/** The span emitted when a call reaches a settled status (final or reconciliation_required). */
export const TOOL_CALL_SETTLED_SPAN = "toolhost.tool_call.settled";

/** The attribute that says what a link points to (`toolhost.tool_call`: the call's creation span). */
export const LINK_KIND_ATTRIBUTE = "toolhost.link";

/** The attributes every call span carries. */
function callAttributes(call: CallRecord): Record<string, string | number> {
  return {
    "toolhost.run_id": call.run_id,
    "toolhost.call_id": call.call_id,
    "toolhost.tool_name": call.tool_name,
    "toolhost.call_status": call.status,
    "toolhost.turn": call.turn,
  };
}

/**
 * Emits each new call's `toolhost.tool_call` span under the active context and answers the calls with
 * its `traceparent` as `trace_context` (null when there is no valid trace context: no SDK and no
 * incoming `traceparent`).
 */
export function traceNewCalls(calls: readonly CallRecord[]): CallRecord[] {
  const tracer = toolhostTracer();
  return calls.map((call) => {
    const span = tracer.startSpan(TOOL_CALL_SPAN, {
      attributes: {
        ...callAttributes(call),
        ...(call.compensates === null ? {} : { "toolhost.compensates": call.compensates }),
      },
    });
    span.end();
    const spanContext = span.spanContext();
    const traceContext = trace.isSpanContextValid(spanContext) ? formatTraceparent(spanContext) : null;
    return { ...call, trace_context: traceContext };
  });
}

/** The link to a call's trace context, or undefined when the call has none (or it is unreadable). */
export function callLink(call: Pick<CallRecord, "trace_context">): Link | undefined {
  const spanContext = parseTraceparent(call.trace_context);
  return spanContext === undefined
    ? undefined
    : { context: spanContext, attributes: { [LINK_KIND_ATTRIBUTE]: TOOL_CALL_SPAN } };
}

/**
 * Links the active span (a claim's or a receipt's) and the request's server span to the call's trace
 * context: the executor's request is in its own trace, the call in the run's.
 */
export function linkActiveSpansToCall(call: Pick<CallRecord, "trace_context">): void {
  const link = callLink(call);
  if (link === undefined) return;
  const spans = new Set<Span>();
  const active = trace.getActiveSpan();
  if (active !== undefined) spans.add(active);
  const server = requestSpan(context.active());
  if (server !== undefined) spans.add(server);
  for (const span of spans) span.addLink(link);
}

/** Emits `toolhost.tool_call.settled` for each call now settled, under the active context, linked to the call. */
export function traceSettledCalls(calls: readonly CallRecord[]): void {
  const tracer = toolhostTracer();
  for (const call of calls) {
    const link = callLink(call);
    const span = tracer.startSpan(TOOL_CALL_SETTLED_SPAN, {
      attributes: {
        ...callAttributes(call),
        ...(call.executor_id === null ? {} : { "toolhost.executor_id": call.executor_id }),
      },
      links: link === undefined ? [] : [link],
    });
    span.end();
  }
}
