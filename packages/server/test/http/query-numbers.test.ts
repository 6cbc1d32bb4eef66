// Integers in the URL (`limit` on every list, `wait_ms` on pending, a toolset version in the path)
// are read from plain decimal digits only. Any other spelling — `1e400` and `Infinity` used to reach
// the database as an infinite page size (500), `0x10`, ` 5` and `1e1` used to pass as numbers — is a
// 422 `validation_failed` naming the parameter.

import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { readUrlInteger, urlIntegerReader } from "../../src/http/url-integers.js";
import { describeEachDialect } from "../support/test-databases.js";
import { BOOTSTRAP_SECRET, startTestServer, type TestServer } from "./http-harness.js";

const admin = { key: BOOTSTRAP_SECRET };

/** Spellings JavaScript reads as numbers (or that probe the reader) and the URL must refuse. */
const REFUSED = [
  "1e400",
  "Infinity",
  "-Infinity",
  "NaN",
  "1e1",
  "0x10",
  "0b1",
  "0o7",
  "%205",
  "5%20",
  "+5",
  "-0",
  "-1",
  "05",
  "5.0",
  "1_0",
  "",
  "%00",
  "5%00",
  "%EF%BC%95", // a full-width digit five
];

describe("readUrlInteger", () => {
  it("reads every safe integer from its decimal spelling", () => {
    fc.assert(fc.property(fc.maxSafeNat(), (n) => readUrlInteger(String(n)) === n));
  });

  it("reads a text exactly when it is digits without a leading zero", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[0-9+\-. e]{0,6}$/)), (text) => {
        const value = readUrlInteger(text);
        expect(value !== undefined).toBe(/^(0|[1-9][0-9]*)$/.test(text));
        if (value !== undefined) expect(String(value)).toBe(text.length > 16 ? String(Number(text)) : text);
      }),
    );
  });

  it("refuses a route whose URL integer has no safe maximum", () => {
    expect(() => urlIntegerReader({ type: "object", properties: { n: { type: "integer" } } })).toThrow(/maximum/);
    expect(() =>
      urlIntegerReader({ type: "object", properties: { n: { type: "integer", maximum: 2 ** 60 } } }),
    ).toThrow(/maximum/);
  });
});

describeEachDialect("integers in the URL", (dialect) => {
  let server: TestServer;
  let listPaths: string[];
  beforeAll(async () => {
    server = await startTestServer(dialect);
    const spec = (await server.call("GET", "/v1/openapi.json")).body;
    listPaths = Object.entries<Record<string, { parameters?: Array<{ in: string; name: string }> }>>(spec.paths)
      .filter(([, item]) => item.get?.parameters?.some((p) => p.in === "query" && p.name === "limit"))
      .map(([path]) => path.replace(/\{[^}]+\}/g, "x1"));
  });

  it("refuses every other spelling of limit on every list route, naming /limit in the query", async () => {
    expect(listPaths.length).toBeGreaterThanOrEqual(10);
    for (const path of listPaths) {
      const separator = path.includes("pending") ? "?connection_id=conn_x&" : "?";
      for (const spelling of [...REFUSED, "1&limit=2", "9007199254740993", "0", "201"]) {
        const url = `${path}${separator}limit=${spelling}`;
        const answer = await server.call("GET", url, admin);
        expect(answer.status, `${url} ${answer.text}`).toBe(422);
        expect(answer.body.error, url).toMatchObject({
          code: "validation_failed",
          pointer: "/limit",
          details: { in: "query" },
        });
      }
    }
    expect((await server.call("GET", "/v1/keys?limit=1", admin)).body.data).toHaveLength(1);
    expect((await server.call("GET", "/v1/keys?limit=200", admin)).status).toBe(200);
  });

  it("refuses every other spelling of wait_ms, and of a version number in the path", async () => {
    for (const spelling of [...REFUSED, "30001", "1&wait_ms=2"]) {
      const url = `/v1/executors/x1/pending?connection_id=conn_x&wait_ms=${spelling}`;
      const answer = await server.call("GET", url, admin);
      expect(answer.status, `${url} ${answer.text}`).toBe(422);
      expect(answer.body.error, url).toMatchObject({ pointer: "/wait_ms", details: { in: "query" } });
    }
    for (const spelling of REFUSED.filter((text) => text !== "" && !text.startsWith("%"))) {
      const answer = await server.call("GET", `/v1/toolsets/tls_x/versions/${spelling}`, admin);
      expect(answer.status, `${spelling} ${answer.text}`).toBe(422);
      expect(answer.body.error, spelling).toMatchObject({ pointer: "/version", details: { in: "params" } });
    }
    expect((await server.call("GET", "/v1/toolsets/tls_x/versions/1", admin)).status).toBe(404);
  });
});
