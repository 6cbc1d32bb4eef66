// The SQLite prepared-statement cache: statements reused by SQL text, bounded, never caching failures,
// and still correct after the schema changed under a cached statement.
import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { StatementCachingDatabase } from "../../src/storage/engine/sqlite-statement-cache.js";

const open: StatementCachingDatabase[] = [];
afterEach(() => {
  for (const database of open.splice(0)) database.close();
});

function cachingDatabase(capacity?: number): StatementCachingDatabase {
  const database = new StatementCachingDatabase(new BetterSqlite3(":memory:"), capacity);
  open.push(database);
  return database;
}

describe("StatementCachingDatabase", () => {
  it("prepares a SQL text once and hands out the same statement again", () => {
    const db = cachingDatabase();
    db.prepare("create table t (a integer)").run([]);
    const insert = db.prepare("insert into t (a) values (?)");
    insert.run([1]);
    expect(db.prepare("insert into t (a) values (?)")).toBe(insert);
    db.prepare("insert into t (a) values (?)").run([2]);
    expect(db.prepare("select a from t order by a").all([])).toEqual([{ a: 1 }, { a: 2 }]);
    expect(db.stats()).toEqual({ prepared: 3, reused: 2, size: 3 });
  });

  it("keeps at most `capacity` statements, dropping the least recently used", () => {
    const db = cachingDatabase(2);
    const one = db.prepare("select 1 as v");
    const two = db.prepare("select 2 as v");
    expect(db.prepare("select 1 as v")).toBe(one);
    db.prepare("select 3 as v");
    expect(db.stats().size).toBe(2);
    // `select 2` was the least recently used: it is prepared again; `select 1` was kept.
    expect(db.prepare("select 1 as v")).toBe(one);
    expect(db.prepare("select 2 as v")).not.toBe(two);
    expect(db.prepare("select 2 as v").all([])).toEqual([{ v: 2 }]);
  });

  it("never caches a statement that failed to prepare", () => {
    const db = cachingDatabase();
    expect(() => db.prepare("select * from missing")).toThrow(/no such table/);
    db.prepare("create table missing (a integer)").run([]);
    expect(db.prepare("select * from missing").all([])).toEqual([]);
    expect(db.stats().size).toBe(2);
  });

  it("answers by the current schema after it changed under a cached statement", () => {
    const db = cachingDatabase();
    db.prepare("create table t (a integer)").run([]);
    db.prepare("insert into t (a) values (1)").run([]);
    expect(db.prepare("select * from t").all([])).toEqual([{ a: 1 }]);
    db.prepare("alter table t add column b text default 'x'").run([]);
    expect(db.prepare("select * from t").all([])).toEqual([{ a: 1, b: "x" }]);
  });

  it("refuses a capacity that is not a positive integer", () => {
    const raw = new BetterSqlite3(":memory:");
    expect(() => new StatementCachingDatabase(raw, 0)).toThrow(RangeError);
    raw.close();
  });
});
