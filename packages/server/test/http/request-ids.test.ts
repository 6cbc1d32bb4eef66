// Request IDs and request logs, black-box against a real server on each dialect: an acceptable
// X-Request-Id comes back as sent, anything else is replaced by a new ID; the ID is in every answer's
// header, in every error body and on the request's log lines; log lines have ISO times and string
// levels, 4xx at warn, probes at debug.
import { connect } from "node:net";
import { beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../support/test-databases.js";
import { BOOTSTRAP_SECRET, startTestServer, type TestServer } from "./http-harness.js";

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describeEachDialect("request IDs and request logs", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { logLevel: "debug" });
  });

  it("echoes an acceptable X-Request-Id on a success and in an error body", async () => {
    const ok = await server.call("GET", "/v1/keys", {
      key: BOOTSTRAP_SECRET,
      headers: { "x-request-id": "trace-42/a:b" },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-request-id")).toBe("trace-42/a:b");
    const refused = await server.call("GET", "/v1/keys", { key: "wrong", headers: { "x-request-id": "mine-1" } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("x-request-id")).toBe("mine-1");
    expect(refused.body.error.request_id).toBe("mine-1");
  });

  it("makes a new ID when none or an unacceptable one is sent, distinct per request", async () => {
    const first = await server.call("GET", "/v1/no/such/route");
    const second = await server.call("GET", "/v1/no/such/route");
    const tooLong = await server.call("GET", "/v1/no/such/route", { headers: { "x-request-id": "x".repeat(129) } });
    const spaced = await server.call("GET", "/v1/no/such/route", { headers: { "x-request-id": "has space" } });
    for (const answer of [first, second, tooLong, spaced]) {
      expect(answer.status).toBe(404);
      const id = answer.headers.get("x-request-id");
      expect(id).toMatch(/^req_[0-9a-z]{26}$/);
      expect(answer.body.error.request_id).toBe(id);
    }
    expect(first.headers.get("x-request-id")).not.toBe(second.headers.get("x-request-id"));
  });

  it("puts an ID in the answers the HTTP parser refuses", async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(server.url).port), "127.0.0.1");
      let text = "";
      socket.on("data", (chunk: Buffer) => {
        text += chunk.toString("utf8");
      });
      socket.on("close", () => resolve(text));
      socket.on("error", reject);
      socket.write("GET / HTTP/1.1\r\nbroken header line\r\n\r\n");
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    const id = /x-request-id: (\S+)/i.exec(raw)?.[1];
    expect(id).toMatch(/^req_/);
    const body = JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4)) as { error: { request_id: string } };
    expect(body.error.request_id).toBe(id);
  });

  it("logs one line per request with ISO time, string level and the request ID; 4xx at warn, health at debug", async () => {
    await server.call("GET", "/v1/health", { headers: { "x-request-id": "probe-1" } });
    await server.call("GET", "/v1/keys", { key: "wrong", headers: { "x-request-id": "denied-1" } });
    await server.call("GET", "/v1/keys", { key: BOOTSTRAP_SECRET, headers: { "x-request-id": "listed-1" } });
    const answered = (id: string) =>
      server.logs.records().filter((record) => record.request_id === id && record.msg === "request answered");
    for (const record of server.logs.records()) {
      expect(record.time).toMatch(ISO_TIME);
      expect(["debug", "info", "warn", "error", "fatal", "trace"]).toContain(record.level);
    }
    expect(answered("probe-1")).toEqual([
      expect.objectContaining({ level: "debug", status: 200, route: "/v1/health" }),
    ]);
    expect(answered("denied-1")).toEqual([expect.objectContaining({ level: "warn", status: 401 })]);
    expect(answered("listed-1")).toEqual([expect.objectContaining({ level: "info", status: 200, method: "GET" })]);
  });
});
