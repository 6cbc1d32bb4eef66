// The web console's files at `/`: its pages answer index.html (with a strict content security
// policy; an unknown page the same with 404), its assets are served from /assets/, nothing escapes the console directory, and the API's
// own answers are unchanged (a wrong path under /v1 stays a JSON 404, the OpenAPI document lists no
// console route). Without a build, `/` says how to build it; with consoleDirectory null there is none.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../config/config-fixtures.js";
import { startTestServer, type TestServer } from "./http-harness.js";

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/app-1234.js"></script></head></html>\n';
const SCRIPT = 'console.log("console");\n';

const root = mkdtempSync(join(tmpdir(), "toolhost-console-"));
const built = join(root, "dist");
mkdirSync(join(built, "assets"), { recursive: true });
writeFileSync(join(built, "index.html"), INDEX);
writeFileSync(join(built, "assets", "app-1234.js"), SCRIPT);
writeFileSync(join(root, "secret.txt"), "not for the browser");
const unbuilt = join(root, "empty");
mkdirSync(unbuilt);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the console's files", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite", { consoleDirectory: built });
  });

  it.each(["/", "/schema", "/runs", "/runs/run_01abc", "/executors"])("%s answers index.html", async (path) => {
    const answer = await server.call("GET", path);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(INDEX);
    expect(answer.headers.get("content-type")).toMatch(/^text\/html/);
    expect(answer.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(answer.headers.get("cache-control")).toBe("no-cache");
  });

  it("serves assets, cacheable for good", async () => {
    const answer = await server.call("GET", "/assets/app-1234.js");
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(SCRIPT);
    expect(answer.headers.get("content-type")).toMatch(/javascript/);
    expect(answer.headers.get("cache-control")).toContain("immutable");
  });

  it("answers an unknown page with index.html and 404, so the console shows its not-found page", async () => {
    for (const path of ["/nope", "/runs/run_01abc/extra", "/v1x", "/metricsfoo"]) {
      const answer = await server.call("GET", path);
      expect(answer.status, path).toBe(404);
      expect(answer.text, path).toBe(INDEX);
      expect(answer.headers.get("content-security-policy"), path).toContain("script-src 'self'");
    }
  });

  it("answers a missing asset and a path outside the directory with a JSON 404", async () => {
    expectError(await server.call("GET", "/assets/nope.js"), 404, "not_found");
    expectError(await server.call("GET", "/assets"), 404, "not_found");
    for (const path of [
      "/assets/../../secret.txt",
      "/assets/%2e%2e/%2e%2e/secret.txt",
      "/assets/..%2f..%2fsecret.txt",
    ]) {
      const answer = await server.call("GET", path);
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.text).not.toContain("not for the browser");
    }
  });

  it("leaves the API as it was: a wrong /v1 path is a JSON 404, a wrong method a 405", async () => {
    expectError(await server.call("GET", "/v1/nope"), 404, "not_found");
    expectError(await server.call("GET", "/v1/"), 404, "not_found");
    expectError(await server.call("GET", "/v1"), 404, "not_found");
    expectError(await server.call("GET", "/metrics/nope"), 404, "not_found");
    expectError(await server.call("POST", "/v1/runs/x/nope", { body: {} }), 404, "not_found");
    expectError(await server.call("POST", "/", { body: {} }), 405, "method_not_allowed");
    expect((await server.call("GET", "/v1/health")).body).toEqual({ status: "ok" });
  });

  it("keeps the console out of the OpenAPI document", async () => {
    const paths = Object.keys((await server.call("GET", "/v1/openapi.json")).body.paths);
    // Only the API is documented: /v1/… and the Prometheus metrics at their conventional path.
    expect(paths.filter((path) => !path.startsWith("/v1/"))).toEqual(["/metrics"]);
  });
});

describe("without a console", () => {
  it("says how to build it when the directory holds no build", async () => {
    const server = await startTestServer("sqlite", { consoleDirectory: unbuilt });
    const answer = await server.call("GET", "/");
    expect(answer.status).toBe(404);
    expect(answer.headers.get("content-type")).toMatch(/^text\/html/);
    expect(answer.text).toContain("npm run build -w @toolhost/console");
    expectError(await server.call("GET", "/runs"), 404, "not_found");
  });

  it("serves nothing at / when consoleDirectory is null", async () => {
    const server = await startTestServer("sqlite", { consoleDirectory: null });
    expectError(await server.call("GET", "/"), 404, "not_found");
  });
});
