/**
 * Test databases for every dialect: a fresh SQLite file in a temp directory, or a fresh PostgreSQL
 * schema `t_<random>` in the database at TOOLHOST_TEST_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test). Everything created here is removed after the test file
 * (or earlier, through the dispose function).
 *
 * PostgreSQL is probed once when this module loads (once per test file, since vitest isolates test
 * files). When it does not answer, its suites are skipped under a title that says so, with one
 * console.warn line — except under CI=true, where a test named after the problem fails instead.
 */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeEach, describe, it } from "vitest";
import { redactDatabaseUrl } from "../../src/storage/database-url.js";
import type { KyselyStorage } from "../../src/storage/kysely-storage.js";
import { type OpenStorageOptions, openStorage } from "../../src/storage/open-storage.js";
import type { Dialect } from "../../src/storage/storage.js";

/** Every dialect the server supports, in the order suites run. */
export const TEST_DIALECTS: readonly Dialect[] = ["sqlite", "postgres"];

/** The PostgreSQL database test schemas are created in. */
export const TEST_POSTGRES_URL = process.env.TOOLHOST_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** A fresh database for one test (or suite): its URL and how to remove it. */
export interface TestDatabase {
  readonly dialect: Dialect;
  /** The database URL to open (or to hand to a spawned server process). */
  readonly url: string;
  /** Removes the database (SQLite: its directory; PostgreSQL: its schema). Calling it again is harmless. */
  dispose(): Promise<void>;
}

async function probePostgres(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query("select 1");
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Why PostgreSQL cannot be used in this run, or undefined when it answers. */
export const POSTGRES_PROBLEM: string | undefined = await probePostgres(TEST_POSTGRES_URL);

const requirePostgres = process.env.CI === "true";
const shownUrl = redactDatabaseUrl(TEST_POSTGRES_URL);
if (POSTGRES_PROBLEM !== undefined && !requirePostgres) {
  console.warn(`PostgreSQL not reachable at ${shownUrl} (${POSTGRES_PROBLEM}): skipping the PostgreSQL variants`);
}

const cleanups = new Set<() => Promise<void>>();

afterAll(async () => {
  // Storages close before their databases are removed (the set keeps insertion order, reversed here).
  for (const cleanup of [...cleanups].reverse()) await cleanup();
  cleanups.clear();
});

async function withPostgresClient<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Creates a fresh, empty database of `dialect` (not migrated) and answers its URL. */
export async function testDatabaseUrl(dialect: Dialect): Promise<TestDatabase> {
  let remove: () => Promise<void>;
  let url: string;
  if (dialect === "sqlite") {
    const dir = await mkdtemp(join(tmpdir(), "toolhost-test-"));
    url = `sqlite:${join(dir, "toolhost.db")}`;
    remove = () => rm(dir, { recursive: true, force: true });
  } else {
    if (POSTGRES_PROBLEM !== undefined) {
      throw new Error(`PostgreSQL not reachable at ${shownUrl}: ${POSTGRES_PROBLEM}`);
    }
    const schema = `t_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
    await withPostgresClient((client) => client.query(`create schema "${schema}"`));
    const parsed = new URL(TEST_POSTGRES_URL);
    parsed.searchParams.set("schema", schema);
    url = parsed.toString();
    remove = () =>
      withPostgresClient(async (client) => void (await client.query(`drop schema if exists "${schema}" cascade`)));
  }
  let disposed: Promise<void> | undefined;
  const dispose = (): Promise<void> => {
    disposed ??= remove();
    return disposed;
  };
  cleanups.add(dispose);
  return { dialect, url, dispose };
}

/** Opens a migrated storage on a fresh database; closed and removed after the test file. */
export async function createTestStorage(dialect: Dialect, options: OpenStorageOptions = {}): Promise<KyselyStorage> {
  const database = await testDatabaseUrl(dialect);
  const storage = await openStorage(database.url, options);
  cleanups.add(() => storage.close());
  return storage;
}

/**
 * Gives every test of the enclosing suite its own fresh, migrated storage (closed and removed after
 * the test); call the returned function inside a test to get it.
 */
export function useTestStorage(dialect: Dialect, options: OpenStorageOptions = {}): () => KyselyStorage {
  let current: { storage: KyselyStorage; database: TestDatabase } | undefined;
  beforeEach(async () => {
    const database = await testDatabaseUrl(dialect);
    current = { storage: await openStorage(database.url, options), database };
  });
  afterEach(async () => {
    const done = current;
    current = undefined;
    if (done === undefined) return;
    await done.storage.close();
    await done.database.dispose();
  });
  return () => {
    if (current === undefined) throw new Error("useTestStorage: the storage exists only while a test runs");
    return current.storage;
  };
}

/**
 * Declares the suite `fn` once per dialect, titled `name [dialect]`. The one loop over every dialect:
 * storage contract tests and HTTP tests alike go through it.
 */
export function describeEachDialect(name: string, fn: (dialect: Dialect) => void): void {
  for (const dialect of TEST_DIALECTS) describeDialect(dialect, name, () => fn(dialect));
}

/**
 * Declares the suite `fn` for one dialect, titled `name [dialect]`. Without a reachable PostgreSQL a
 * PostgreSQL suite is skipped under a title saying so — or, under CI=true, replaced by a failing test.
 */
export function describeDialect(dialect: Dialect, name: string, fn: () => void): void {
  const title = `${name} [${dialect}]`;
  if (dialect !== "postgres" || POSTGRES_PROBLEM === undefined) {
    describe(title, fn);
  } else if (requirePostgres) {
    describe(title, () => {
      it(`needs PostgreSQL at ${shownUrl} (CI=true)`, () => {
        throw new Error(
          `PostgreSQL is required under CI=true and is not reachable at ${shownUrl}: ${POSTGRES_PROBLEM}`,
        );
      });
    });
  } else {
    describe.skip(`${title} — skipped: PostgreSQL not reachable at ${shownUrl}`, fn);
  }
}
