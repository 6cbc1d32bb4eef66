// The runs list of GET /v1/runs in storage, on both dialects: newest first, narrowed by status and
// by agent (each alone and both), within the agent scope, paged without repeats; and each form reads
// one index of 0011_runs_list_indexes in order instead of sorting the table.

import type { RunStatus } from "@toolhost/protocol";
import { sql } from "kysely";
import { expect, it } from "vitest";
import { connectDatabase } from "../../src/storage/engine/connect-database.js";
import { openStorage } from "../../src/storage/open-storage.js";
import type { Dialect } from "../../src/storage/storage.js";
import { publishRuntime, runRecord } from "../support/call-fixtures.js";
import { agentRecord, allPages, sessionRecord } from "../support/storage-fixtures.js";
import { describeEachDialect, testDatabaseUrl, useTestStorage } from "../support/test-databases.js";

const STATUSES: readonly RunStatus[] = ["failed", "completed", "waiting_for_tools"];

describeEachDialect("runs list", (dialect) => {
  const storage = useTestStorage(dialect);

  it("narrows by status, by agent and by both, newest first, in the agent scope, paged", async () => {
    const s = storage();
    await publishRuntime(s);
    await s.agents.insert(agentRecord("a2"));
    await s.sessions.insert(sessionRecord("s2", "a2", "agv1"));
    // Nine runs over two agents and three statuses; two share a creation time (the ID breaks the tie).
    const runs = Array.from({ length: 9 }, (_, i) =>
      runRecord(`r${i}`, {
        created_at_ms: 1_000 + Math.min(i, 7) * 10,
        status: STATUSES[i % 3] as RunStatus,
        ...(i % 2 === 1 ? { agent_id: "a2", session_id: "s2" } : {}),
      }),
    );
    for (const run of runs) await s.runs.insert(run);
    const ids = async (filter: Parameters<typeof s.runs.listRecent>[2], scope: "*" | string[] = "*") =>
      (await allPages((cursor) => s.runs.listRecent({ limit: 2, cursor }, scope, filter))).flatMap((page) =>
        page.items.map((run) => run.run_id),
      );
    const newestFirst = (keep: (i: number) => boolean) => [8, 7, 6, 5, 4, 3, 2, 1, 0].filter(keep).map((i) => `r${i}`);
    expect(await ids({})).toEqual(newestFirst(() => true));
    expect(await ids({ status: "failed" })).toEqual(newestFirst((i) => i % 3 === 0));
    expect(await ids({ agentId: "a2" })).toEqual(newestFirst((i) => i % 2 === 1));
    expect(await ids({ status: "completed", agentId: "a1" })).toEqual(newestFirst((i) => i % 3 === 1 && i % 2 === 0));
    expect(await ids({ status: "queued" })).toEqual([]);
    // The agent scope still applies: a filter never reaches an agent outside it.
    expect(await ids({ agentId: "a2" }, ["a1"])).toEqual([]);
    expect(await ids({ status: "failed" }, ["a1"])).toEqual(newestFirst((i) => i % 3 === 0 && i % 2 === 0));
  });
});

/** The query plan of `query` on `dialect`'s database at `url`, as text. */
async function planOf(dialect: Dialect, url: string, query: string): Promise<string> {
  const raw = await connectDatabase(url);
  try {
    if (dialect === "sqlite") {
      const rows = await sql<{ detail: string }>`explain query plan ${sql.raw(query)}`.execute(raw.db);
      return rows.rows.map((row) => row.detail).join("\n");
    }
    // A table this small is cheaper to scan: forbid the scan and the sort, so what remains says
    // whether an index can serve the order at all.
    return await raw.db.connection().execute(async (db) => {
      await sql`set enable_seqscan = off`.execute(db);
      await sql`set enable_sort = off`.execute(db);
      const rows = await sql<{ "QUERY PLAN": string }>`explain ${sql.raw(query)}`.execute(db);
      return rows.rows.map((row) => row["QUERY PLAN"]).join("\n");
    });
  } finally {
    await raw.db.destroy();
  }
}

describeEachDialect("runs list indexes", (dialect) => {
  it("reads each form of the list from its index in order, without sorting", async () => {
    const database = await testDatabaseUrl(dialect);
    const storage = await openStorage(database.url);
    await storage.close();
    const order = "order by created_at_ms desc, run_id desc limit 51";
    const forms = {
      runs_created: `select run_id from runs ${order}`,
      runs_status_created: `select run_id from runs where status = 'failed' ${order}`,
      runs_agent_created: `select run_id from runs where agent_id = 'a1' ${order}`,
    };
    for (const [index, query] of Object.entries(forms)) {
      const plan = await planOf(dialect, database.url, query);
      expect(plan, query).toContain(index);
      expect(plan, query).not.toMatch(/TEMP B-TREE|Sort/);
    }
    await database.dispose();
  });
});
