/**
 * W3C Trace Context `traceparent` (version 00), read and written (pure): `00-<32 hex trace ID>-<16 hex
 * parent ID>-<2 hex flags>`. The server reads callers' headers with it, and the runner the call's
 * `traceparent` the claim answer carries (docs/operations.md#traces); both turn it into an
 * OpenTelemetry span context.
 */

/** The parts of a valid `traceparent`. */
export interface TraceparentParts {
  /** 32 lowercase hex digits, not all zero. */
  readonly traceId: string;
  /** 16 lowercase hex digits, not all zero: the parent span. */
  readonly spanId: string;
  /** The `sampled` flag. */
  readonly sampled: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ALL_ZERO = /^0+$/;

/** The parts of a `traceparent` value, or undefined when it is absent or invalid. */
export function readTraceparent(value: unknown): TraceparentParts | undefined {
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
  return { traceId, spanId, sampled: (Number.parseInt(flags, 16) & 1) === 1 };
}

/** The version-00 `traceparent` value of `parts`. */
export function writeTraceparent(parts: TraceparentParts): string {
  return `00-${parts.traceId}-${parts.spanId}-${parts.sampled ? "01" : "00"}`;
}
