// Reusable queries: compiled once per dialect, then run with exactly the SQL and parameters the
// builder would have sent; an argument that does not end up as a value is refused.
import BetterSqlite3 from "better-sqlite3";
import { type CompiledQuery, Kysely, SqliteDialect, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import type { Database } from "../../src/storage/database-schema.js";
import {
  definedColumns,
  NamedReusableQuery,
  ReusableQuery,
  ShapedReusableQuery,
} from "../../src/storage/engine/reusable-query.js";

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

describe("ShapedReusableQuery", () => {
  /** Inserts secrets: each row in the form of the columns it defines. */
  const insertOf = (maxShapes: number, counter: { builds: number }) =>
    new ShapedReusableQuery(maxShapes, (d, rows: readonly (keyof Database["server_secrets"])[][], values) => {
      counter.builds++;
      let next = 0;
      return d
        .insertInto("server_secrets")
        .values(rows.map((columns) => Object.fromEntries(columns.map((c) => [c, values[next++]])) as never));
    });
  const COLUMNS = ["name", "value", "created_at_ms"] as const;

  it("compiles each form once and sends what the builder would, defined columns only", async () => {
    const db = await database();
    const counter = { builds: 0 };
    const insert = insertOf(4, counter);
    const run = async (records: { name: string; value?: string; created_at_ms: number }[]) => {
      const forms = records.map((record) => definedColumns(record, COLUMNS));
      const rows = forms.map((form) => form.names);
      await insert.execute(
        "sqlite",
        db,
        rows,
        forms.flatMap((form) => form.values),
      );
    };
    await run([{ name: "a", value: "one", created_at_ms: 1 }]);
    await run([{ name: "b", value: "two", created_at_ms: 2 }]);
    await run([
      { name: "c", value: "three", created_at_ms: 3 },
      { name: "d", value: "four", created_at_ms: 4 },
    ]);
    // One build per form (the first run of each compiles it).
    expect(insert.shapes).toBe(2);
    expect(counter.builds).toBe(2);
    const reused = sent.map(({ sql, parameters }) => ({ sql, parameters }));
    sent.length = 0;
    await db.insertInto("server_secrets").values({ name: "e", value: "five", created_at_ms: 5 }).execute();
    expect(reused[1]).toEqual({ sql: sent[0]?.sql, parameters: ["b", "two", 2] });
    expect(reused[2]?.parameters).toEqual(["c", "three", 3, "d", "four", 4]);
    // A column left undefined is left out, as the builder leaves it out (here the NOT NULL refuses it).
    expect(definedColumns({ name: "f", value: undefined, created_at_ms: 6 }, COLUMNS)).toEqual({
      names: ["name", "created_at_ms"],
      values: ["f", 6],
    });
    const rows = await db.selectFrom("server_secrets").select("name").orderBy("name").execute();
    expect(rows.map((row) => row.name)).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("never runs one shape's statement for another: the shape itself is the form's key", async () => {
    const db = await database();
    await db.insertInto("server_secrets").values({ name: "a", value: "x", created_at_ms: 1 }).execute();
    const select = new ShapedReusableQuery(8, (d, { ordered }: { ordered: boolean }, values) => {
      const query = d
        .selectFrom("server_secrets")
        .select("name")
        .where("name", "=", values[0] as string);
      return ordered ? query.orderBy("created_at_ms") : query;
    });
    await select.execute("sqlite", db, { ordered: false }, ["a"]);
    await select.execute("sqlite", db, { ordered: true }, ["a"]);
    expect(select.shapes).toBe(2);
    expect(sent.at(-1)?.sql).toMatch(/order by/);
    expect(sent.at(-2)?.sql).not.toMatch(/order by/);
  });

  it("keeps at most maxShapes forms and builds every other one each time", async () => {
    const db = await database();
    const counter = { builds: 0 };
    const insert = insertOf(1, counter);
    const one = (name: string) => insert.execute("sqlite", db, [[...COLUMNS]], [name, "v", 1]);
    const two = (a: string, b: string) =>
      insert.execute("sqlite", db, [[...COLUMNS], [...COLUMNS]], [a, "v", 1, b, "v", 1]);
    await one("a");
    await two("b", "c");
    await two("d", "e");
    await one("f");
    expect(insert.shapes).toBe(1);
    // The kept form was built once; the other form once per run.
    expect(counter.builds).toBe(3);
    const rows = await db.selectFrom("server_secrets").select("name").orderBy("name").execute();
    expect(rows.map((row) => row.name)).toEqual(["a", "b", "c", "d", "e", "f"]);
  });
});
