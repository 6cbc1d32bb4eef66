/**
 * `@toolhost/runner/otel`: the OpenTelemetry trace SDK started from the standard `OTEL_*` variables,
 * as `toolhost serve` and ToolRunner start it (docs/operations.md#traces).
 */

export {
  type StartTracingOptions,
  startTracingFromEnv,
  TRACING_PACKAGES,
  type TracingHandle,
} from "./start-tracing.js";
export { OTLP_PROTOCOLS, type TracingDecision, tracingFromEnv } from "./tracing-env.js";
