// Slow clients, on raw sockets against a real server: a request whose headers or body trickle in is
// cut off with a 408 once its timeout passes; an answer sent before the body arrived (a 401) closes
// the connection; an idle keep-alive connection closes; a long-poll still waits its wait_ms; and
// healthy requests are served while many slow sockets are open.

import { connect as connectSocket, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { compileServerOptions, MIN_CONNECTION_IDLE_TIMEOUT_MS } from "../../src/options.js";
import { admin, buildWorld, connect, expectStatus, startClockedServer } from "../calls/calls-harness.js";
import { describeEachDialect } from "../support/test-databases.js";
import { BOOTSTRAP_SECRET, startTestServer, type TestServer } from "./http-harness.js";

/** Generous "did not hang" bound on waiting for the server to close a socket. */
const CLOSE_WITHIN_MS = 5_000;

/** Small timeouts, so that the cut-offs happen well inside the bounds above. */
const SHORT = { requestTimeoutMs: 400, headersTimeoutMs: 200, keepAliveTimeoutMs: 300 };

/** A raw connection to a test server, with everything it received. */
interface RawClient {
  readonly socket: Socket;
  /** Everything received so far, as text. */
  received(): string;
  /** True once the server closed the connection within `ms`, false when it was still open then. */
  closedWithin(ms: number): Promise<boolean>;
}

async function openRaw(server: TestServer): Promise<RawClient> {
  const { hostname, port } = new URL(server.url);
  const socket = connectSocket(Number(port), hostname);
  let text = "";
  let closed = false;
  const closing = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  void closing.then(() => {
    closed = true;
  });
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    text += chunk;
  });
  socket.on("error", () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  return {
    socket,
    received: () => text,
    closedWithin: async (ms) => {
      if (closed) return true;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
      });
      const result = await Promise.race([closing.then(() => true as const), timedOut]);
      clearTimeout(timer);
      return result;
    },
  };
}

/** Writes `chunk` every `everyMs` until the socket closes; answers how to stop. */
function trickle(socket: Socket, chunk: string, everyMs: number): () => void {
  const timer = setInterval(() => {
    if (socket.destroyed || !socket.writable) clearInterval(timer);
    else socket.write(chunk);
  }, everyMs);
  socket.once("close", () => clearInterval(timer));
  return () => clearInterval(timer);
}

/** Headers of a POST with a large announced body. */
function postHead(key: string, contentLength = 100_000): string {
  return [
    "POST /v1/keys HTTP/1.1",
    "Host: toolhost.test",
    `Authorization: Bearer ${key}`,
    "Content-Type: application/json",
    `Content-Length: ${contentLength}`,
    "",
    "",
  ].join("\r\n");
}

/** The error body at the end of a raw HTTP answer. */
function errorCodeOf(raw: string): unknown {
  const body = raw.slice(raw.indexOf("\r\n\r\n") + 4);
  return (JSON.parse(body) as { error: { code: string } }).error.code;
}

describe("slow-client options", () => {
  it("default to bounded timeouts and keep room for the longest long-poll", () => {
    const options = compileServerOptions({}, {});
    expect(options).toMatchObject({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
      connectionIdleTimeoutMs: 60_000,
    });
    expect(MIN_CONNECTION_IDLE_TIMEOUT_MS).toBeGreaterThan(30_000);
    expect(compileServerOptions({}, { TOOLHOST_REQUEST_TIMEOUT_MS: "5000" })).toMatchObject({
      requestTimeoutMs: 5_000,
      headersTimeoutMs: 5_000,
    });
    expect(() => compileServerOptions({ connectionIdleTimeoutMs: 30_000 }, {})).toThrow(
      /option connectionIdleTimeoutMs/,
    );
    expect(() => compileServerOptions({}, { TOOLHOST_HEADERS_TIMEOUT_MS: "40000" })).toThrow(
      /TOOLHOST_HEADERS_TIMEOUT_MS: must not exceed the request timeout/,
    );
    expect(() => compileServerOptions({ requestTimeoutMs: 0 }, {})).toThrow(/option requestTimeoutMs/);
  });
});

describeEachDialect("slow clients", (dialect) => {
  it("cuts off a trickled body with a 408 once the request timeout passes", async () => {
    const server = await startTestServer(dialect, SHORT);
    const client = await openRaw(server);
    client.socket.write(`${postHead(BOOTSTRAP_SECRET)}{`);
    trickle(client.socket, " ", 50);
    expect(await client.closedWithin(CLOSE_WITHIN_MS), client.received()).toBe(true);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(errorCodeOf(client.received())).toBe("request_timeout");
    // Nothing was created by the cut-off request, and it is no internal error.
    const keys = expectStatus(await server.call("GET", "/v1/keys", admin), 200);
    expect(keys.data).toHaveLength(1);
    expect(server.logs.records().filter((record) => record.level === "error" || record.level === "fatal")).toEqual([]);
  });

  it("cuts off trickled headers with a 408 once the headers timeout passes", async () => {
    const server = await startTestServer(dialect, SHORT);
    const client = await openRaw(server);
    client.socket.write("GET /v1/health HTTP/1.1\r\nHost: toolhost.test\r\n");
    let n = 0;
    const timer = setInterval(() => {
      if (!client.socket.destroyed) client.socket.write(`X-Slow-${n++}: a\r\n`);
    }, 40);
    try {
      expect(await client.closedWithin(CLOSE_WITHIN_MS), client.received()).toBe(true);
    } finally {
      clearInterval(timer);
    }
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(errorCodeOf(client.received())).toBe("request_timeout");
  });

  it("closes the connection after a 401 whose body never arrives (long before the request timeout)", async () => {
    const server = await startTestServer(dialect, { requestTimeoutMs: 60_000, headersTimeoutMs: 10_000 });
    const client = await openRaw(server);
    client.socket.write(`${postHead("th_not_a_key")}{"name":`);
    trickle(client.socket, " ", 50);
    expect(await client.closedWithin(CLOSE_WITHIN_MS), client.received()).toBe(true);
    expect(client.received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(client.received().toLowerCase()).toContain("connection: close");
    expect(errorCodeOf(client.received())).toBe("unauthorized");
  });

  it("closes an idle keep-alive connection after the keep-alive timeout", async () => {
    const server = await startTestServer(dialect, SHORT);
    const client = await openRaw(server);
    client.socket.write("GET /v1/health HTTP/1.1\r\nHost: toolhost.test\r\n\r\n");
    expect(await client.closedWithin(CLOSE_WITHIN_MS), client.received()).toBe(true);
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it("lets a long-poll wait past the request timeout: it was received in full", async () => {
    const server = await startClockedServer(dialect, SHORT);
    const world = await buildWorld(server, [{ message: "done" }]);
    const executor = await connect(server, world, "slow-poll");
    const url = `/v1/executors/slow-poll/pending?connection_id=${executor.connection_id}&wait_ms=1500`;
    // A timeout cutting it would answer 408 or reset the connection (fetch would throw).
    const answer = await server.call("GET", url, { key: world.executorKey });
    expect(expectStatus(answer, 200).data).toEqual([]);
  });

  it("serves healthy requests while many slow sockets are open, then cuts every slow one off", async () => {
    const server = await startTestServer(dialect, { requestTimeoutMs: 3_000, headersTimeoutMs: 1_000 });
    const slow = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const client = await openRaw(server);
        client.socket.write(`${postHead(i % 2 === 0 ? BOOTSTRAP_SECRET : "th_not_a_key")}{`);
        trickle(client.socket, " ", 100);
        return client;
      }),
    );
    expect((await server.call("GET", "/v1/health")).status).toBe(200);
    expectStatus(await server.call("GET", "/v1/keys", admin), 200);
    expectStatus(
      await server.call("POST", "/v1/keys", { ...admin, body: { name: "k", scopes: ["runtime:read"] } }),
      201,
    );
    const closed = await Promise.all(slow.map((client) => client.closedWithin(3_000 + CLOSE_WITHIN_MS)));
    expect(closed.every(Boolean)).toBe(true);
    for (const client of slow) expect(client.received()).toMatch(/^HTTP\/1\.1 (401|408) /);
  });
});
