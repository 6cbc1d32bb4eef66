/**
 * W3C Trace Context `traceparent` (version 00), read and written (pure): `00-<32 hex trace ID>-<16 hex
 * parent ID>-<2 hex flags>`. Read here rather than through the OpenTelemetry propagation API, whose
 * global propagator is a no-op until an SDK registers one: the header is honoured in any case.
 */

import { type SpanContext, TraceFlags } from "@opentelemetry/api";

/** The header's name. */
export const TRACEPARENT_HEADER = "traceparent";

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ALL_ZERO = /^0+$/;

/** The remote span context a `traceparent` value names, or undefined when it is absent or invalid. */
export function parseTraceparent(value: unknown): SpanContext | undefined {
  if (typeof value !== "string") return undefined;
  const match = TRACEPARENT.exec(value.trim().toLowerCase());
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  // Version ff is invalid; version 00 has nothing after the flags; later versions may.
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  if (ALL_ZERO.test(traceId) || ALL_ZERO.test(spanId)) return undefined;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16) & TraceFlags.SAMPLED, isRemote: true };
}

/** The `traceparent` value of `span`. */
export function formatTraceparent(span: SpanContext): string {
  const flags = (span.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, "0");
  return `00-${span.traceId}-${span.spanId}-${flags}`;
}
