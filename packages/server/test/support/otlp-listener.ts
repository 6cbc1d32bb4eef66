/**
 * A local OTLP/HTTP listener on 127.0.0.1 for the tests of trace export: it answers every POST with
 * 200 and keeps what arrived (path, content type, body), so a test reads back the spans a process
 * exported — as JSON (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) or as protobuf bytes.
 */

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One export request received. */
export interface OtlpRequest {
  readonly path: string;
  readonly contentType: string;
  readonly body: Buffer;
}

/** A started listener. */
export interface OtlpListener {
  /** The base URL to give as `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly url: string;
  readonly requests: OtlpRequest[];
  /** The spans of every JSON request, with their resource's attributes. */
  jsonSpans(): Array<{ name: string; resource: Record<string, unknown>; attributes: Record<string, unknown> }>;
  close(): Promise<void>;
}

/** An OTLP attribute list (`[{key, value: {stringValue | intValue | …}}]`) as a plain object. */
function attributesOf(list: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const item of (list as Array<{ key: string; value: Record<string, unknown> }> | undefined) ?? []) {
    out[item.key] = Object.values(item.value)[0];
  }
  return out;
}

/** Starts a listener on a free port of 127.0.0.1. */
export async function startOtlpListener(): Promise<OtlpListener> {
  const requests: OtlpRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      requests.push({
        path: request.url ?? "",
        contentType: String(request.headers["content-type"] ?? ""),
        body: Buffer.concat(chunks),
      });
      const json = String(request.headers["content-type"]).includes("json");
      response.writeHead(200, { "content-type": json ? "application/json" : "application/x-protobuf" });
      response.end(json ? "{}" : "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    jsonSpans() {
      return requests
        .filter((request) => request.contentType.includes("json"))
        .flatMap((request) => {
          const body = JSON.parse(request.body.toString("utf8")) as {
            resourceSpans?: Array<{
              resource?: { attributes?: unknown };
              scopeSpans?: Array<{ spans?: Array<{ name: string; attributes?: unknown }> }>;
            }>;
          };
          return (body.resourceSpans ?? []).flatMap((resourceSpans) =>
            (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
              (scope.spans ?? []).map((span) => ({
                name: span.name,
                resource: attributesOf(resourceSpans.resource?.attributes),
                attributes: attributesOf(span.attributes),
              })),
            ),
          );
        });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
