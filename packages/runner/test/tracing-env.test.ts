// Which trace export the OTEL_* variables ask for (pure): off without them, OTLP/HTTP protobuf by
// default, JSON when asked, off when disabled, and a clear problem for what is not bundled.
import { describe, expect, it } from "vitest";
import { tracingFromEnv } from "../src/otel/index.js";

describe("tracingFromEnv", () => {
  it.each([
    [{}, { kind: "off" }],
    [{ OTEL_SERVICE_NAME: "x" }, { kind: "off" }],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: " " }, { kind: "off" }],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" }, { kind: "otlp", protocol: "http/protobuf" }],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/v1/traces" }, { kind: "otlp", protocol: "http/protobuf" }],
    [{ OTEL_TRACES_EXPORTER: "otlp" }, { kind: "otlp", protocol: "http/protobuf" }],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" },
      { kind: "otlp", protocol: "http/json" },
    ],
    [
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
        OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json",
      },
      { kind: "otlp", protocol: "http/json" },
    ],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "true" }, { kind: "off" }],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_TRACES_EXPORTER: "none" }, { kind: "off" }],
  ])("%j → %j", (env, decision) => {
    expect(tracingFromEnv(env)).toEqual(decision);
  });

  it("names what is not bundled", () => {
    const grpc = tracingFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" });
    expect(grpc).toEqual({ kind: "unsupported", problem: expect.stringContaining('"grpc" is not supported') });
    const zipkin = tracingFromEnv({ OTEL_TRACES_EXPORTER: "zipkin" });
    expect(zipkin).toEqual({ kind: "unsupported", problem: expect.stringContaining("zipkin") });
  });
});
