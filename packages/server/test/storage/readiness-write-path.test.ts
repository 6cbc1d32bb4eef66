// Readiness reports a failing write path, on a real server: SQLite answering reads while its file
// cannot grow (a full disk, made real with max_page_count as sqlite-failures.test.ts does) or its
// connection is read-only, and PostgreSQL answering reads while the database is read-only
// (default_transaction_read_only, as on a hot standby) — each is 503 storage_unavailable, the log
// says why, and readiness is back as soon as writes can succeed again.
import { type Kysely, sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { MIN_WRITE_ROOM_BYTES, writePathProblem } from "../../src/storage/engine/write-path-check.js";
import { BOOTSTRAP_SECRET, startTestServer, type TestServer } from "../http/http-harness.js";
import { describeDialect, TEST_POSTGRES_URL } from "../support/test-databases.js";

const admin = { key: BOOTSTRAP_SECRET };

/** The server's own Kysely instance (the storage keeps it private; the test reaches in to break it). */
function databaseOf(server: TestServer): Kysely<unknown> {
  return (server.server.storage as unknown as { connection: { db: Kysely<unknown> } }).connection.db;
}

async function readiness(server: TestServer): Promise<{ status: number; code: unknown }> {
  const answer = await server.call("GET", "/v1/ready");
  return { status: answer.status, code: answer.body?.error?.code ?? answer.body?.status };
}

describe("writePathProblem", () => {
  it("names what would make writes fail, and nothing when they can succeed", () => {
    const room = { dialect: "sqlite", roomInFileBytes: 10 * MIN_WRITE_ROOM_BYTES, queryOnly: false } as const;
    expect(writePathProblem({ ...room, freeOnDiskBytes: 10 * MIN_WRITE_ROOM_BYTES })).toBeUndefined();
    expect(writePathProblem({ ...room, freeOnDiskBytes: undefined })).toBeUndefined();
    expect(writePathProblem({ ...room, freeOnDiskBytes: 4096 })).toContain("4096 bytes free");
    expect(writePathProblem({ ...room, freeOnDiskBytes: undefined, roomInFileBytes: 0 })).toContain("max_page_count");
    expect(writePathProblem({ ...room, freeOnDiskBytes: undefined, queryOnly: true })).toContain("read-only");
    expect(writePathProblem({ dialect: "postgres", readOnly: false })).toBeUndefined();
    expect(writePathProblem({ dialect: "postgres", readOnly: true })).toContain("read-only");
  });
});

describeDialect("sqlite", "readiness on SQLite", () => {
  it("is 503 while the file cannot grow (writes fail), 200 again once it can", async () => {
    const server = await startTestServer("sqlite", { logLevel: "warn" });
    expect(await readiness(server)).toEqual({ status: 200, code: "ready" });
    const db = databaseOf(server);
    const pages = await sql<{ page_count: number }>`pragma page_count`.execute(db);
    await sql.raw(`pragma max_page_count = ${pages.rows[0]?.page_count}`).execute(db);
    // The write path does fail: a write that needs room is refused.
    const toolset = {
      name: "big",
      tools: [{ name: "a.b", description: "x".repeat(200_000), binding_id: "b", input_schema: { type: "object" } }],
    };
    await server.call("POST", "/v1/executor-bindings", { ...admin, body: { binding_id: "b", name: "b" } });
    expect((await server.call("POST", "/v1/toolsets", { ...admin, body: toolset })).status).toBe(503);
    expect(await readiness(server)).toEqual({ status: 503, code: "storage_unavailable" });
    expect((await server.call("GET", "/v1/health")).status).toBe(200);
    expect(server.logs.text()).toContain("max_page_count");

    await sql.raw("pragma max_page_count = 1073741823").execute(db);
    expect(await readiness(server)).toEqual({ status: 200, code: "ready" });
    expect((await server.call("POST", "/v1/toolsets", { ...admin, body: toolset })).status).toBe(201);
  });

  it("is 503 while the connection is read-only", async () => {
    const server = await startTestServer("sqlite", { logLevel: "warn" });
    const db = databaseOf(server);
    await sql.raw("pragma query_only = on").execute(db);
    expect(
      (await server.call("POST", "/v1/executor-bindings", { ...admin, body: { binding_id: "r", name: "r" } })).status,
    ).toBe(503);
    expect(await readiness(server)).toEqual({ status: 503, code: "storage_unavailable" });
    await sql.raw("pragma query_only = off").execute(db);
    expect(await readiness(server)).toEqual({ status: 200, code: "ready" });
  });
});

describeDialect("postgres", "readiness on PostgreSQL", () => {
  it("is 503 while the database is read-only (writes fail), 200 again once it is not", async () => {
    const name = `toolhost_ready_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const operator = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await operator.connect();
    // The server's sessions take the database's defaults when they connect: end them so they reconnect.
    const reconnectAll = () =>
      operator.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
        [name],
      );
    let server: TestServer | undefined;
    try {
      await operator.query(`create database "${name}"`);
      const url = new URL(TEST_POSTGRES_URL);
      url.pathname = `/${name}`;
      server = await startTestServer(
        "postgres",
        { logLevel: "warn" },
        {
          dialect: "postgres",
          url: url.toString(),
          dispose: async () => undefined,
        },
      );
      expect(await readiness(server)).toEqual({ status: 200, code: "ready" });

      await operator.query(`alter database "${name}" set default_transaction_read_only = on`);
      await reconnectAll();
      // Terminated pool clients fail once (503) while the pool replaces them; then reads answer again.
      await readiness(server);
      for (let i = 0; i < 20 && (await server.call("GET", "/v1/executor-bindings", admin)).status !== 200; i++);
      expect((await server.call("GET", "/v1/executor-bindings", admin)).status).toBe(200);
      const write = await server.call("POST", "/v1/executor-bindings", {
        ...admin,
        body: { binding_id: "ro", name: "r" },
      });
      expect(write.status, write.text).toBe(503);
      expect(await readiness(server)).toEqual({ status: 503, code: "storage_unavailable" });
      expect(server.logs.text()).toContain("read-only");

      await operator.query(`alter database "${name}" reset default_transaction_read_only`);
      await reconnectAll();
      for (let i = 0; i < 20 && (await readiness(server)).status !== 200; i++);
      expect(await readiness(server)).toEqual({ status: 200, code: "ready" });
      const created = await server.call("POST", "/v1/executor-bindings", {
        ...admin,
        body: { binding_id: "rw", name: "r" },
      });
      expect(created.status, created.text).toBe(201);
    } finally {
      await server?.close();
      await operator.query(`drop database if exists "${name}" with (force)`);
      await operator.end();
    }
  });
});
