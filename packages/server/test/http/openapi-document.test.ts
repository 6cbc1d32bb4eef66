// The OpenAPI document as clients and generators use it: an operationId per operation, named
// schemas referenced by $ref, per-operation error statuses and codes, scopes machine-readable,
// the receipt union by kind, optional bodies optional; and the route guard that requires them.
import type { RouteOptions } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { OPERATION_ID_PATTERN } from "../../src/http/openapi.js";
import { routeDeclarationProblem } from "../../src/http/route-guard.js";
import { SCOPE_HOOK } from "../../src/http/scope-hook.js";
import { describeDialect } from "../support/test-databases.js";
import { startTestServer, type TestServer } from "./http-harness.js";

// biome-ignore lint/suspicious/noExplicitAny: the document is walked freely.
type Doc = any;

/** Every operation of the document with its method and path. */
function operationsOf(doc: Doc): Array<{ method: string; path: string; operation: Doc }> {
  return Object.entries<Doc>(doc.paths).flatMap(([path, item]) =>
    Object.entries<Doc>(item).map(([method, operation]) => ({ method, path, operation })),
  );
}

/** The error codes the document lists for `status` of `operation`. */
function codesOf(operation: Doc, status: number): string[] {
  const schema = operation.responses[String(status)]?.content?.["application/json"]?.schema;
  return schema?.properties?.error?.allOf?.[1]?.properties?.code?.enum ?? [];
}

describeDialect("sqlite", "the OpenAPI document", () => {
  let doc: Doc;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite");
    doc = (await server.call("GET", "/v1/openapi.json")).body;
  });

  it("gives every operation a unique camelCase operationId", () => {
    const ids = operationsOf(doc).map(({ operation }) => operation.operationId);
    expect(ids.length).toBeGreaterThanOrEqual(45);
    for (const id of ids) expect(id).toMatch(OPERATION_ID_PATTERN);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("names the wire schemas and refers to them by $ref", () => {
    const schemas = doc.components.schemas;
    for (const name of ["ClaimAnswer", "ClaimedCall", "ReceiptAnswer", "ErrorDetail", "Run", "ToolsetVersion"]) {
      expect(schemas, name).toHaveProperty(name);
    }
    expect(schemas.ClaimAnswer.properties.call).toEqual({ $ref: "#/components/schemas/ClaimedCall" });
    for (const { method, path, operation } of operationsOf(doc)) {
      const body = operation.requestBody?.content?.["application/json"]?.schema;
      if (body !== undefined) expect(body.$ref, `${method} ${path} body`).toMatch(/^#\/components\/schemas\//);
      for (const [status, response] of Object.entries<Doc>(operation.responses)) {
        const schema = response.content?.["application/json"]?.schema;
        if (Number(status) < 300 && schema !== undefined) {
          expect(schema.$ref, `${method} ${path} ${status}`).toMatch(/^#\/components\/schemas\//);
        }
      }
    }
    // Every $ref resolves.
    for (const ref of JSON.stringify(doc).match(/"#\/components\/schemas\/[A-Za-z]+"/g) ?? []) {
      expect(schemas, ref).toHaveProperty(JSON.parse(ref).replace("#/components/schemas/", ""));
    }
  });

  it("lists per operation only the error statuses and codes it can answer", () => {
    const health = doc.paths["/v1/health"].get;
    expect(Object.keys(health.responses).sort()).toEqual(["200", "408", "500"]);
    const receipt = doc.paths["/v1/runs/{run_id}/tool-calls/{call_id}/receipts"].post;
    expect(codesOf(receipt, 409).sort()).toEqual(
      ["accept_required", "call_already_final", "conflict", "progress_limit_exceeded", "receipt_conflict"].sort(),
    );
    expect(codesOf(receipt, 403).sort()).toEqual(["executor_key_mismatch", "forbidden", "invalid_grant"].sort());
    expect(codesOf(receipt, 422)).toContain("unknown_field");
    const listRuns = doc.paths["/v1/runs"].get;
    expect(Object.keys(listRuns.responses).sort()).toEqual(["200", "401", "403", "408", "422", "500", "503"]);
    expect(codesOf(listRuns, 422).sort()).toEqual(["unknown_field", "validation_failed"]);
    const compensate = doc.paths["/v1/runs/{run_id}/tool-calls/{call_id}/compensate"].post;
    expect(codesOf(compensate, 409)).toEqual(["not_compensable"]);
    for (const { operation } of operationsOf(doc)) {
      expect(operation.responses).not.toHaveProperty("4XX");
      expect(operation.responses).not.toHaveProperty("5XX");
    }
  });

  it("names each operation's scopes in x-required-scopes and its description", () => {
    const claim = doc.paths["/v1/runs/{run_id}/tool-calls/{call_id}/claim"].post;
    expect(claim["x-required-scopes"]).toEqual(["tools:execute"]);
    expect(claim.description).toContain("Requires the scope `tools:execute`");
    expect(doc.paths["/v1/executors"].get["x-required-scopes"]).toEqual(["configuration:read", "runtime:read"]);
    expect(doc.paths["/v1/health"].get).not.toHaveProperty("x-required-scopes");
    for (const { method, path, operation } of operationsOf(doc)) {
      if (path === "/v1/health" || path === "/v1/ready") continue;
      expect(operation["x-required-scopes"]?.length, `${method} ${path}`).toBeGreaterThan(0);
    }
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("describes the receipt as a oneOf discriminated by kind", () => {
    const union = doc.components.schemas.ReceiptRequest;
    expect(union.discriminator.propertyName).toBe("kind");
    expect(Object.keys(union.discriminator.mapping).sort()).toEqual(
      ["accepted", "cancelled", "completed", "failed", "progress", "reconciliation_required"].sort(),
    );
    expect(union.oneOf).toHaveLength(6);
    const completed = doc.components.schemas.CompletedReceipt;
    expect(completed.required).toContain("result");
    expect(completed.properties.kind.const).toBe("completed");
    expect(doc.components.schemas.AcceptedReceipt.properties).not.toHaveProperty("result");
    expect(doc.components.schemas.FailedReceipt.required).toContain("error");
  });

  it("marks the optional bodies optional and the others required", () => {
    expect(doc.paths["/v1/runs/{run_id}/cancel"].post.requestBody.required).toBe(false);
    expect(doc.paths["/v1/runs/{run_id}/tool-calls/{call_id}/cancel"].post.requestBody.required).toBe(false);
    expect(doc.paths["/v1/keys"].post.requestBody.required).toBe(true);
  });

  it("names its license, and the server as the request reached it", async () => {
    expect(doc.info.license.name).toBe("Apache-2.0");
    expect(doc.servers).toEqual([{ url: server.url, description: expect.any(String) }]);
    // Another host name for the same server: the entry follows the request.
    const viaLocalhost = server.url.replace("127.0.0.1", "localhost");
    const other = (await (await fetch(`${viaLocalhost}/v1/openapi.json`)).json()) as Doc;
    expect(other.servers[0].url).toBe(viaLocalhost);
  });

  it("names publicUrl when the server has one, whatever the request's host", async () => {
    const behindProxy = await startTestServer("sqlite", { publicUrl: "https://tools.example.com/toolhost" });
    const served = (await behindProxy.call("GET", "/v1/openapi.json")).body;
    expect(served.servers).toEqual([{ url: "https://tools.example.com/toolhost", description: expect.any(String) }]);
  });
});

describe("the route guard", () => {
  const hook = Object.assign(async () => {}, { [SCOPE_HOOK]: ["runtime:read"] });
  const route = (schema: Record<string, unknown>, config: Record<string, unknown> = { errorCodes: [] }) =>
    ({ method: "GET", url: "/v1/x", handler: async () => ({}), onRequest: hook, schema, config }) as RouteOptions;

  it("accepts a complete route", () => {
    expect(routeDeclarationProblem(route({ tags: ["runs"], operationId: "listThings" }))).toBeUndefined();
  });

  it("refuses a documented route without a camelCase operationId", () => {
    expect(routeDeclarationProblem(route({ tags: ["runs"] }))).toMatch(/operationId/);
    expect(routeDeclarationProblem(route({ tags: ["runs"], operationId: "list_things" }))).toMatch(/operationId/);
  });

  it("refuses a documented route without its errorCodes", () => {
    expect(routeDeclarationProblem(route({ tags: ["runs"], operationId: "listThings" }, {}))).toMatch(/errorCodes/);
  });

  it("lets a hidden route go without them", () => {
    expect(routeDeclarationProblem(route({ hide: true }, {}))).toBeUndefined();
  });
});
