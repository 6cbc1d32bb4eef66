/** Registered statement texts run as named prepared statements on PostgreSQL; every other text stays unnamed. */

import pg from "pg";
import { expect, it } from "vitest";
import { registerPreparedStatement, usePreparedStatements } from "../../src/storage/postgres-prepared-statements.js";
import { describeDialect, TEST_POSTGRES_URL } from "../support/test-databases.js";

describeDialect("postgres", "named prepared statements", () => {
  it("prepares a registered text once per connection under its name; others go unnamed", async () => {
    const pool = new pg.Pool({ connectionString: TEST_POSTGRES_URL, max: 1 });
    usePreparedStatements(pool);
    const hot = "select $1::integer + 1 as next";
    registerPreparedStatement(hot);
    const client = await pool.connect();
    try {
      expect((await client.query(hot, [1])).rows).toEqual([{ next: 2 }]);
      expect((await client.query(hot, [41])).rows).toEqual([{ next: 42 }]);
      await client.query("select $1::integer as cold", [1]);
      const prepared = await client.query("select statement from pg_prepared_statements where not from_sql");
      expect(prepared.rows.map((row) => row.statement)).toEqual([hot]);
    } finally {
      client.release();
      await pool.end();
    }
  });
});
