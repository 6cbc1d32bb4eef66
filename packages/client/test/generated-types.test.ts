// The committed client types and document are those of the current server: regenerate them with
// `npm run generate -w @toolhost/client` when this fails.
import { readFileSync } from "node:fs";
import { beforeAll, expect, it } from "vitest";
import { startTestServer } from "../../server/test/http/http-harness.js";
import { describeDialect } from "../../server/test/support/test-databases.js";
import { openapiTypes } from "../scripts/openapi-types.mjs";

const committedTypes = readFileSync(new URL("../src/generated/openapi.ts", import.meta.url), "utf8");
const committedDocument = JSON.parse(readFileSync(new URL("../openapi.json", import.meta.url), "utf8"));

describeDialect("sqlite", "the generated client types", () => {
  let document: unknown;
  beforeAll(async () => {
    // The committed document names the default address, as `npm run generate` serves it.
    const server = await startTestServer("sqlite", { publicUrl: "http://127.0.0.1:8080" });
    document = (await server.call("GET", "/v1/openapi.json")).body;
  });

  it("are generated from the served document (npm run generate -w @toolhost/client)", async () => {
    expect(committedDocument, "packages/client/openapi.json is stale").toEqual(document);
    expect((await openapiTypes(document)) === committedTypes, "src/generated/openapi.ts is stale").toBe(true);
  }, 120_000);

  it("type every operation by its operationId", () => {
    expect(committedTypes).toMatch(/export interface operations \{\n {4}getHealth: \{/);
    expect(committedTypes).toContain("sendReceipt: {");
    expect(committedTypes).not.toContain("operations = Record<string, never>");
  });
});
