// The retention sweep's query reads the `runs_ended` index in order and stops at its limit, on both
// dialects: no full scan of `runs` and no sort, whatever the number of runs (docs/operations.md#retention).
import { sql } from "kysely";
import { expect, it } from "vitest";
import { connectDatabase } from "../../src/storage/engine/connect-database.js";
import { RUNS_ENDED_INDEX } from "../../src/storage/migrations/0015-run-retention.js";
import { openStorage } from "../../src/storage/open-storage.js";
import { expiredRunsQuery } from "../../src/storage/runs/run-retention-store.js";
import { describeEachDialect, testDatabaseUrl } from "../support/test-databases.js";

describeEachDialect("the retention query's plan", (dialect) => {
  it("reads runs_ended in order: no scan of runs, no sort", async () => {
    const database = await testDatabaseUrl(dialect);
    const storage = await openStorage(database.url, { migrate: true });
    await storage.close();
    const connection = await connectDatabase(database.url);
    try {
      const { db } = connection;
      const query = expiredRunsQuery(db, 1_000, 50).compile();
      if (dialect === "sqlite") {
        const { rows } = await db.executeQuery<{ detail: string }>({
          ...query,
          sql: `explain query plan ${query.sql}`,
        });
        const details = rows.map((row) => row.detail).join("\n");
        expect(details).toContain(RUNS_ENDED_INDEX);
        expect(details).not.toMatch(/TEMP B-TREE/);
        expect(details).not.toMatch(/SCAN r\b(?! USING)/);
      } else {
        // An empty table has no statistics, so the planner would rather scan and sort; with those
        // plans off it shows whether the index can serve the order and the limit (it cannot when the
        // index is missing or its columns or collation differ from the ORDER BY).
        const plan = await db.connection().execute(async (conn) => {
          for (const setting of ["enable_seqscan", "enable_bitmapscan", "enable_hashjoin", "enable_mergejoin"]) {
            await sql`select set_config(${setting}, 'off', false)`.execute(conn);
          }
          return conn.executeQuery<{ "QUERY PLAN": string }>({ ...query, sql: `explain ${query.sql}` });
        });
        const text = plan.rows.map((row) => row["QUERY PLAN"]).join("\n");
        expect(text).toContain(RUNS_ENDED_INDEX);
        expect(text).not.toMatch(/\bSort\b/);
        expect(text).not.toMatch(/Seq Scan on runs/);
      }
    } finally {
      await connection.db.destroy();
    }
  });
});
