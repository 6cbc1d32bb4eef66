// callSettled (the runs area's RunProgress) against real storage on both dialects: what enters the
// history, when the next model turn runs, and what never changes. Call statuses are set directly in
// the database here; driving them through claims and receipts is the call protocol's own tests.
import {
  compact,
  MeasuredResult,
  parseJson,
  projectResult,
  projectUnknownOutcome,
  UNKNOWN_OUTCOME_RESULT,
} from "@toolhost/protocol";
import type { FastifyBaseLogger } from "fastify";
import { afterEach, beforeEach, expect, it } from "vitest";
import { cancelRun } from "../../src/runs/cancel-run.js";
import { createRun } from "../../src/runs/create-run.js";
import { toolResultItem } from "../../src/runs/history-items.js";
import { HistoryRunProgress } from "../../src/runs/record-call-outcome.js";
import type { CallOutcome } from "../../src/runs/run-progress.js";
import { TurnEngine } from "../../src/runs/turn-engine.js";
import { connectDatabase, type DatabaseConnection } from "../../src/storage/engine/connect-database.js";
import type { KyselyStorage } from "../../src/storage/kysely-storage.js";
import { openStorage } from "../../src/storage/open-storage.js";
import type { CallRecord, Wakeup } from "../../src/storage/records.js";
import { callRecord, publishRuntime } from "../support/call-fixtures.js";
import { agentVersionInput, sessionRecord } from "../support/storage-fixtures.js";
import { describeEachDialect, testDatabaseUrl } from "../support/test-databases.js";

const NOW = 50_000;

/** A result larger than tool_0's budget (4,096 bytes), with a big integer the projection must keep. */
const BIG_RESULT = parseJson(
  `{"status":"ok","rows":[${Array.from({ length: 300 }, (_, i) => `{"id":${i},"n":98765432109876543210}`).join(",")}]}`,
);

describeEachDialect("callSettled", (dialect) => {
  let storage: KyselyStorage;
  let raw: DatabaseConnection;
  let dispose: () => Promise<void>;
  let progress: HistoryRunProgress;

  beforeEach(async () => {
    const database = await testDatabaseUrl(dialect);
    storage = await openStorage(database.url);
    const log = { error: (what: unknown) => console.error(what) } as unknown as FastifyBaseLogger;
    progress = new HistoryRunProgress(new TurnEngine({ storage, clock: { nowMs: () => NOW + 1 }, log }));
    raw = await connectDatabase(database.url);
    dispose = async () => {
      await raw.db.destroy();
      await storage.close();
      await database.dispose();
    };
    await publishRuntime(storage);
  });
  afterEach(() => dispose());

  /** Starts a run of an agent version playing `script` (tools tool_0 on b1, tool_1 on b2). */
  async function startRun(script: unknown[]): Promise<string> {
    const version = `agv-${Math.random().toString(36).slice(2)}`;
    await storage.agents.appendVersion({
      ...agentVersionInput("a1", version, "ts1", 1),
      model_json: JSON.stringify({ provider: "scripted", script }),
    });
    const session = sessionRecord(`s-${version}`, "a1", version);
    await storage.sessions.insert(session);
    return (await createRun(storage, session, "go", { maxTurns: 100, maxToolCalls: 500, runTimeoutMs: 3_600_000 }, NOW))
      .run.run_id;
  }

  const calls = async (runId: string): Promise<CallRecord[]> =>
    (await storage.calls.listByRun(runId, { limit: 200 })).items;
  const history = async (runId: string): Promise<string[]> =>
    (await storage.history.list(runId, { limit: 200 })).items.map((item) => item.item_json);

  /**
   * Sets the call's status as a receipt would have, then tells the run in one transaction and, when
   * that made the run ready, lets the turn engine advance it; answers the run's answer (its status
   * after the engine's turn) and the executor wake-ups the commits registered, as they handed them on.
   */
  async function settle(call: CallRecord, status: CallRecord["status"], outcome: CallOutcome) {
    await raw.db
      .updateTable("tool_calls")
      .set({ status, settled_at_ms: NOW })
      .where("call_id", "=", call.call_id)
      .execute();
    const fresh = await storage.calls.get(call.run_id, call.call_id);
    if (fresh === undefined) throw new Error("call vanished");
    const wakeups: Wakeup[] = [];
    const stop = storage.onCommittedEffects({
      wakeExecutors: (woken) => wakeups.push(...woken),
      runsReady: () => {},
      modelTurnsQueued: () => {},
    });
    try {
      const { ready, ...answer } = await storage.transaction((stores) =>
        progress.callSettled(stores, fresh, outcome, NOW + 1),
      );
      if (ready === true) {
        // Marked ready in the settling transaction, durably, before the engine's own.
        expect(await readyMark(call.run_id)).toBe(NOW + 1);
        answer.run_status = (await progress.advanced(call.run_id)) ?? answer.run_status;
        expect(await readyMark(call.run_id)).toBeNull();
      }
      return { ...answer, wakeups };
    } finally {
      stop();
    }
  }

  const readyMark = async (runId: string): Promise<number | null> => {
    const row = await raw.db.selectFrom("runs").select("ready_at_ms").where("run_id", "=", runId).executeTakeFirst();
    return row?.ready_at_ms === null || row === undefined ? null : Number(row.ready_at_ms);
  };

  const completed = (receiptId: string): CallOutcome => ({
    kind: "completed",
    receipt_id: receiptId,
    result: MeasuredResult.of(BIG_RESULT),
    result_type: "json",
  });

  it("projects a completed result once into the history; the turn's last settled call runs the next turn", async () => {
    const runId = await startRun([
      {
        tool_calls: [
          { name: "tool_0", arguments: {} },
          { name: "tool_1", arguments: {} },
        ],
      },
      { message: "done" },
    ]);
    const [c0, c1] = await calls(runId);
    if (c0 === undefined || c1 === undefined) throw new Error("two calls expected");
    const before = await history(runId);
    expect(before).toHaveLength(2);

    expect(await settle(c0, "completed", completed("rc-0"))).toEqual({
      applied: true,
      run_status: "waiting_for_tools",
      wakeups: [],
    });
    const expected = toolResultItem(c0.call_id, "rc-0", projectResult(BIG_RESULT, 4096));
    expect(await history(runId)).toEqual([...before, expected]);
    expect(expected).toContain('"truncated":true');

    const error = parseJson('{"code":"NOPE","n":1.50}');
    expect(await settle(c1, "failed", { kind: "failed", receipt_id: "rc-1", error })).toEqual({
      applied: true,
      run_status: "completed",
      wakeups: [],
    });
    expect(await history(runId)).toEqual([
      ...before,
      expected,
      `{"type":"tool_result","call_id":"${c1.call_id}","receipt_id":"rc-1","context_preview":{"max_result_context_bytes":4096,"original_bytes":33,"retained_bytes":33,"truncated":false,"result":{"error":{"code":"NOPE","n":1.5}}}}`,
      '{"type":"message","text":"done"}',
    ]);
    expect(await storage.runs.get(runId, "*")).toMatchObject({
      status: "completed",
      output: "done",
      turn: 2,
      ended_at_ms: NOW + 1,
    });
  });

  it("enters an unknown outcome as the fixed message; a reconciled outcome is a new item and starts no turn", async () => {
    const runId = await startRun([
      { tool_calls: [{ name: "tool_0", arguments: {} }] },
      { tool_calls: [{ name: "tool_1", arguments: { k: 1 } }] },
      { message: "done" },
    ]);
    const [c0] = await calls(runId);
    if (c0 === undefined) throw new Error("a call expected");
    const unknown = await settle(c0, "reconciliation_required", { kind: "reconciliation_required", receipt_id: null });
    expect(unknown).toEqual({
      applied: true,
      run_status: "waiting_for_tools",
      wakeups: [{ kind: "call", call_id: expect.any(String), binding_id: "b2", tool_name: "tool_1", handoffs: 0 }],
    });
    const afterUnknown = await history(runId);
    expect(afterUnknown[2]).toBe(toolResultItem(c0.call_id, null, projectUnknownOutcome(4096)));
    expect(afterUnknown[2]).toContain(`"result":${compact(UNKNOWN_OUTCOME_RESULT)}}}`);
    expect(afterUnknown[3]).toMatch(
      /^\{"type":"tool_calls","calls":\[\{"call_id":"call_[0-9a-z]+","name":"tool_1","arguments":\{"k":1\}\}\]\}$/,
    );
    const callsBefore = await calls(runId);
    expect(callsBefore.map((call) => call.status)).toEqual(["reconciliation_required", "pending"]);

    const reconciled = await settle(c0, "completed", completed("rc-late"));
    expect(reconciled).toEqual({ applied: true, run_status: "waiting_for_tools", wakeups: [] });
    expect(await history(runId)).toEqual([
      ...afterUnknown,
      toolResultItem(c0.call_id, "rc-late", projectResult(BIG_RESULT, 4096)),
    ]);
    expect((await calls(runId)).map((call) => call.call_id)).toEqual(callsBefore.map((call) => call.call_id));
    expect(await storage.runs.get(runId, "*")).toMatchObject({ status: "waiting_for_tools", turn: 2 });
  });

  it("never changes an ended run: applied false, nothing appended", async () => {
    const runId = await startRun([{ tool_calls: [{ name: "tool_0", arguments: {} }] }, { message: "done" }]);
    const [c0] = await calls(runId);
    if (c0 === undefined) throw new Error("a call expected");
    await cancelRun(storage, runId, "*", NOW);
    const before = await history(runId);
    expect(await settle(c0, "completed", completed("rc-0"))).toEqual({
      applied: false,
      run_status: "cancelled",
      wakeups: [],
    });
    expect(await history(runId)).toEqual(before);
    expect(await storage.runs.get(runId, "*")).toMatchObject({ status: "cancelled", turn: 1 });
  });

  it("keeps compensation calls out of the history and the turns", async () => {
    const runId = await startRun([{ tool_calls: [{ name: "tool_0", arguments: {} }] }, { message: "done" }]);
    const compensation = callRecord(runId, "comp-1", { turn: -1, compensates: "anything", binding_id: "b2" });
    await storage.calls.insertMany([compensation]);
    const before = await history(runId);
    expect(await settle(compensation, "completed", completed("rc-comp"))).toEqual({
      applied: true,
      run_status: "waiting_for_tools",
      wakeups: [],
    });
    expect(await history(runId)).toEqual(before);
  });

  it("starts the next turn exactly once when two calls of a turn settle at the same time", async () => {
    for (let round = 0; round < 3; round++) {
      const runId = await startRun([
        {
          tool_calls: [
            { name: "tool_0", arguments: {} },
            { name: "tool_1", arguments: {} },
          ],
        },
        { message: "done" },
      ]);
      const answers = await Promise.all(
        (await calls(runId)).map((call) =>
          storage.transaction(async (stores) => {
            // Status first, run lock second (inside callSettled): the lock alone must make this safe.
            const cancelled = await stores.calls.cancelUnclaimed(runId, call.call_id, NOW);
            if (cancelled === undefined) throw new Error("not pending");
            return progress.callSettled(stores, cancelled, { kind: "cancelled", receipt_id: null }, NOW);
          }),
        ),
      );
      // Exactly one of them settled the turn and made the run ready; the engine's turn then ends it.
      expect(answers.filter((answer) => answer.ready === true)).toHaveLength(1);
      expect(await progress.advanced(runId)).toBe("completed");
      const items = await history(runId);
      expect(items.filter((item) => item === '{"type":"message","text":"done"}')).toHaveLength(1);
      expect(items).toHaveLength(5);
    }
  });
});
