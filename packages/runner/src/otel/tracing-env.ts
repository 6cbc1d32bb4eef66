/**
 * Which trace export the standard OpenTelemetry environment variables ask for (pure: it reads the
 * record it is given). Tracing is on when `OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set, or `OTEL_TRACES_EXPORTER` names `otlp`;
 * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` turns it off. The OTLP protocol is
 * `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`, else `http/protobuf` (the
 * specification's default). See docs/operations.md#traces.
 */

/** What the environment asks for. */
export type TracingDecision =
  | { readonly kind: "off" }
  | { readonly kind: "otlp"; readonly protocol: "http/protobuf" | "http/json" }
  /** Asked for, but not something toolhost can export: said once, then tracing stays off. */
  | { readonly kind: "unsupported"; readonly problem: string };

/** The OTLP protocols toolhost exports with (OTLP over HTTP; gRPC is not bundled). */
export const OTLP_PROTOCOLS = ["http/protobuf", "http/json"] as const;

/** The variable is set to something other than blanks. */
function present(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== "";
}

/** Reads `env` (usually `process.env`) into a decision. */
export function tracingFromEnv(env: Readonly<Record<string, string | undefined>>): TracingDecision {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return { kind: "off" };
  const exporters = present(env.OTEL_TRACES_EXPORTER)
    ? env.OTEL_TRACES_EXPORTER.split(",").map((name) => name.trim().toLowerCase())
    : [];
  if (exporters.includes("none")) return { kind: "off" };
  const endpoint = present(env.OTEL_EXPORTER_OTLP_ENDPOINT) || present(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  // Other exporters (console, zipkin, …) are not bundled: `console` would write spans on standard
  // output, which `toolhost serve` keeps for its URL.
  const unknown = exporters.filter((name) => name !== "otlp");
  if (unknown.length > 0) {
    return { kind: "unsupported", problem: `OTEL_TRACES_EXPORTER=${unknown.join(",")} is not supported (otlp, none)` };
  }
  if (!endpoint && !exporters.includes("otlp")) return { kind: "off" };
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "").trim();
  if (protocol === "") return { kind: "otlp", protocol: "http/protobuf" };
  if (protocol === "http/protobuf" || protocol === "http/json") return { kind: "otlp", protocol };
  return {
    kind: "unsupported",
    problem: `OTLP protocol ${JSON.stringify(protocol)} is not supported (${OTLP_PROTOCOLS.join(", ")}; gRPC is not bundled)`,
  };
}
