// /v1/executor-bindings: register (ID chosen or made), 409 on a taken ID, read and list within the
// credential's binding scope, paging; creation rules of list-scoped keys.
import { beforeAll, expect, it } from "vitest";
import { createKey, startTestServer, type TestServer } from "../http/http-harness.js";
import { describeEachDialect } from "../support/test-databases.js";
import { admin, createBinding, expectError, ISO_TIME, readAll, snapshot } from "./config-fixtures.js";

describeEachDialect("executor bindings", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });

  it("registers a binding under the ID the product chose: 201 with exactly its fields", async () => {
    const answer = await server.call("POST", "/v1/executor-bindings", {
      ...admin,
      body: { binding_id: "crm.tasks-1", name: "CRM tasks" },
    });
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body).sort()).toEqual(["binding_id", "created_at", "name"]);
    expect(answer.body).toMatchObject({ binding_id: "crm.tasks-1", name: "CRM tasks" });
    expect(answer.body.created_at).toMatch(ISO_TIME);
    const read = await server.call("GET", "/v1/executor-bindings/crm.tasks-1", admin);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(answer.body);
  });

  it("makes a bnd_ ID when none is given", async () => {
    const answer = await server.call("POST", "/v1/executor-bindings", { ...admin, body: { name: "made" } });
    expect(answer.status).toBe(201);
    expect(answer.body.binding_id).toMatch(/^bnd_[0-9a-z]{26}$/);
  });

  it("answers 409 conflict for a taken ID and keeps the first binding", async () => {
    await createBinding(server, "taken");
    const before = await snapshot(server);
    const answer = await server.call("POST", "/v1/executor-bindings", {
      ...admin,
      body: { binding_id: "taken", name: "second" },
    });
    expectError(answer, 409, "conflict", "/binding_id");
    expect((await server.call("GET", "/v1/executor-bindings/taken", admin)).body.name).toBe("binding taken");
    expect(await snapshot(server)).toBe(before);
  });

  it("refuses invalid bodies with 422 and the pointer at fault, storing nothing", async () => {
    const before = await snapshot(server);
    const cases: Array<[unknown, string, string]> = [
      [{}, "validation_failed", "/name"],
      [{ name: "" }, "validation_failed", "/name"],
      [{ name: "x", binding_id: "" }, "validation_failed", "/binding_id"],
      [{ name: "x", binding_id: "has space" }, "validation_failed", "/binding_id"],
      [{ name: "x", binding_id: "a".repeat(129) }, "validation_failed", "/binding_id"],
      [{ name: "x", binding_id: 5 }, "validation_failed", "/binding_id"],
      [{ name: "x", colour: "red" }, "unknown_field", "/colour"],
      [{ name: "x", online_executors: [] }, "unknown_field", "/online_executors"],
    ];
    for (const [body, code, pointer] of cases) {
      expectError(await server.call("POST", "/v1/executor-bindings", { ...admin, body }), 422, code, pointer);
    }
    expect(await snapshot(server)).toBe(before);
  });

  it("answers 404 for an unknown binding", async () => {
    expectError(await server.call("GET", "/v1/executor-bindings/nope", admin), 404, "not_found");
  });

  it("lists bindings in creation order across pages", async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push(await createBinding(server, `paged-${i}`));
    const all = await readAll(server, "/v1/executor-bindings");
    const paged = await readAll(server, "/v1/executor-bindings", admin.key, 2);
    expect(paged.items).toEqual(all.items);
    expect(paged.pages).toBe(Math.ceil(all.items.length / 2));
    const ids = all.items.map((item) => item.binding_id);
    expect(ids.slice(-5)).toEqual(made);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("shows a binding-scoped key only its bindings: others are 404 and absent from the list", async () => {
    await createBinding(server, "mine");
    await createBinding(server, "theirs");
    const { key } = await createKey(server, { name: "scoped", scopes: ["configuration:read"], bindings: ["mine"] });
    expect((await server.call("GET", "/v1/executor-bindings/mine", { key })).status).toBe(200);
    const theirs = await server.call("GET", "/v1/executor-bindings/theirs", { key });
    const missing = await server.call("GET", "/v1/executor-bindings/missing", { key });
    expectError(theirs, 404, "not_found");
    expect(theirs.body.error.message).toBe(missing.body.error.message.replace("missing", "theirs"));
    expect((await readAll(server, "/v1/executor-bindings", key)).items.map((b) => b.binding_id)).toEqual(["mine"]);
  });

  it("lets a list-scoped key register only IDs from its list (403 otherwise)", async () => {
    const { key } = await createKey(server, {
      name: "scoped writer",
      scopes: ["configuration:write", "configuration:read"],
      bindings: ["allowed-1", "taken"],
    });
    const before = await snapshot(server);
    expectError(
      await server.call("POST", "/v1/executor-bindings", { key, body: { name: "x" } }),
      403,
      "forbidden",
      "/binding_id",
    );
    expectError(
      await server.call("POST", "/v1/executor-bindings", { key, body: { binding_id: "elsewhere", name: "x" } }),
      403,
      "forbidden",
      "/binding_id",
    );
    expect(await snapshot(server)).toBe(before);
    const ok = await server.call("POST", "/v1/executor-bindings", {
      key,
      body: { binding_id: "allowed-1", name: "x" },
    });
    expect(ok.status).toBe(201);
    expect((await server.call("GET", "/v1/executor-bindings/allowed-1", { key })).status).toBe(200);
    // The only conflicts such a key can see are on IDs inside its own scope.
    expectError(
      await server.call("POST", "/v1/executor-bindings", { key, body: { binding_id: "taken", name: "x" } }),
      409,
      "conflict",
      "/binding_id",
    );
  });
});
