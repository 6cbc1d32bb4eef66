// SQLite's dependency failures over HTTP, on a real server: a full disk (SQLITE_FULL, made real with
// max_page_count), another process holding the write lock past the busy timeout (SQLITE_BUSY) and a
// database file deleted while open are 503 storage_unavailable with
// Retry-After — never a 500, never a crash, never a write acknowledged into a file that is gone —
// and a refused write leaves nothing half-stored.
import { rm } from "node:fs/promises";
import BetterSqlite3 from "better-sqlite3";
import { type Kysely, sql } from "kysely";
import { expect, it } from "vitest";
import { type Answer, BOOTSTRAP_SECRET, startTestServer, type TestServer } from "../http/http-harness.js";
import { describeDialect } from "../support/test-databases.js";

const admin = { key: BOOTSTRAP_SECRET };

/** The server's own Kysely instance (the storage keeps it private; the test reaches in to break it). */
function databaseOf(server: TestServer): Kysely<unknown> {
  return (server.server.storage as unknown as { connection: { db: Kysely<unknown> } }).connection.db;
}

function expectUnavailable(answer: Answer): void {
  expect({ status: answer.status, code: answer.body?.error?.code }, answer.text).toEqual({
    status: 503,
    code: "storage_unavailable",
  });
  expect(answer.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
}

/** A toolset large enough to need new database pages. */
function bigToolset(name: string) {
  return {
    name,
    tools: [
      {
        name: "bulky",
        description: "x".repeat(200_000),
        binding_id: "sqlite-binding",
        input_schema: { type: "object" },
      },
    ],
  };
}

describeDialect("sqlite", "SQLite failures", () => {
  it("a full disk is 503 storage_unavailable; reads still answer; the refused write left nothing; writes resume", async () => {
    const server = await startTestServer("sqlite");
    const created = await server.call("POST", "/v1/executor-bindings", {
      ...admin,
      body: { binding_id: "sqlite-binding", name: "b" },
    });
    expect(created.status, created.text).toBe(201);
    const db = databaseOf(server);
    const pages = await sql<{ page_count: number }>`pragma page_count`.execute(db);
    await sql.raw(`pragma max_page_count = ${pages.rows[0]?.page_count}`).execute(db);

    const refused = await server.call("POST", "/v1/toolsets", { ...admin, body: bigToolset("refused") });
    expectUnavailable(refused);
    expect((await server.call("GET", "/v1/toolsets", admin)).status).toBe(200);
    expect((await server.call("GET", "/v1/health")).status).toBe(200);

    await sql.raw("pragma max_page_count = 1073741823").execute(db);
    const accepted = await server.call("POST", "/v1/toolsets", { ...admin, body: bigToolset("accepted") });
    expect(accepted.status, accepted.text).toBe(201);
    const listed = await server.call("GET", "/v1/toolsets", admin);
    expect(listed.body.data.map((toolset: { name: string }) => toolset.name)).toEqual(["accepted"]);
    expect(server.logs.text()).not.toContain("internal error");
  });

  it("a database file deleted while open is 503 storage_unavailable (readiness too), not a write into a lost file", async () => {
    const server = await startTestServer("sqlite");
    const before = await server.call("POST", "/v1/executor-bindings", {
      ...admin,
      body: { binding_id: "before", name: "b" },
    });
    expect(before.status, before.text).toBe(201);
    const path = server.database.url.slice("sqlite:".length);
    await rm(path);

    expectUnavailable(
      await server.call("POST", "/v1/executor-bindings", { ...admin, body: { binding_id: "after", name: "b" } }),
    );
    expectUnavailable(await server.call("GET", "/v1/ready"));
    expect((await server.call("GET", "/v1/health")).status).toBe(200);
  });

  it("another process holding the write lock past the busy timeout is 503; reads go on; writes resume", async () => {
    const server = await startTestServer("sqlite");
    const other = new BetterSqlite3(server.database.url.slice("sqlite:".length));
    try {
      other.exec("begin immediate");
      const body = { binding_id: "locked-out", name: "b" };
      expectUnavailable(await server.call("POST", "/v1/executor-bindings", { ...admin, body }));
      expect((await server.call("GET", "/v1/executor-bindings", admin)).status).toBe(200);
      other.exec("rollback");
      const created = await server.call("POST", "/v1/executor-bindings", { ...admin, body });
      expect(created.status, created.text).toBe(201);
    } finally {
      other.close();
    }
  });

  it("readiness answers ready while the file is in place, and is declared in the OpenAPI document", async () => {
    const server = await startTestServer("sqlite");
    const ready = await server.call("GET", "/v1/ready");
    expect(ready.status, ready.text).toBe(200);
    expect(ready.body).toEqual({ status: "ready", storage: "available" });
    const doc = (await server.call("GET", "/v1/openapi.json")).body;
    const operation = doc.paths["/v1/ready"].get;
    expect(operation.security).toEqual([]);
    const readiness =
      doc.components.schemas[operation.responses["200"].content["application/json"].schema.$ref.split("/").pop()];
    expect(readiness.properties.status).toMatchObject({ const: "ready" });
    const unavailable = operation.responses["503"].content["application/json"].schema.properties.error.allOf[1];
    expect(unavailable.properties.code.enum).toContain("storage_unavailable");
  });
});
