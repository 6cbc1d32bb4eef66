// GET /v1/health and GET /v1/openapi.json: public, and the document is a valid OpenAPI 3.1 document
// generated from the route schemas.
import { validate } from "@readme/openapi-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { describeEachDialect } from "../support/test-databases.js";
import { startTestServer, type TestServer } from "./http-harness.js";

describeEachDialect("health and OpenAPI", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });

  it("answers health without a credential", async () => {
    const answer = await server.call("GET", "/v1/health");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ status: "ok" });
  });

  describe("the OpenAPI document", () => {
    // biome-ignore lint/suspicious/noExplicitAny: the document is walked freely.
    let doc: any;
    beforeAll(async () => {
      const answer = await server.call("GET", "/v1/openapi.json");
      expect(answer.status).toBe(200);
      doc = answer.body;
    });

    it("is valid OpenAPI 3.1", async () => {
      expect(doc.openapi).toBe("3.1.0");
      const result = await validate(structuredClone(doc));
      expect(result.valid, JSON.stringify(result)).toBe(true);
    });

    it("names the service and the bearer scheme", () => {
      expect(doc.info.title).toBe("toolhost");
      expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
      expect(doc.security).toEqual([{ bearer: [] }]);
    });

    it("lists every route, tagged, and hides itself", () => {
      // Other areas add their paths (and check them in their own tests); these must stay.
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/v1/health", "/v1/keys", "/v1/keys/{key_id}"]));
      expect(Object.keys(doc.paths["/v1/keys"]).sort()).toEqual(["get", "post"]);
      expect(Object.keys(doc.paths["/v1/keys/{key_id}"])).toEqual(["delete"]);
      const tagNames = doc.tags.map((tag: { name: string }) => tag.name);
      for (const [path, item] of Object.entries<Record<string, { tags?: string[] }>>(doc.paths)) {
        for (const [method, operation] of Object.entries(item)) {
          expect(operation.tags?.length, `${method} ${path}`).toBeGreaterThan(0);
          for (const tag of operation.tags ?? []) expect(tagNames).toContain(tag);
        }
      }
    });

    it("marks health public and describes bodies strictly, errors included", () => {
      expect(doc.paths["/v1/health"].get.security).toEqual([]);
      const create = doc.paths["/v1/keys"].post;
      const named = (ref: string) => doc.components.schemas[ref.replace("#/components/schemas/", "")];
      const body = named(create.requestBody.content["application/json"].schema.$ref);
      expect(body.additionalProperties).toBe(false);
      expect(body.required).toEqual(["name", "scopes"]);
      expect(named(create.responses["201"].content["application/json"].schema.$ref).properties).toHaveProperty("key");
      const error = create.responses["422"].content["application/json"].schema;
      const [detail, narrowed] = error.properties.error.allOf;
      expect(named(detail.$ref).required).toEqual(["code", "message"]);
      expect(narrowed.properties.code.enum).toContain("validation_failed");
    });
  });
});
