// `toolhost serve` with the standard OpenTelemetry variables (the real binary): spans reach a local
// OTLP/HTTP listener, as JSON (http/json) or protobuf (the default protocol), with OTEL_SERVICE_NAME
// and OTEL_RESOURCE_ATTRIBUTES on the resource; an unsupported protocol is said on stderr and the
// server serves all the same.
import { afterAll, describe, expect, it } from "vitest";
import { startOtlpListener } from "../../server/test/support/otlp-listener.js";
import { tempDir } from "./run-toolhost.js";
import { startServe } from "./serve-process.js";

const dir = tempDir("serve-traces");
afterAll(() => dir.remove());

describe("toolhost serve with OTEL_* variables", () => {
  it("exports its spans over OTLP/HTTP JSON with the service name and resource attributes", async () => {
    const listener = await startOtlpListener();
    const serve = await startServe(
      ["--port", "0", "--db", "sqlite:json.db"],
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: listener.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_SERVICE_NAME: "toolhost-ops-test",
        OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=test",
      },
      dir.path,
    );
    expect((await fetch(`${serve.url}/v1/health`)).status).toBe(200);
    expect(await serve.stop("SIGTERM")).toBe(0);
    // The shutdown flushed the batch: the request's server span is there.
    const spans = listener.jsonSpans();
    expect(listener.requests.every((request) => request.path === "/v1/traces")).toBe(true);
    const health = spans.find((span) => span.name === "HTTP GET /v1/health");
    expect(health, JSON.stringify(spans.map((span) => span.name))).toBeDefined();
    expect(health?.attributes).toMatchObject({ "http.route": "/v1/health", "http.response.status_code": 200 });
    expect(health?.resource).toMatchObject({
      "service.name": "toolhost-ops-test",
      "service.version": expect.any(String),
      "deployment.environment.name": "test",
    });
    await listener.close();
  });

  it("sends protobuf by default (OTEL_EXPORTER_OTLP_PROTOCOL unset)", async () => {
    const listener = await startOtlpListener();
    const serve = await startServe(
      ["--port", "0", "--db", "sqlite:proto.db"],
      { OTEL_EXPORTER_OTLP_ENDPOINT: listener.url, OTEL_SERVICE_NAME: "toolhost-proto-test" },
      dir.path,
    );
    expect((await fetch(`${serve.url}/v1/health`)).status).toBe(200);
    expect(await serve.stop("SIGTERM")).toBe(0);
    expect(listener.requests.length).toBeGreaterThanOrEqual(1);
    const [first] = listener.requests;
    expect(first?.contentType).toBe("application/x-protobuf");
    // Protobuf strings are their UTF-8 bytes: the service name and the span's name are in the body.
    const bytes = Buffer.concat(listener.requests.map((request) => request.body)).toString("latin1");
    expect(bytes).toContain("toolhost-proto-test");
    expect(bytes).toContain("HTTP GET /v1/health");
    await listener.close();
  });

  it("says on stderr why tracing stays off for gRPC, and serves", async () => {
    const serve = await startServe(
      ["--port", "0", "--db", "sqlite:grpc.db"],
      { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" },
      dir.path,
    );
    expect((await fetch(`${serve.url}/v1/health`)).status).toBe(200);
    expect(await serve.stop("SIGTERM")).toBe(0);
    expect(serve.stderr()).toContain('tracing stays off: OTLP protocol "grpc" is not supported');
  });
});
