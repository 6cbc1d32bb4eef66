// Which storage failures are "the database is unavailable" (503 storage_unavailable) and which are
// bugs (500): the classifier over driver errors, real ones where they can be made here, and the
// HTTP answer of each.
import { createServer } from "node:net";
import { ProtocolError } from "@toolhost/protocol";
import { sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { errorAnswer, STORAGE_RETRY_AFTER_SECONDS } from "../../src/http/error-answer.js";
import { connectDatabase } from "../../src/storage/engine/connect-database.js";
import {
  asStorageFailure,
  isDatabaseUnavailable,
  isStorageUnavailableError,
  StorageUnavailableError,
} from "../../src/storage/storage-unavailable.js";
import { describeDialect, testDatabaseUrl } from "../support/test-databases.js";

/** An Error with a driver's `code`. */
function coded(code: string, message = `failure ${code}`): Error {
  return Object.assign(new Error(message), { code });
}

describe("isDatabaseUnavailable", () => {
  it.each([
    ["connection refused", coded("ECONNREFUSED")],
    ["connection reset", coded("ECONNRESET")],
    ["host unreachable", coded("EHOSTUNREACH")],
    ["admin shutdown (pg_ctl stop)", coded("57P01", "terminating connection due to administrator command")],
    ["crash shutdown", coded("57P02")],
    ["server starting up", coded("57P03", "the database system is starting up")],
    ["statement_timeout", coded("57014", "canceling statement due to statement timeout")],
    ["lock not available", coded("55P03")],
    ["a connection exception", coded("08006")],
    ["too many connections", coded("53300")],
    ["disk full", coded("53100")],
    ["an I/O error", coded("58030")],
    ["a connection cut mid-query", new Error("Connection terminated unexpectedly")],
    ["a connect timeout", new Error("Connection terminated due to connection timeout")],
    ["a pool wait timeout", new Error("timeout exceeded when trying to connect")],
    ["a read timeout", new Error("Query read timeout")],
    ["a broken client reused", new Error("Client has encountered a connection error and is not queryable")],
    ["SQLite busy", coded("SQLITE_BUSY", "database is locked")],
    ["SQLite busy snapshot", coded("SQLITE_BUSY_SNAPSHOT")],
    ["SQLite I/O error", coded("SQLITE_IOERR_WRITE", "disk I/O error")],
    ["SQLite disk full", coded("SQLITE_FULL", "database or disk is full")],
    ["SQLite file moved", coded("SQLITE_READONLY_DBMOVED")],
    ["SQLite cannot open", coded("SQLITE_CANTOPEN")],
    ["a cause two levels down", new Error("outer", { cause: new Error("middle", { cause: coded("ECONNREFUSED") }) })],
    ["an already translated failure", new StorageUnavailableError("storage is unavailable")],
  ])("%s is unavailability", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a unique violation", coded("23505", "duplicate key value violates unique constraint")],
    ["a syntax error", coded("42601")],
    ["a missing table", coded("42P01")],
    ["a serialization failure", coded("40001")],
    ["an SQLite constraint", coded("SQLITE_CONSTRAINT_PRIMARYKEY")],
    ["a corrupt SQLite file", coded("SQLITE_CORRUPT")],
    ["an SQLite misuse", coded("SQLITE_MISUSE")],
    ["a protocol error", new ProtocolError("conflict", "Connection terminated")],
    ["a plain bug", new TypeError("Cannot read properties of undefined")],
    ["a thrown string", "ECONNREFUSED"],
  ])("%s is not", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it("survives a cause cycle", () => {
    const a = new Error("a");
    const b = new Error("b", { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(isDatabaseUnavailable(a)).toBe(false);
  });

  it("the real error of a refused PostgreSQL connection is unavailability", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
      });
    });
    const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", connectionTimeoutMillis: 2_000 });
    const error = await client.connect().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    await client.end().catch(() => undefined);
    expect(error).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });
});

describe("asStorageFailure", () => {
  it("wraps unavailability (keeping the driver's error as cause) and passes everything else through", () => {
    const refused = coded("ECONNREFUSED");
    const wrapped = asStorageFailure(refused);
    expect(isStorageUnavailableError(wrapped)).toBe(true);
    expect((wrapped as Error).cause).toBe(refused);
    expect(asStorageFailure(wrapped)).toBe(wrapped);
    const bug = coded("23505");
    expect(asStorageFailure(bug)).toBe(bug);
  });
});

describe("the HTTP answer of a storage failure", () => {
  const context = { bodyLimitBytes: 1024 };

  it("unavailability is 503 storage_unavailable with Retry-After, a fixed message, and no stack logged", () => {
    const answer = errorAnswer(asStorageFailure(coded("ECONNREFUSED", "connect ECONNREFUSED 10.1.2.3:5432")), context);
    expect(answer).toEqual({
      status: 503,
      headers: { "retry-after": String(STORAGE_RETRY_AFTER_SECONDS) },
      body: { error: { code: "storage_unavailable", message: "storage is unavailable; retry later" } },
      internal: false,
    });
  });

  it("any other storage error stays a 500 internal_error (logged)", () => {
    const answer = errorAnswer(coded("23505"), context);
    expect(answer.status).toBe(500);
    expect(answer.body.error.code).toBe("internal_error");
    expect(answer.internal).toBe(true);
  });
});

describeDialect("postgres", "the statement timeout", () => {
  it("cancels a statement that runs too long, as unavailability, and leaves the connection usable", async () => {
    const database = await testDatabaseUrl("postgres");
    const connection = await connectDatabase(database.url, { connectTimeoutMs: 2_000, queryTimeoutMs: 200 });
    try {
      const error = await sql`select pg_sleep(5)`.execute(connection.db).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toMatchObject({ code: "57014" });
      expect(isDatabaseUnavailable(error)).toBe(true);
      const row = await sql<{ one: number }>`select 1 as one`.execute(connection.db);
      expect(row.rows).toEqual([{ one: 1 }]);
    } finally {
      await connection.db.destroy();
    }
  });
});
