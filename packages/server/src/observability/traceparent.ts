/**
 * W3C Trace Context `traceparent` as OpenTelemetry span contexts. Read here (through the protocol's
 * pure reader) rather than through the OpenTelemetry propagation API, whose global propagator is a
 * no-op until an SDK registers one: the header is honoured in any case.
 */

import { type SpanContext, TraceFlags } from "@opentelemetry/api";
import { readTraceparent, writeTraceparent } from "@toolhost/protocol";

/** The header's name. */
export const TRACEPARENT_HEADER = "traceparent";

/** The remote span context a `traceparent` value names, or undefined when it is absent or invalid. */
export function parseTraceparent(value: unknown): SpanContext | undefined {
  const parts = readTraceparent(value);
  if (parts === undefined) return undefined;
  return {
    traceId: parts.traceId,
    spanId: parts.spanId,
    traceFlags: parts.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
  };
}

/** The `traceparent` value of `span`. */
export function formatTraceparent(span: SpanContext): string {
  return writeTraceparent({
    traceId: span.traceId,
    spanId: span.spanId,
    sampled: (span.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED,
  });
}
