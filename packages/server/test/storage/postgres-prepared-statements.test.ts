/** Registered and repeated statement texts run as named prepared statements on PostgreSQL; others stay unnamed. */

import pg from "pg";
import { expect, it } from "vitest";
import {
  REPEATS_BEFORE_NAMING,
  registerPreparedStatement,
  usePreparedStatements,
} from "../../src/storage/engine/postgres-prepared-statements.js";
import { describeDialect, TEST_POSTGRES_URL } from "../support/test-databases.js";

describeDialect("postgres", "named prepared statements", () => {
  it("prepares registered and repeated texts under their names; a text sent once goes unnamed", async () => {
    const pool = new pg.Pool({ connectionString: TEST_POSTGRES_URL, max: 1 });
    usePreparedStatements(pool);
    const hot = "select $1::integer + 1 as next";
    registerPreparedStatement(hot);
    const client = await pool.connect();
    try {
      expect((await client.query(hot, [1])).rows).toEqual([{ next: 2 }]);
      expect((await client.query(hot, [41])).rows).toEqual([{ next: 42 }]);
      const cold = "select $1::integer as cold";
      const repeated = "select $1::integer as repeated";
      await client.query(cold, [1]);
      for (let i = 0; i < REPEATS_BEFORE_NAMING; i++) await client.query(repeated, [i]);
      const prepared = await client.query("select statement from pg_prepared_statements where not from_sql");
      // The registered text at once, the repeated one once sent often enough, the cold one never.
      expect(prepared.rows.map((row) => row.statement).sort()).toEqual([repeated, hot].sort());
    } finally {
      client.release();
      await pool.end();
    }
  });
});
