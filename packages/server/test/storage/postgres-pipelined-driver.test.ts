/**
 * The pipelined PostgreSQL driver against a real server: BEGIN shares its round trip with the first
 * statement, unanswered writes share COMMIT's, and a failure among them still fails the transaction
 * with its own error and commits nothing.
 */

import { randomBytes } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { connectDatabase, type DatabaseConnection } from "../../src/storage/engine/connect-database.js";
import { unanswered } from "../../src/storage/engine/postgres-pipelined-driver.js";
import { describeDialect, TEST_POSTGRES_URL } from "../support/test-databases.js";

describeDialect("postgres", "pipelined PostgreSQL driver", () => {
  const schema = `pipeline_${randomBytes(4).toString("hex")}`;
  let connection: DatabaseConnection;
  // biome-ignore lint/suspicious/noExplicitAny: a scratch table outside the server's schema.
  let db: Kysely<any>;

  beforeAll(async () => {
    const url = new URL(TEST_POSTGRES_URL);
    url.searchParams.set("schema", schema);
    connection = await connectDatabase(url.toString());
    db = connection.db;
    await sql`create table items (id integer primary key, note text not null)`.execute(db);
  });

  afterAll(async () => {
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
    await connection.db.destroy();
  });

  const insert = (id: number, note: string) => sql`insert into items (id, note) values (${id}, ${note})`;
  /** Runs the insert marked as a statement whose answer nobody reads. */
  // biome-ignore lint/suspicious/noExplicitAny: the scratch table's handle, as `db`.
  const send = (on: Kysely<any>, id: number, note: string) => on.executeQuery(unanswered(insert(id, note).compile(on)));
  const trips = () => connection.statements.roundTrips;
  const ids = async () =>
    (await sql<{ id: number }>`select id from items order by id`.execute(db)).rows.map((r) => r.id);

  it("sends BEGIN with the first statement and unanswered writes with COMMIT", async () => {
    const before = { trips: trips(), statements: connection.statements.count };
    await db.transaction().execute(async (trx) => {
      const read = await sql<{ n: number }>`select count(*)::integer as n from items`.execute(trx);
      expect(read.rows).toEqual([{ n: 0 }]);
      const answer = await send(trx, 1, "one");
      // Not waited for: no rows come back, whatever the statement would answer.
      expect(answer.rows).toEqual([]);
      await send(trx, 2, "two");
    });
    // BEGIN + SELECT, then the two INSERTs + COMMIT: 5 statements, 2 round trips.
    expect(connection.statements.count - before.statements).toBe(5);
    expect(trips() - before.trips).toBe(2);
    expect(await ids()).toEqual([1, 2]);
  });

  it("fails the transaction with the unanswered write's own error and commits none of it", async () => {
    const failing = db.transaction().execute(async (trx) => {
      await insert(10, "kept only if all commits").execute(trx);
      // A duplicate key: PostgreSQL refuses it, and aborts the transaction.
      await send(trx, 1, "duplicate");
      await send(trx, 11, "behind the failure");
    });
    await expect(failing).rejects.toMatchObject({ code: "23505" });
    expect(await ids()).toEqual([1, 2]);
  });

  it("hands a later statement the earlier unanswered write's error, not 'transaction is aborted'", async () => {
    let seen: unknown;
    const failing = db.transaction().execute(async (trx) => {
      await send(trx, 2, "duplicate");
      try {
        await sql`select 1`.execute(trx);
      } catch (error) {
        seen = error;
        throw error;
      }
    });
    await expect(failing).rejects.toMatchObject({ code: "23505" });
    expect(seen).toMatchObject({ code: "23505" });
    expect(await ids()).toEqual([1, 2]);
  });

  it("waits for an unanswered write outside a transaction (it is its own transaction)", async () => {
    await expect(send(db, 1, "duplicate")).rejects.toMatchObject({
      code: "23505",
    });
    const answer = await db.executeQuery(
      unanswered(sql`insert into items (id, note) values (3, 'three') returning id`.compile(db)),
    );
    expect(answer.rows).toEqual([{ id: 3 }]);
  });

  it("releases its connections after failures: more failed transactions than the pool holds, then one that succeeds", async () => {
    // pg's pool holds 10 clients: a failed transaction that kept its client would leave the last ones waiting.
    for (let round = 0; round < 12; round++) {
      await expect(
        db.transaction().execute(async (trx) => {
          await send(trx, 1, "duplicate");
        }),
      ).rejects.toMatchObject({ code: "23505" });
    }
    const value = await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ n: number }>`select count(*)::integer as n from items`.execute(trx);
      return rows[0]?.n;
    });
    expect(value).toBe(3);
  });
});
