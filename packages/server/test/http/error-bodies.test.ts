// Every failure answers {"error":{"code","message","pointer"?,"details"?,"request_id"}} with the right status, and
// bad input never yields a 5xx. Unexpected failures answer a generic 500 and are logged once.
import { connect } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "../../src/app/build-app.js";
import { ensureBootstrapKey } from "../../src/auth/bootstrap-key.js";
import { systemClock } from "../../src/clock.js";
import { createLogger } from "../../src/logger.js";
import { compileServerOptions } from "../../src/options.js";
import type { Storage } from "../../src/storage/storage.js";
import { createTestStorage, describeEachDialect } from "../support/test-databases.js";
import {
  type Answer,
  BOOTSTRAP_SECRET,
  LogCapture,
  request,
  startTestServer,
  type TestServer,
} from "./http-harness.js";

const BODY_LIMIT_BYTES = 1024;

/** Asserts the docs/http-api.md shape and answers the `error` member. */
function errorOf(answer: Answer, status: number, code: string) {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
  expect(Object.keys(answer.body)).toEqual(["error"]);
  const { error } = answer.body;
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe("string");
  expect(error.message.length).toBeGreaterThan(0);
  for (const member of Object.keys(error))
    expect(["code", "message", "pointer", "details", "request_id"]).toContain(member);
  expect(typeof error.request_id).toBe("string");
  return error;
}

describeEachDialect("error bodies", (dialect) => {
  let server: TestServer;
  const admin = { key: BOOTSTRAP_SECRET };
  beforeAll(async () => {
    server = await startTestServer(dialect, { bodyLimitBytes: BODY_LIMIT_BYTES });
  });

  it("malformed JSON is 400 invalid_json", async () => {
    errorOf(await server.call("POST", "/v1/keys", { ...admin, body: '{"name": "a",' }), 400, "invalid_json");
    errorOf(await server.call("POST", "/v1/keys", { ...admin, body: "{'name': 1}" }), 400, "invalid_json");
  });

  it("a body that is not UTF-8 is 400 invalid_json", async () => {
    const answer = await fetch(new URL("/v1/keys", server.url), {
      method: "POST",
      headers: { authorization: `Bearer ${BOOTSTRAP_SECRET}`, "content-type": "application/json" },
      body: new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
    });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("invalid_json");
  });

  it("a __proto__ member among the body's own members is 422 unknown_field at its pointer, as any unknown member", async () => {
    const error = errorOf(
      await server.call("POST", "/v1/keys", {
        ...admin,
        body: '{"name":"a","scopes":["admin"],"__proto__":{"admin":true}}',
      }),
      422,
      "unknown_field",
    );
    expect(error.pointer).toBe("/__proto__");
  });

  it("a body over the configured limit is 413 body_too_large", async () => {
    const body = JSON.stringify({ name: "x".repeat(BODY_LIMIT_BYTES), scopes: ["admin"] });
    const error = errorOf(await server.call("POST", "/v1/keys", { ...admin, body }), 413, "body_too_large");
    expect(error.details).toEqual({ limit_bytes: BODY_LIMIT_BYTES });
  });

  it("a body of another content type is 415 unsupported_media_type", async () => {
    const body = JSON.stringify({ name: "a", scopes: ["admin"] });
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin1"]) {
      errorOf(
        await server.call("POST", "/v1/keys", { ...admin, body, headers: { "content-type": type } }),
        415,
        "unsupported_media_type",
      );
    }
  });

  it("a body without a content type is 415", async () => {
    const answer = await fetch(new URL("/v1/keys", server.url), {
      method: "POST",
      headers: { authorization: `Bearer ${BOOTSTRAP_SECRET}` },
      body: new Uint8Array(Buffer.from('{"name":"a","scopes":["admin"]}')),
    });
    expect(answer.status).toBe(415);
  });

  it("an unknown route is 404 not_found, a known path with another method 405", async () => {
    errorOf(await server.call("GET", "/v1/nothing-here"), 404, "not_found");
    // Outside /v1 a GET is a page path: the console answers its own not-found page, still a 404.
    const page = await server.call("GET", "/nothing-here");
    expect(page.status).toBe(404);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    errorOf(await server.call("POST", "/nothing-here", { ...admin, body: {} }), 404, "not_found");
    const wrongMethod = await server.call("PUT", "/v1/keys", { ...admin, body: {} });
    const error = errorOf(wrongMethod, 405, "method_not_allowed");
    expect(error.details.allowed_methods).toEqual(["GET", "HEAD", "POST"]);
    expect(wrongMethod.headers.get("allow")).toBe("GET, HEAD, POST");
  });

  it("an unknown route is 404 whatever its body", async () => {
    errorOf(await server.call("POST", "/v1/nothing-here", { body: "{not json" }), 404, "not_found");
    errorOf(
      await server.call("POST", "/v1/nothing-here", { body: "x".repeat(BODY_LIMIT_BYTES * 2) }),
      404,
      "not_found",
    );
    errorOf(
      await server.call("POST", "/v1/nothing-here", { body: "text", headers: { "content-type": "text/plain" } }),
      404,
      "not_found",
    );
  });

  it("a missing required member is 422 validation_failed pointing at the member", async () => {
    const error = errorOf(
      await server.call("POST", "/v1/keys", { ...admin, body: { scopes: ["admin"] } }),
      422,
      "validation_failed",
    );
    expect(error.pointer).toBe("/name");
  });

  it("a wrong value is 422 validation_failed pointing at it", async () => {
    const wrongScope = errorOf(
      await server.call("POST", "/v1/keys", { ...admin, body: { name: "a", scopes: ["admin", "root"] } }),
      422,
      "validation_failed",
    );
    expect(wrongScope.pointer).toBe("/scopes/1");
    expect(wrongScope.message).toContain("runtime:read");
    const wrongAgent = errorOf(
      await server.call("POST", "/v1/keys", { ...admin, body: { name: "a", scopes: ["admin"], agents: ["a", 7] } }),
      422,
      "validation_failed",
    );
    expect(wrongAgent.pointer).toBe("/agents/1");
    const notAList = errorOf(
      await server.call("POST", "/v1/keys", { ...admin, body: { name: "a", scopes: ["admin"], agents: "all" } }),
      422,
      "validation_failed",
    );
    expect(notAList.pointer).toBe("/agents");
    expect(notAList.message).toContain('"*"');
  });

  it("types are never coerced", async () => {
    const error = errorOf(
      await server.call("POST", "/v1/keys", { ...admin, body: { name: 12, scopes: ["admin"] } }),
      422,
      "validation_failed",
    );
    expect(error.pointer).toBe("/name");
  });

  it("a body that is not an object is 422 at the root", async () => {
    for (const body of ["[]", "null", '"text"', "42"]) {
      const error = errorOf(await server.call("POST", "/v1/keys", { ...admin, body }), 422, "validation_failed");
      expect(error.pointer).toBe("");
    }
  });

  it("an unknown member is 422 unknown_field pointing at it", async () => {
    const error = errorOf(
      await server.call("POST", "/v1/keys", { ...admin, body: { name: "a", scopes: ["admin"], colour: "red" } }),
      422,
      "unknown_field",
    );
    expect(error.pointer).toBe("/colour");
  });

  it("a removed member is 422 field_removed naming its replacement", async () => {
    for (const field of ["max_result_tokens", "max_result_bytes"]) {
      const error = errorOf(
        await server.call("POST", "/v1/keys", { ...admin, body: { name: "a", scopes: ["admin"], [field]: 1000 } }),
        422,
        "field_removed",
      );
      expect(error.pointer).toBe(`/${field}`);
      expect(error.message).toContain("max_result_context_bytes");
      expect(error.details).toMatchObject({ field, replacement: "max_result_context_bytes" });
    }
  });

  it("query and path parameters are validated too", async () => {
    const tooMany = errorOf(await server.call("GET", "/v1/keys?limit=201", admin), 422, "validation_failed");
    expect(tooMany.pointer).toBe("/limit");
    expect(tooMany.details.in).toBe("query");
    errorOf(await server.call("GET", "/v1/keys?limit=ten", admin), 422, "validation_failed");
    const unknown = errorOf(await server.call("GET", "/v1/keys?colour=red", admin), 422, "unknown_field");
    expect(unknown.pointer).toBe("/colour");
    errorOf(await server.call("GET", "/v1/keys?cursor=not-a-cursor", admin), 422, "validation_failed");
    errorOf(await server.call("DELETE", "/v1/keys/bad%20id", admin), 422, "validation_failed");
    errorOf(await server.call("DELETE", `/v1/keys/${"k".repeat(300)}`, admin), 404, "not_found");
    errorOf(await server.call("GET", "/v1/keys/%E0%A4%A", admin), 400, "bad_request");
  });

  it("a request Node cannot parse gets the same error shape", async () => {
    const text = await new Promise<string>((resolve, reject) => {
      const { port } = new URL(server.url);
      const socket = connect(Number(port), "127.0.0.1", () => socket.write("GET /v1/health HTTP/1.1\r\nHost\r\n\r\n"));
      let received = "";
      socket.on("data", (chunk) => {
        received += chunk.toString("utf8");
      });
      socket.on("end", () => resolve(received));
      socket.on("error", reject);
    });
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))).toMatchObject({ error: { code: "bad_request" } });
  });
});

describeEachDialect("unexpected failures", (dialect) => {
  const logs = new LogCapture();
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const storage = await createTestStorage(dialect);
    await ensureBootstrapKey(storage, BOOTSTRAP_SECRET, systemClock);
    // A storage whose key listing fails, as a broken disk or connection would.
    const keys = Object.assign(Object.create(storage.keys) as Storage["keys"], {
      list: () => Promise.reject(new Error("disk on fire at /var/lib/secret-path")),
    });
    const broken = new Proxy(storage, {
      get: (target, property) => (property === "keys" ? keys : Reflect.get(target, property, target)),
    });
    const options = compileServerOptions({ logLevel: "info" }, {});
    const app = await buildApp({ storage: broken, options, logger: createLogger("info", logs) });
    await app.listen({ host: "127.0.0.1", port: 0 });
    const address = app.server.address();
    if (address === null || typeof address === "string") throw new Error("not listening");
    url = `http://127.0.0.1:${address.port}`;
    close = () => app.close();
  });
  afterAll(() => close());

  it("answer a generic 500 internal_error and are logged once with the cause", async () => {
    const answer = await request(url, "GET", "/v1/keys", { key: BOOTSTRAP_SECRET });
    const error = errorOf(answer, 500, "internal_error");
    expect(answer.text).not.toContain("disk on fire");
    expect(error.pointer).toBeUndefined();
    const logged = logs.lines.filter((line) => line.includes("disk on fire"));
    expect(logged).toHaveLength(1);
    const requestId = answer.headers.get("x-request-id");
    expect(error.request_id).toBe(requestId);
    expect(JSON.parse(logged[0] as string)).toMatchObject({ level: "error", request_id: requestId });
    // The request's own line is at error too, with the same ID.
    const answered = logs.lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((record) => record.msg === "request answered" && record.request_id === requestId);
    expect(answered).toEqual([expect.objectContaining({ level: "error", status: 500 })]);
  });

  it("do not stop the server from answering", async () => {
    expect((await request(url, "GET", "/v1/health")).status).toBe(200);
  });
});
