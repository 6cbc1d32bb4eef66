/**
 * OpenTelemetry spans through `@opentelemetry/api`: a no-op until the process registers an SDK. Each
 * request gets a server span (`HTTP <method> <route>`), a child of the caller's `traceparent` when it
 * sent a valid one, and the answer carries `traceparent` back. The span is made active for the rest of
 * the request (hooks and handler run inside it), so the flows' spans (`toolhost.claim`,
 * `toolhost.receipt`) become its children when a context manager is registered.
 */

import {
  type Context,
  context,
  createContextKey,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { App } from "../http/app.js";
import { routeTemplateOf } from "./route-template.js";
import { formatTraceparent, parseTraceparent, TRACEPARENT_HEADER } from "./traceparent.js";

/** The instrumentation scope of every toolhost span. */
export const TRACER_NAME = "toolhost";

/** The tracer the server's spans come from (the global provider's, a no-op without an SDK). */
export function toolhostTracer() {
  return trace.getTracer(TRACER_NAME);
}

/** Runs `work` inside a new span named `name`, ending it (with an error status when `work` throws). */
export async function inSpan<T>(
  name: string,
  attributes: Record<string, string | number>,
  work: () => Promise<T>,
): Promise<T> {
  return toolhostTracer().startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

const spans = new WeakMap<FastifyRequest, Span>();

// The request's server span, kept in the context beside the active span (which a flow's span replaces).
const REQUEST_SPAN = createContextKey("toolhost.request_span");

/** The server span of the request `ctx` belongs to, if any (flows add links to it). */
export function requestSpan(ctx: Context): Span | undefined {
  return ctx.getValue(REQUEST_SPAN) as Span | undefined;
}

/** Starts a server span per request, honours and answers `traceparent`, ends the span with the status. */
export function installRequestTracing(app: App): void {
  app.addHook("onRequest", (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const remote = parseTraceparent(request.headers[TRACEPARENT_HEADER]);
    const parent = remote === undefined ? context.active() : trace.setSpanContext(context.active(), remote);
    const route = routeTemplateOf(request);
    const span = toolhostTracer().startSpan(
      `HTTP ${request.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: { "http.request.method": request.method, "http.route": route, "toolhost.request_id": request.id },
      },
      parent,
    );
    spans.set(request, span);
    const spanContext = span.spanContext();
    if (trace.isSpanContextValid(spanContext)) reply.header(TRACEPARENT_HEADER, formatTraceparent(spanContext));
    // The rest of the request (later hooks, the handler) runs with the span active.
    context.with(trace.setSpan(parent, span).setValue(REQUEST_SPAN, span), done);
  });
  app.addHook("onResponse", (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const span = spans.get(request);
    if (span !== undefined) {
      span.setAttribute("http.response.status_code", reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });
}
