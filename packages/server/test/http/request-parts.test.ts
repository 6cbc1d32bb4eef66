// Pure pieces of the HTTP layer: bearer-token reading, validation-error mapping and the route table.
import { SCOPE_NAMES } from "@toolhost/protocol/wire";
import { describe, expect, it } from "vitest";
import { readBearerToken } from "../../src/auth/bearer-token.js";
import { RouteTable } from "../../src/http/route-table.js";
import { validationProblem } from "../../src/http/validation-problem.js";
import { SCOPES } from "../../src/storage/records.js";

describe("readBearerToken", () => {
  it("reads the token of a Bearer header, any case of the scheme", () => {
    expect(readBearerToken("Bearer th_abc")).toEqual({ ok: true, token: "th_abc" });
    expect(readBearerToken("bearer th_abc")).toEqual({ ok: true, token: "th_abc" });
  });

  it("tells a missing header from a malformed one", () => {
    expect(readBearerToken(undefined)).toEqual({ ok: false, reason: "missing" });
    for (const header of ["Basic abc", "Bearer", "Bearer a b", "th_abc", `Bearer ${"a".repeat(513)}`, "Bearer tëst"]) {
      expect(readBearerToken(header), header).toEqual({ ok: false, reason: "malformed" });
    }
  });
});

describe("validationProblem", () => {
  it("points at a missing member", () => {
    const error = validationProblem(
      [{ keyword: "required", instancePath: "/tools/0", params: { missingProperty: "a/b" }, message: "x" }],
      "body",
    );
    expect(error.code).toBe("validation_failed");
    expect(error.pointer).toBe("/tools/0/a~1b");
  });

  it("prefers field_removed over any other error", () => {
    const error = validationProblem(
      [
        { keyword: "type", instancePath: "/x", params: { type: "string" }, message: "must be string" },
        {
          keyword: "additionalProperties",
          instancePath: "/tools/1",
          params: { additionalProperty: "max_result_bytes" },
        },
      ],
      "body",
    );
    expect(error.code).toBe("field_removed");
    expect(error.pointer).toBe("/tools/1/max_result_bytes");
    expect(error.details).toMatchObject({ replacement: "max_result_context_bytes" });
  });

  it("names every alternative of a failed union", () => {
    const error = validationProblem(
      [
        { keyword: "type", instancePath: "/agents", params: { type: "string" }, message: "must be string" },
        {
          keyword: "const",
          instancePath: "/agents",
          params: { allowedValue: "*" },
          message: "must be equal to constant",
        },
        { keyword: "type", instancePath: "/agents", params: { type: "array" }, message: "must be array" },
        { keyword: "anyOf", instancePath: "/agents", params: {}, message: "must match a schema in anyOf" },
      ],
      "body",
    );
    expect(error.message).toBe('/agents must be "*" or array');
  });

  it("says where a query error is", () => {
    const error = validationProblem(
      [{ keyword: "minimum", instancePath: "/limit", params: {}, message: "must be >= 1" }],
      "querystring",
    );
    expect(error.message).toBe("/limit in the query must be >= 1");
    expect(error.details).toMatchObject({ in: "query" });
  });
});

describe("RouteTable", () => {
  it("answers the methods of a concrete path", () => {
    const table = new RouteTable();
    table.add("/v1/keys", ["GET", "HEAD"]);
    table.add("/v1/keys", "POST");
    table.add("/v1/keys/:key_id", "DELETE");
    expect(table.allowedMethods("/v1/keys")).toEqual(["GET", "HEAD", "POST"]);
    expect(table.allowedMethods("/v1/keys/key_1")).toEqual(["DELETE"]);
    expect(table.allowedMethods("/v1/keys/key_1/more")).toEqual([]);
    expect(table.allowedMethods("/v1/keysx")).toEqual([]);
  });
});

describe("scope names", () => {
  it("are the same on the wire and in storage", () => {
    expect([...SCOPE_NAMES].sort()).toEqual(Object.keys(SCOPES).sort());
  });
});
