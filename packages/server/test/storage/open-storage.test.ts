// Database URLs and opening storage: schemes, SQLite settings, PostgreSQL schemas, type parsing and timeouts.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { parseDatabaseUrl, redactDatabaseUrl } from "../../src/storage/database-url.js";
import { connectDatabase, PREPARED_STATEMENTS_VARIABLE } from "../../src/storage/engine/connect-database.js";
import { openStorage } from "../../src/storage/open-storage.js";
import { bindingRecord } from "../support/storage-fixtures.js";
import { describeDialect, TEST_POSTGRES_URL } from "../support/test-databases.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("parseDatabaseUrl", () => {
  it("reads SQLite paths, relative, absolute and in memory", () => {
    expect(parseDatabaseUrl("sqlite:./data/toolhost.db")).toEqual({ dialect: "sqlite", path: "./data/toolhost.db" });
    expect(parseDatabaseUrl("sqlite:toolhost.db")).toEqual({ dialect: "sqlite", path: "toolhost.db" });
    expect(parseDatabaseUrl("sqlite:/var/lib/toolhost.db")).toEqual({
      dialect: "sqlite",
      path: "/var/lib/toolhost.db",
    });
    expect(parseDatabaseUrl("sqlite:///var/lib/toolhost.db")).toEqual({
      dialect: "sqlite",
      path: "/var/lib/toolhost.db",
    });
    expect(parseDatabaseUrl("SQLite::memory:")).toEqual({ dialect: "sqlite", path: ":memory:" });
    expect(() => parseDatabaseUrl("sqlite:")).toThrow(/needs a path/);
  });

  it("reads PostgreSQL URLs and turns ?schema= into a search_path startup option", () => {
    expect(parseDatabaseUrl("postgres://u:p@db.example:5432/app")).toEqual({
      dialect: "postgres",
      connectionString: "postgres://u:p@db.example:5432/app",
      schema: undefined,
      options: undefined,
    });
    expect(parseDatabaseUrl("postgresql://u@h/app?schema=Tenant_1&sslmode=disable")).toEqual({
      dialect: "postgres",
      connectionString: "postgresql://u@h/app?sslmode=disable",
      schema: "Tenant_1",
      options: '-c search_path="Tenant_1"',
    });
    expect(parseDatabaseUrl("postgres://u@h/app?options=-c%20statement_timeout%3D5000&schema=s")).toMatchObject({
      connectionString: "postgres://u@h/app",
      options: '-c statement_timeout=5000 -c search_path="s"',
    });
  });

  it("refuses unknown schemes, bad schema names and malformed URLs with clear messages and no password", () => {
    expect(() => parseDatabaseUrl("mysql://root:secret@h/db")).toThrow(
      'unsupported database URL (scheme "mysql:"): use sqlite:PATH, sqlite::memory:, postgres://… or postgresql://…',
    );
    expect(() => parseDatabaseUrl("toolhost.db")).toThrow(/unsupported database URL \(no scheme\)/);
    expect(() => parseDatabaseUrl("postgres://u@h/db?schema=a-b")).toThrow(/schema "a-b" is not a plain identifier/);
    expect(() => parseDatabaseUrl("postgres://u@h/db?schema=a&schema=b")).toThrow(/more than once/);
    expect(() => parseDatabaseUrl("postgres://u:secret@[bad/db")).toThrow(
      "malformed PostgreSQL URL: postgres://u:****@[bad/db",
    );
  });

  it("redacts passwords", () => {
    expect(redactDatabaseUrl("postgres://user:s3cr%40t@host:5432/db?x=1")).toBe(
      "postgres://user:****@host:5432/db?x=1",
    );
    expect(redactDatabaseUrl("postgres://user@host/db")).toBe("postgres://user@host/db");
    expect(redactDatabaseUrl("sqlite:./a:b@c.db")).toBe("sqlite:./a:b@c.db");
  });
});

describe("openStorage", () => {
  it("refuses an unknown scheme", async () => {
    await expect(openStorage("mysql://localhost/db")).rejects.toThrow(/unsupported database URL \(scheme "mysql:"\)/);
  });

  it("opens an in-memory SQLite database, migrated", async () => {
    const storage = await openStorage("sqlite::memory:");
    cleanups.push(() => storage.close());
    expect(storage.dialect).toBe("sqlite");
    expect(await storage.transaction((t) => t.bindings.insert(bindingRecord("b1")))).toBe(true);
    expect(await storage.bindings.get("b1", "*")).toEqual(bindingRecord("b1"));
  });

  it("refuses a SQLite path whose directory does not exist, creating nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "toolhost-open-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await expect(connectDatabase(`sqlite:${join(dir, "nested", "deeper", "toolhost.db")}`)).rejects.toThrow(
      /directory .*nested.* does not exist/,
    );
    expect(existsSync(join(dir, "nested"))).toBe(false);
  });

  it("sets WAL, synchronous=NORMAL with the server's own WAL fsync, foreign keys, a busy timeout and in-memory sorts", async () => {
    const dir = await mkdtemp(join(tmpdir(), "toolhost-open-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const url = `sqlite:${join(dir, "toolhost.db")}`;
    const connection = await connectDatabase(url);
    cleanups.push(() => connection.db.destroy());
    const pragma = async (name: string) =>
      Object.values((await sql.raw(`pragma ${name}`).execute(connection.db)).rows[0] ?? {})[0];
    expect(await pragma("journal_mode")).toBe("wal");
    expect(await pragma("synchronous")).toBe(1); // NORMAL: the storage fsyncs the WAL itself, off the event loop
    expect(connection.walSync).toBeDefined();
    expect(await pragma("foreign_keys")).toBe(1);
    expect(await pragma("busy_timeout")).toBe(5000);
    expect(await pragma("temp_store")).toBe(2); // MEMORY
  });

  it("leaves the database empty with migrate: false", async () => {
    const storage = await openStorage("sqlite::memory:", { migrate: false });
    cleanups.push(() => storage.close());
    await expect(storage.bindings.get("b1", "*")).rejects.toThrow(/no such table/);
  });

  it("enforces foreign keys: a version of an unknown toolset is refused", async () => {
    const storage = await openStorage("sqlite::memory:");
    cleanups.push(() => storage.close());
    await storage.agents.insert({ agent_id: "a1", name: "A", created_at_ms: 1 });
    const version = {
      agent_version: "av1",
      agent_id: "a1",
      toolset_id: "nope",
      toolset_version: 1,
      model_json: "{}",
      instructions: "",
      max_context_tokens: 1,
      max_turns: null,
      max_tool_calls: null,
      run_timeout_ms: null,
      created_at_ms: 1,
    };
    await expect(storage.agents.appendVersion(version)).rejects.toThrow(/FOREIGN KEY/);
    expect(await storage.agents.listVersions("a1", { limit: 10 })).toEqual({ items: [], next_cursor: null });
  });
});

describeDialect("postgres", "openStorage", () => {
  const withSchema = (schema: string) => {
    const url = new URL(TEST_POSTGRES_URL);
    url.searchParams.set("schema", schema);
    return url.toString();
  };
  const dropSchema = (schema: string) => async () => {
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  };

  it("migrates without the statement timeout (here: waiting out another instance's migration lock), then serves with it", async () => {
    const schema = `t_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    cleanups.push(dropSchema(schema));
    // Kysely's PostgreSQL migration lock: another instance migrating holds it.
    const holder = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query("select pg_advisory_lock(3853314791062309107)");
    const opening = openStorage(withSchema(schema), { timeouts: { connectTimeoutMs: 5_000, queryTimeoutMs: 200 } });
    await new Promise((resolve) => setTimeout(resolve, 800));
    await holder.query("select pg_advisory_unlock(3853314791062309107)");
    const storage = await opening;
    cleanups.push(() => storage.close());
    expect(await storage.bindings.insert(bindingRecord("b1"))).toBe(true);
    const db = (storage as unknown as { connection: { db: Kysely<unknown> } }).connection.db;
    await expect(sql`select pg_sleep(2)`.execute(db)).rejects.toMatchObject({ code: "57014" });
  });

  it("runs generic plans on every connection unless the URL's own options say otherwise", async () => {
    const suffix = crypto.randomUUID().replaceAll("-", "").slice(0, 12);
    const [a, b] = [`t_${suffix}_g`, `t_${suffix}_o`];
    cleanups.push(dropSchema(a), dropSchema(b));
    const setting = async (url: string) => {
      const storage = await openStorage(url);
      cleanups.push(() => storage.close());
      const db = (storage as unknown as { connection: { db: Kysely<unknown> } }).connection.db;
      const { rows } = await sql<{
        mode: string;
        path: string;
      }>`select current_setting('plan_cache_mode') as mode, current_setting('search_path') as path`.execute(db);
      return rows[0];
    };
    expect(await setting(withSchema(a))).toEqual({ mode: "force_generic_plan", path: `"${a}"` });
    const own = new URL(withSchema(b));
    own.searchParams.set("options", "-c plan_cache_mode=auto");
    expect(await setting(own.toString())).toEqual({ mode: "auto", path: `"${b}"` });
    // Without prepared statements (a pooler that may refuse startup options) only the URL's are sent.
    const saved = process.env[PREPARED_STATEMENTS_VARIABLE];
    process.env[PREPARED_STATEMENTS_VARIABLE] = "off";
    try {
      expect(await setting(withSchema(b))).toEqual({ mode: "auto", path: `"${b}"` });
    } finally {
      if (saved === undefined) delete process.env[PREPARED_STATEMENTS_VARIABLE];
      else process.env[PREPARED_STATEMENTS_VARIABLE] = saved;
    }
  });

  it("creates the ?schema= schema when missing and keeps schemas apart", async () => {
    const suffix = crypto.randomUUID().replaceAll("-", "").slice(0, 12);
    const [a, b] = [`t_${suffix}_A`, `t_${suffix}_b`];
    cleanups.push(dropSchema(a), dropSchema(b));
    const first = await openStorage(withSchema(a));
    cleanups.push(() => first.close());
    const second = await openStorage(withSchema(b));
    cleanups.push(() => second.close());
    await first.bindings.insert(bindingRecord("b1", 1_796_000_000_000));
    expect(await first.bindings.get("b1", "*")).toEqual(bindingRecord("b1", 1_796_000_000_000));
    expect(await second.bindings.get("b1", "*")).toBeUndefined();
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    cleanups.push(() => client.end());
    const tables = await client.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = $1 order by table_name",
      [a],
    );
    expect(tables.rows.map((row) => row.table_name)).toEqual([
      "agent_versions",
      "agents",
      "bindings",
      "execution_history",
      "executors",
      "keys",
      "model_requests",
      "model_turns",
      "receipts",
      "run_events",
      "runs",
      "server_secrets",
      "sessions",
      "token_calibrations",
      "tool_calls",
      "toolhost_migrations",
      "toolhost_migrations_lock",
      "toolset_bindings",
      "toolset_versions",
      "toolsets",
    ]);
  });

  it("reads int8 as numbers through its own pool, leaving pg's global parsers alone", async () => {
    const schema = `t_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
    cleanups.push(dropSchema(schema));
    const storage = await openStorage(withSchema(schema));
    cleanups.push(() => storage.close());
    await storage.keys.insert({
      key_id: "k1",
      name: "k",
      key_hash: "ab",
      scopes: [],
      agents: [],
      bindings: "*",
      connections: "*",
      created_at_ms: 2 ** 53 - 1,
      revoked_at_ms: null,
    });
    expect((await storage.keys.get("k1"))?.created_at_ms).toBe(2 ** 53 - 1);
    expect(pg.types.getTypeParser(20)("12345678901234567890")).toBe("12345678901234567890");
  });

  it("reports an unreachable server clearly, without the password", async () => {
    await expect(openStorage("postgres://postgres:secret@127.0.0.1:1/test")).rejects.toThrow(
      /^cannot open PostgreSQL at postgres:\/\/postgres:\*\*\*\*@127\.0\.0\.1:1\/test: /,
    );
  });
});
