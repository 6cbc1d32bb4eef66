// Retention of ended runs (docs/operations.md#retention), on both dialects, through a real server
// whose sweeper ticks on its own with a manual clock: exactly the runs that ended longer ago than
// runRetentionMs are deleted, with every row of theirs in every table; a run still going, a run that
// ended recently and an ended run with a live compensation call stay; afterwards the run and its
// sub-routes answer 404; runRetentionMs 0 keeps everything; one pass deletes a bounded batch.
import { expect, it } from "vitest";
import {
  deleteExpiredRuns,
  RUN_RETENTION_BATCH,
  RUN_RETENTION_HISTORY_BUDGET,
  retentionBatch,
} from "../../src/runs/run-retention.js";
import {
  admin,
  buildWorld,
  type ClockedServer,
  claimed,
  connect,
  eventually,
  expectStatus,
  listCalls,
  receipt,
  startClockedServer,
  startRun,
  type World,
} from "../calls/calls-harness.js";
import { dumpTables, type TableDump } from "../support/table-dump.js";
import { describeEachDialect } from "../support/test-databases.js";

const RETENTION_MS = 60_000;
/** Executors never lapse while the clock jumps, so nothing but retention changes the tables. */
const NO_LAPSES = { leaseTtlMs: 86_400_000, heartbeatIntervalMs: 60_000 };
const SCRIPT = [{ tool_calls: [{ name: "tasks.write", arguments: { title: "one" } }] }, { message: "done" }];

let executors = 0;

/** Starts a run and completes its one call; answers the run and call IDs (the run has ended). */
async function completedRun(server: ClockedServer, world: World): Promise<{ runId: string; callId: string }> {
  const runId = await startRun(server, world);
  const [call] = await listCalls(server, runId);
  const held = await claimed(server, world, runId, call.call_id, await connect(server, world, `ex-${++executors}`));
  expectStatus(await receipt(server, world, held, { receipt_id: "a", kind: "accepted" }), 200);
  expectStatus(await receipt(server, world, held, { receipt_id: "c", kind: "completed", result: { id: 1 } }), 200);
  const run = expectStatus(await server.call("GET", `/v1/runs/${runId}`, admin), 200);
  expect(run.status).toBe("completed");
  return { runId, callId: call.call_id };
}

/** Every path of a run's reads. */
function runPaths(runId: string, callId: string): string[] {
  return [
    `/v1/runs/${runId}`,
    `/v1/runs/${runId}/history`,
    `/v1/runs/${runId}/tool-calls`,
    `/v1/runs/${runId}/tool-calls/${callId}/receipts`,
    `/v1/runs/${runId}/model-requests`,
    `/v1/runs/${runId}/events`,
  ];
}

/** The rows of `dump` that do not mention `runId`, per table. */
function without(dump: TableDump, runId: string): TableDump {
  return Object.fromEntries(
    Object.entries(dump).map(([table, rows]) => [table, rows.filter((row) => !row.includes(runId))]),
  );
}

/** Only the rows of `dump` that mention `runId`, per table. */
function rowsOf(dump: TableDump, runId: string): TableDump {
  return Object.fromEntries(
    Object.entries(dump).map(([table, rows]) => [table, rows.filter((row) => row.includes(runId))]),
  );
}

/** Tables with a row mentioning `runId`. */
function tablesMentioning(dump: TableDump, runId: string): string[] {
  return Object.entries(dump)
    .filter(([, rows]) => rows.some((row) => row.includes(runId)))
    .map(([table]) => table)
    .sort();
}

/**
 * Waits until a sweep tick that began after now has ended: a marker call's deadline passes at the
 * clock's time now, and a second marker's only on the next advance, so the second expiring means
 * the whole tick that expired the first (retention included) is over.
 */
async function afterOneFullTick(server: ClockedServer, world: World): Promise<void> {
  const first = await startRun(server, world);
  server.clock.advance(600_001);
  await eventually(
    async () => (await listCalls(server, first))[0]?.status,
    (status) => status === "expired",
    "the first marker call expires",
  );
  const second = await startRun(server, world);
  server.clock.advance(600_001);
  await eventually(
    async () => (await listCalls(server, second))[0]?.status,
    (status) => status === "expired",
    "the second marker call expires",
  );
}

describeEachDialect("run retention", (dialect) => {
  it("deletes exactly the runs ended longer ago, with every row of theirs; the rest stays; 404 after", async () => {
    const server = await startClockedServer(dialect, { ...NO_LAPSES, runRetentionMs: RETENTION_MS });
    const world = await buildWorld(server, SCRIPT);
    const old = await completedRun(server, world);
    // An ended run whose compensation call is still pending: kept while someone may still run it.
    const compensated = await completedRun(server, world);
    const compensation = await server.call(
      "POST",
      `/v1/runs/${compensated.runId}/tool-calls/${compensated.callId}/compensate`,
      { ...admin, body: { tool_name: "tasks.undo", arguments: {} } },
    );
    expectStatus(compensation, 201);
    server.clock.advance(RETENTION_MS / 2);
    const recent = await completedRun(server, world);
    const going = await startRun(server, world);
    for (const path of runPaths(old.runId, old.callId).slice(0, -1))
      expectStatus(await server.call("GET", path, admin), 200);
    const before = await dumpTables(server.database.url);
    expect(tablesMentioning(before, old.runId)).toEqual([
      "execution_history",
      "model_requests",
      "receipts",
      "run_events",
      "runs",
      "tool_calls",
    ]);

    // The old run ended RETENTION_MS + 1 ago; the recent one RETENTION_MS / 2 + 1 ago.
    server.clock.advance(RETENTION_MS / 2 + 1);
    await eventually(
      () => server.call("GET", `/v1/runs/${old.runId}`, admin),
      (answer) => answer.status === 404,
      "the old run is deleted",
    );
    const after = await dumpTables(server.database.url);
    expect(after).toEqual(without(before, old.runId));
    for (const path of runPaths(old.runId, old.callId)) {
      const answer = await server.call("GET", path, admin);
      expect({ path, status: answer.status, code: answer.body?.error?.code }).toEqual({
        path,
        status: 404,
        code: "not_found",
      });
    }
    for (const runId of [compensated.runId, recent.runId, going]) {
      expectStatus(await server.call("GET", `/v1/runs/${runId}`, admin), 200);
    }
    await server.close();
  });

  it("runRetentionMs 0 keeps every run however long ago it ended", async () => {
    const server = await startClockedServer(dialect, { ...NO_LAPSES, runRetentionMs: 0 });
    const world = await buildWorld(server, SCRIPT);
    const old = await completedRun(server, world);
    const before = await dumpTables(server.database.url);
    server.clock.advance(10 * 365 * 86_400_000);
    await afterOneFullTick(server, world);
    const after = await dumpTables(server.database.url);
    expect(rowsOf(after, old.runId)).toEqual(rowsOf(before, old.runId));
    expect(tablesMentioning(after, old.runId)).toContain("execution_history");
    expectStatus(await server.call("GET", `/v1/runs/${old.runId}/history`, admin), 200);
    await server.close();
  });

  it("one pass deletes at most one batch, oldest end first; the next pass the rest", async () => {
    // Retention off in the server: the passes are made here, one at a time.
    const server = await startClockedServer(dialect, { ...NO_LAPSES, runRetentionMs: 0 });
    const world = await buildWorld(server, [{ message: "done at once" }]);
    const runIds: string[] = [];
    for (let index = 0; index < RUN_RETENTION_BATCH + 5; index++) {
      runIds.push(await startRun(server, world));
      server.clock.advance(1);
    }
    server.clock.advance(10);
    const storage = server.server.storage;
    const now = server.clock.nowMs();
    const first = await deleteExpiredRuns(storage, 1, now);
    expect(first).toEqual({ deleted: runIds.slice(0, RUN_RETENTION_BATCH), more: true });
    const second = await deleteExpiredRuns(storage, 1, now);
    expect(second).toEqual({ deleted: runIds.slice(RUN_RETENTION_BATCH), more: false });
    expect(await deleteExpiredRuns(storage, 1, now)).toEqual({ deleted: [], more: false });
    const dump = await dumpTables(server.database.url);
    expect(dump.runs).toEqual([]);
    expect(dump.execution_history).toEqual([]);
    expect(dump.run_events).toEqual([]);
    expect(dump.model_requests).toEqual([]);
    await server.close();
  });
});

it("a batch stays within the history budget, but always takes the first run", () => {
  const run = (id: string, history_length: number) => ({ run_id: id, ended_at_ms: 1, history_length });
  const half = RUN_RETENTION_HISTORY_BUDGET / 2;
  expect(retentionBatch([run("a", half), run("b", half), run("c", 1)], RUN_RETENTION_HISTORY_BUDGET)).toEqual([
    run("a", half),
    run("b", half),
  ]);
  expect(
    retentionBatch([run("big", 3 * RUN_RETENTION_HISTORY_BUDGET), run("b", 1)], RUN_RETENTION_HISTORY_BUDGET),
  ).toEqual([run("big", 3 * RUN_RETENTION_HISTORY_BUDGET)]);
  expect(retentionBatch([], RUN_RETENTION_HISTORY_BUDGET)).toEqual([]);
});
