// The turn engine against real storage on both dialects: a settled turn only marks its run ready (in
// the settling transaction), the engine advances it in its own transaction after the commit — runs
// that became ready together in one, each exactly once however many engines try — and a mark whose
// engine died with its process is advanced by a server's recovery sweep.
import type { FastifyBaseLogger } from "fastify";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { createRun } from "../../src/runs/create-run.js";
import { HistoryRunProgress } from "../../src/runs/record-call-outcome.js";
import type { RunProgressAnswer } from "../../src/runs/run-progress.js";
import { decideAdvance, TurnEngine } from "../../src/runs/turn-engine.js";
import type { KyselyStorage } from "../../src/storage/kysely-storage.js";
import { openStorage } from "../../src/storage/open-storage.js";
import { ManualClock, startExecutorServer } from "../executors/executor-harness.js";
import { publishRuntime, runRecord } from "../support/call-fixtures.js";
import { agentVersionInput, sessionRecord } from "../support/storage-fixtures.js";
import { describeEachDialect, type TestDatabase, testDatabaseUrl } from "../support/test-databases.js";

const NOW = 50_000;
const SCRIPT = [{ tool_calls: [{ name: "tool_0", arguments: {} }] }, { message: "done" }];
const errors: unknown[] = [];
const log = { error: (what: unknown) => errors.push(what) } as unknown as FastifyBaseLogger;

it("advances a ready run waiting for tools, only clears the mark of one that moved meanwhile", () => {
  const run = runRecord("r1");
  expect(decideAdvance({ run, ready: true })).toBe("advance");
  expect(decideAdvance({ run: { ...run, status: "cancelled" }, ready: true })).toBe("clear");
  expect(decideAdvance({ run, ready: false })).toBe("none");
});

describeEachDialect("the turn engine", (dialect) => {
  let database: TestDatabase;
  let storage: KyselyStorage;
  const opened: KyselyStorage[] = [];

  beforeEach(async () => {
    errors.length = 0;
    database = await testDatabaseUrl(dialect);
    storage = await openStorage(database.url);
    opened.push(storage);
    await publishRuntime(storage);
  });
  afterEach(async () => {
    for (const open of opened.splice(0)) await open.close();
    await database.dispose();
    expect(errors).toEqual([]);
  });

  /** Starts a run playing SCRIPT: its first turn made one pending call. */
  async function startRun(): Promise<string> {
    const version = `agv-${Math.random().toString(36).slice(2)}`;
    await storage.agents.appendVersion({
      ...agentVersionInput("a1", version, "ts1", 1),
      model_json: JSON.stringify({ provider: "scripted", script: SCRIPT }),
    });
    const session = sessionRecord(`s-${version}`, "a1", version);
    await storage.sessions.insert(session);
    const limits = { maxTurns: 100, maxToolCalls: 500, runTimeoutMs: 3_600_000 };
    return (await createRun(storage, session, "go", limits, NOW)).run.run_id;
  }

  /** Cancels the run's one pending call, settling its turn, in one transaction (no engine hears of it). */
  async function settleTurn(runId: string): Promise<RunProgressAnswer> {
    const [call] = (await storage.calls.listByRun(runId, { limit: 10 })).items;
    if (call === undefined) throw new Error("no call");
    // An engine that is never asked: the commit happens as with the engine stopped.
    const progress = new HistoryRunProgress({ advance: async () => undefined });
    return storage.transaction(async (stores) => {
      await stores.runs.getForUpdate(runId);
      const cancelled = await stores.calls.cancelUnclaimed(runId, call.call_id, NOW);
      if (cancelled === undefined) throw new Error("not pending");
      return progress.callSettled(stores, cancelled, { kind: "cancelled", receipt_id: null }, NOW);
    });
  }

  /** Is the run marked ready (what the recovery sweep reads)? */
  const isReady = async (runId: string): Promise<boolean> =>
    (await storage.runs.readySince(Number.MAX_SAFE_INTEGER, 1_000)).includes(runId);

  const history = async (runId: string): Promise<string[]> =>
    (await storage.history.list(runId, { limit: 100 })).items.map((item) => item.item_json);

  it("a settled turn only marks the run ready; the engine makes the turn in its own transaction", async () => {
    const runId = await startRun();
    const answer = await settleTurn(runId);
    expect(answer).toMatchObject({ applied: true, run_status: "waiting_for_tools", ready: true });
    expect(await isReady(runId)).toBe(true);
    expect((await storage.runs.get(runId, "*"))?.status).toBe("waiting_for_tools");
    expect(await history(runId)).toHaveLength(3);

    const engine = new TurnEngine({ storage, clock: { nowMs: () => NOW + 1 }, log });
    expect(await engine.advance(runId)).toBe("completed");
    expect(await isReady(runId)).toBe(false);
    expect((await history(runId)).at(-1)).toBe('{"type":"message","text":"done"}');
    // Asked again, there is nothing to advance: the run's status as it is.
    expect(await engine.advance(runId)).toBe("completed");
    expect(await history(runId)).toHaveLength(4);
  });

  it("advances runs that became ready together in one transaction", async () => {
    const runIds: string[] = [];
    for (let i = 0; i < 5; i++) runIds.push(await startRun());
    for (const runId of runIds) await settleTurn(runId);
    const engine = new TurnEngine({ storage, clock: { nowMs: () => NOW + 1 }, log });
    const before = storage.stats().transactions;
    const statuses = await Promise.all(runIds.map((runId) => engine.advance(runId)));
    expect(statuses).toEqual(runIds.map(() => "completed"));
    expect(storage.stats().transactions - before).toBe(1);
  });

  it("a run whose turn fails keeps its mark and holds up no other run of its batch", async () => {
    const good = await startRun();
    await settleTurn(good);
    // A run pinning an agent version that is not there: its turn throws.
    await storage.runs.insert(runRecord("r-broken", { agent_version: "agv-missing" }));
    await storage.history.append("r-broken", ['{"type":"input","input":"go"}'], NOW, NOW);
    expect(await isReady("r-broken")).toBe(true);
    const engine = new TurnEngine({ storage, clock: { nowMs: () => NOW + 1 }, log });
    const statuses = await Promise.all([engine.advance(good), engine.advance("r-broken")]);
    expect(statuses).toEqual(["completed", undefined]);
    expect(await isReady("r-broken")).toBe(true);
    expect(await isReady(good)).toBe(false);
    expect(errors).toHaveLength(1);
    errors.length = 0;
  });

  it("of several engines on one database, exactly one advances each run", async () => {
    // On PostgreSQL a second storage stands for another instance; SQLite has one writer process.
    const other = dialect === "postgres" ? await openStorage(database.url, { migrate: false }) : storage;
    if (other !== storage) opened.push(other);
    const engines = [storage, other, storage, other].map(
      (on) => new TurnEngine({ storage: on, clock: { nowMs: () => NOW + 1 }, log }),
    );
    const runIds: string[] = [];
    for (let i = 0; i < 6; i++) runIds.push(await startRun());
    for (const runId of runIds) await settleTurn(runId);
    const statuses = await Promise.all(runIds.flatMap((runId) => engines.map((engine) => engine.advance(runId))));
    expect(statuses).toEqual(statuses.map(() => "completed"));
    for (const runId of runIds) {
      const items = await history(runId);
      expect(items.filter((item) => item === '{"type":"message","text":"done"}')).toHaveLength(1);
      expect(items).toHaveLength(4);
      const requests = await storage.modelRequests.listByRun(runId, { limit: 10 });
      expect(requests.items.map((request) => request.turn)).toEqual([0, 1]);
    }
  });

  it("a ready mark that outlived its process is advanced by a server's recovery sweep", async () => {
    const runId = await startRun();
    await settleTurn(runId);
    // The process dies after the commit: its engine never made the turn.
    opened.splice(opened.indexOf(storage), 1);
    await storage.close();

    const server = await startExecutorServer(dialect, {
      database,
      seed: false,
      sweepIntervalMs: 20,
      // Past the grace the instance that marked the run had to advance it.
      clock: new ManualClock(NOW + 60_000),
    });
    try {
      storage = server.server.storage as KyselyStorage;
      await vi.waitFor(async () => expect((await storage.runs.get(runId, "*"))?.status).toBe("completed"), {
        timeout: 20_000,
        interval: 20,
      });
      expect(await isReady(runId)).toBe(false);
      expect((await history(runId)).at(-1)).toBe('{"type":"message","text":"done"}');
    } finally {
      await server.close();
    }
  });
});
