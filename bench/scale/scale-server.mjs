/**
 * The server a bench/scale case measures: `toolhost serve` in a child process (bench/protocol's
 * startToolhost) on a fresh SQLite file or PostgreSQL schema, with bench/protocol's world (one
 * binding, one tool, a scripted agent whose runs make one call each, a producer and an executor key),
 * and a direct connection to its database for cases that fill it faster than the API could.
 */

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { dropSchema, postgresProblem } from "../protocol/index.mjs";
import { startToolhost } from "../protocol/server-process.mjs";
import { buildWorld } from "../protocol/world.mjs";

const POSTGRES_URL = process.env.TOOLHOST_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

/** Both dialects, in the order cases run them. */
export const DIALECTS = [
  { dialect: "sqlite", label: "SQLite" },
  { dialect: "postgres", label: "PostgreSQL" },
];

/**
 * Starts a server for `dialect`; answers undefined (logged) when PostgreSQL does not answer.
 * `sql(text, params)` runs one statement on the server's database (`?` placeholders on both dialects).
 */
export async function startScaleServer(dialect, log, env = {}) {
  const dir = mkdtempSync(join(tmpdir(), "toolhost-bench-scale-"));
  const key = `bench-${randomBytes(16).toString("hex")}`;
  let databaseUrl;
  let schema;
  if (dialect === "sqlite") databaseUrl = `sqlite:${join(dir, "bench.db")}`;
  else {
    if (new URL(POSTGRES_URL).hostname !== "127.0.0.1") throw new Error(`${POSTGRES_URL}: 127.0.0.1 only`);
    const problem = await postgresProblem(POSTGRES_URL);
    if (problem !== undefined) {
      log(`PostgreSQL at ${POSTGRES_URL} does not answer (${problem}): skipped`);
      rmSync(dir, { recursive: true, force: true });
      return undefined;
    }
    schema = `bench_${randomBytes(6).toString("hex")}`;
    databaseUrl = `${POSTGRES_URL}${POSTGRES_URL.includes("?") ? "&" : "?"}schema=${schema}`;
  }
  const server = await startToolhost({
    databaseUrl,
    env: { TOOLHOST_BOOTSTRAP_KEY: key, TOOLHOST_LOG_LEVEL: "warn", ...env },
    logFile: join(dir, "server.log"),
  });
  const world = await buildWorld(server.url, key);
  let sql;
  let closeDatabase;
  if (dialect === "sqlite") {
    const database = new Database(join(dir, "bench.db"));
    database.pragma("busy_timeout = 10000");
    sql = async (text, params = []) => {
      const statement = database.prepare(text);
      if (statement.reader) return statement.all(...params);
      statement.run(...params);
      return [];
    };
    closeDatabase = async () => database.close();
  } else {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(`set search_path to "${schema}"`);
    sql = async (text, params = []) => {
      let n = 0;
      return (
        await client.query(
          text.replace(/\?/g, () => `$${++n}`),
          params,
        )
      ).rows;
    };
    closeDatabase = () => client.end();
  }
  return {
    dialect,
    url: server.url,
    pid: server.pid,
    world,
    sql,
    async stop() {
      await closeDatabase();
      await server.stop();
      if (schema !== undefined) await dropSchema(POSTGRES_URL, schema);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The `q`-quantile of `values` (nearest rank). */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}
