// Reusable queries: compiled once per dialect, then run with exactly the SQL and parameters the
// builder would have sent; an argument that does not end up as a value is refused.
import BetterSqlite3 from "better-sqlite3";
import { type CompiledQuery, Kysely, SqliteDialect, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import type { Database } from "../../src/storage/database-schema.js";
import { NamedReusableQuery, ReusableQuery } from "../../src/storage/engine/reusable-query.js";

const sent: CompiledQuery[] = [];
const open: Kysely<Database>[] = [];
afterEach(async () => {
  sent.length = 0;
  for (const db of open.splice(0)) await db.destroy();
});

async function database(): Promise<Kysely<Database>> {
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: new BetterSqlite3(":memory:") }),
    log: (event) => {
      sent.push(event.query);
    },
  });
  open.push(db);
  await sql`create table server_secrets (name text primary key, value text not null, created_at_ms integer not null)`.execute(
    db,
  );
  sent.length = 0;
  return db;
}

describe("ReusableQuery", () => {
  it("sends the builder's SQL and parameters, building the query only once", async () => {
    const db = await database();
    let builds = 0;
    const insert = new ReusableQuery((d, name: string, value: string, at: number) => {
      builds++;
      return d
        .insertInto("server_secrets")
        .values({ name, value, created_at_ms: at })
        .onConflict((c) => c.doNothing());
    });
    const select = new ReusableQuery((d, name: string, after: number) =>
      d
        .selectFrom("server_secrets")
        .select(["name", "value"])
        .where("name", "=", name)
        .where("created_at_ms", ">", after)
        .where("value", "!=", "constant")
        .limit(5),
    );
    expect(await insert.affected("sqlite", db, "a", "one", 10)).toBe(1n);
    expect(await insert.affected("sqlite", db, "a", "again", 11)).toBe(0n);
    expect(await insert.affected("sqlite", db, "b", "two", 12)).toBe(1n);
    expect(builds).toBe(1);
    expect(await select.takeFirst("sqlite", db, "b", 5)).toEqual({ name: "b", value: "two" });
    expect(await select.takeFirst("sqlite", db, "b", 12)).toBeUndefined();

    const reused = sent.map(({ sql, parameters }) => ({ sql, parameters }));
    sent.length = 0;
    await db
      .insertInto("server_secrets")
      .values({ name: "c", value: "three", created_at_ms: 13 })
      .onConflict((c) => c.doNothing())
      .execute();
    await db
      .selectFrom("server_secrets")
      .select(["name", "value"])
      .where("name", "=", "b")
      .where("created_at_ms", ">", 12)
      .where("value", "!=", "constant")
      .limit(5)
      .execute();
    expect(reused[2]).toEqual({ sql: sent[0]?.sql, parameters: ["b", "two", 12] });
    expect(sent[0]?.parameters).toEqual(["c", "three", 13]);
    expect(reused[4]).toEqual({ sql: sent[1]?.sql, parameters: sent[1]?.parameters });
  });

  it("fills an argument used twice in both places", async () => {
    const db = await database();
    await db.insertInto("server_secrets").values({ name: "x", value: "x", created_at_ms: 1 }).execute();
    const both = new ReusableQuery((d, text: string) =>
      d.selectFrom("server_secrets").select("name").where("name", "=", text).where("value", "=", text),
    );
    expect(await both.takeFirst("sqlite", db, "x")).toEqual({ name: "x" });
    expect(await both.takeFirst("sqlite", db, "y")).toBeUndefined();
    expect(sent.at(-1)?.parameters).toEqual(["y", "y"]);
  });

  it("refuses a query that does not pass an argument as a value", async () => {
    const db = await database();
    const shaped = new ReusableQuery((d, name: string, limit: number) =>
      // `limit` only decides the shape here: it never reaches the parameters.
      d
        .selectFrom("server_secrets")
        .select("name")
        .where("name", "=", name)
        .limit(typeof limit === "number" ? 1 : 2),
    );
    await expect(shaped.execute("sqlite", db, "a", 3)).rejects.toThrow(/each of its 2 arguments/);
  });
});

describe("NamedReusableQuery", () => {
  interface Secret {
    readonly name: string;
    readonly value: string;
    readonly at_ms: number;
  }

  it("takes its values by name, whatever the order of the object, and builds once", async () => {
    const db = await database();
    let builds = 0;
    const insert = new NamedReusableQuery<Secret, unknown>(["name", "value", "at_ms"], (d, input) => {
      builds++;
      return d
        .insertInto("server_secrets")
        .values({ name: input.name, value: input.value, created_at_ms: input.at_ms });
    });
    expect(await insert.affected("sqlite", db, { at_ms: 7, value: "one", name: "a" })).toBe(1n);
    expect(await insert.affected("sqlite", db, { name: "b", value: "two", at_ms: 8 })).toBe(1n);
    expect(builds).toBe(1);
    const rows = await db.selectFrom("server_secrets").selectAll().orderBy("name").execute();
    expect(rows).toEqual([
      { name: "a", value: "one", created_at_ms: 7 },
      { name: "b", value: "two", created_at_ms: 8 },
    ]);
  });

  it("refuses a builder that reads a member it does not name, or leaves a named one unused", async () => {
    const db = await database();
    const reads = new NamedReusableQuery<Secret, unknown>(["name", "value"], (d, input) =>
      d.insertInto("server_secrets").values({ name: input.name, value: input.value, created_at_ms: input.at_ms }),
    );
    await expect(reads.execute("sqlite", db, { name: "a", value: "v", at_ms: 1 })).rejects.toThrow(
      /read "at_ms", which is not among its names/,
    );
    const unused = new NamedReusableQuery<Secret, unknown>(["name", "value", "at_ms"], (d, input) =>
      d.insertInto("server_secrets").values({ name: input.name, value: input.value, created_at_ms: 0 }),
    );
    await expect(unused.execute("sqlite", db, { name: "a", value: "v", at_ms: 1 })).rejects.toThrow(
      /must pass each of its 3 arguments as a value/,
    );
  });
});
