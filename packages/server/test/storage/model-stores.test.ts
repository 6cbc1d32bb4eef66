// Storage contract of the model tables (0008) on both dialects: the queue of model turns and its
// leases, model requests in pages, the calibration sums (atomic increments), and run event streams.

import { expect, it } from "vitest";
import { CALIBRATION_SUM_COLUMNS } from "../../src/storage/migrations/0008-models.js";
import type { ModelRequestRecord } from "../../src/storage/records.js";
import { CALIBRATED_MODELS_PER_PROVIDER } from "../../src/storage/runs/token-calibration-store.js";
import { publishRuntime, runRecord } from "../support/call-fixtures.js";
import { allPages } from "../support/storage-fixtures.js";
import { describeEachDialect, useTestStorage } from "../support/test-databases.js";

function requestRecord(id: string, overrides: Partial<ModelRequestRecord> = {}): ModelRequestRecord {
  return {
    request_id: id,
    run_id: "r1",
    turn: 0,
    purpose: "turn",
    provider: "openai",
    model: "m",
    request_bytes: 1234,
    estimated_input_tokens: 300,
    actual_input_tokens: 310,
    output_tokens: 12,
    compacted: false,
    latency_ms: 40,
    error_json: null,
    created_at_ms: 5_000,
    ...overrides,
  };
}

describeEachDialect("model stores", (dialect) => {
  const storage = useTestStorage(dialect);

  it("model turns: one lease at a time; renew, release and complete only while held", async () => {
    const s = storage();
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1"));
    await s.modelTurns.enqueue("r1", 2, 1_000);
    expect(await s.modelTurns.claimable(1_000, 10)).toMatchObject([{ run_id: "r1", turn: 2, owner: null }]);
    const leased = await s.modelTurns.lease("r1", "a", 1_000, 31_000);
    expect(leased).toMatchObject({ owner: "a", lease_expires_ms: 31_000, attempts: 1 });
    // Held: nobody else takes it, and it is not claimable until the lease lapses.
    expect(await s.modelTurns.lease("r1", "b", 2_000, 32_000)).toBeUndefined();
    expect(await s.modelTurns.claimable(2_000, 10)).toEqual([]);
    expect(await s.modelTurns.renew("r1", "b", 2_000, 40_000)).toBe(false);
    expect(await s.modelTurns.renew("r1", "a", 2_000, 40_000)).toBe(true);
    expect(await s.modelTurns.lease("r1", "b", 39_999, 70_000)).toBeUndefined();
    // Lapsed: another instance takes it over, and the first one can no longer complete it.
    expect(await s.modelTurns.lease("r1", "b", 40_000, 70_000)).toMatchObject({ owner: "b", attempts: 2 });
    expect(await s.modelTurns.complete("r1", "a")).toBe(false);
    expect(await s.modelTurns.release("r1", "a", 41_000)).toBe(false);
    expect(await s.modelTurns.release("r1", "b", 41_000)).toBe(true);
    expect(await s.modelTurns.claimable(41_000, 10)).toMatchObject([{ run_id: "r1", owner: null }]);
    expect(await s.modelTurns.lease("r1", "c", 41_000, 71_000)).toMatchObject({ owner: "c", attempts: 3 });
    expect(await s.modelTurns.complete("r1", "c")).toBe(true);
    expect(await s.modelTurns.get("r1")).toBeUndefined();
    // Enqueueing again replaces a queued turn of the run; remove drops it whoever holds it.
    await s.modelTurns.enqueue("r1", 3, 50_000);
    await s.modelTurns.lease("r1", "a", 50_000, 80_000);
    await s.modelTurns.enqueue("r1", 4, 51_000);
    expect(await s.modelTurns.get("r1")).toMatchObject({ turn: 4, owner: null, attempts: 0 });
    await s.modelTurns.remove("r1");
    expect(await s.modelTurns.get("r1")).toBeUndefined();
  });

  it("model turns: two instances racing for one lease, exactly one wins", async () => {
    const s = storage();
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1"));
    await s.modelTurns.enqueue("r1", 0, 1_000);
    const wins = await Promise.all(["a", "b", "c", "d"].map((owner) => s.modelTurns.lease("r1", owner, 1_000, 9_000)));
    expect(wins.filter((win) => win !== undefined)).toHaveLength(1);
  });

  it("model requests: stored as given, listed per run in creation order, in pages", async () => {
    const s = storage();
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1"));
    await s.runs.insert(runRecord("r2"));
    const records = [
      requestRecord("mrq_2", { created_at_ms: 6_000 }),
      requestRecord("mrq_1", { created_at_ms: 6_000, purpose: "summary", compacted: true }),
      requestRecord("mrq_0", {
        actual_input_tokens: null,
        output_tokens: null,
        error_json: '{"code":"model_error","message":"x"}',
      }),
      requestRecord("mrq_9", { run_id: "r2" }),
    ];
    for (const record of records) await s.modelRequests.insert(record);
    const pages = await allPages((cursor) => s.modelRequests.listByRun("r1", { limit: 2, cursor }));
    expect(pages.map((page) => page.items)).toEqual([[records[2], records[1]], [records[0]]]);
  });

  it("calibration: sums start at the first observation and every concurrent add counts", async () => {
    const s = storage();
    expect(await s.tokenCalibrations.get("openai", "m")).toBeUndefined();
    const terms = CALIBRATION_SUM_COLUMNS.map((_, i) => i + 0.5);
    await Promise.all(Array.from({ length: 8 }, () => s.tokenCalibrations.add("openai", "m", terms, 1_000)));
    expect(await s.tokenCalibrations.get("openai", "m")).toEqual({
      observations: 8,
      sums: terms.map((term) => term * 8),
    });
    expect(await s.tokenCalibrations.get("anthropic", "m")).toBeUndefined();
    await expect(s.tokenCalibrations.add("openai", "m", [1], 1)).rejects.toThrow();
  });

  it("calibration: a provider keeps at most CALIBRATED_MODELS_PER_PROVIDER models; those keep learning", async () => {
    const s = storage();
    const terms = CALIBRATION_SUM_COLUMNS.map(() => 1);
    const models = Array.from({ length: CALIBRATED_MODELS_PER_PROVIDER }, (_, i) => `tenant-model-${i}`);
    for (const model of models) expect(await s.tokenCalibrations.add("openai", model, terms, 1_000)).toBe(true);
    // The next new model name of this provider is not kept: its requests are estimated with the prior.
    expect(await s.tokenCalibrations.add("openai", "one-too-many", terms, 2_000)).toBe(false);
    expect(await s.tokenCalibrations.get("openai", "one-too-many")).toBeUndefined();
    // A calibrated model still adds up, and another provider has its own room.
    expect(await s.tokenCalibrations.add("openai", "tenant-model-7", terms, 2_000)).toBe(true);
    expect(await s.tokenCalibrations.get("openai", "tenant-model-7")).toEqual({
      observations: 2,
      sums: terms.map(() => 2),
    });
    expect(await s.tokenCalibrations.add("anthropic", "one-too-many", terms, 2_000)).toBe(true);
    expect((await s.tokenCalibrations.get("anthropic", "one-too-many"))?.observations).toBe(1);
  }, 60_000);

  it("run events: seq 1, 2, … per run; history items joined in verbatim, data as stored", async () => {
    const s = storage();
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1"));
    await s.runs.insert(runRecord("r2"));
    const item = '{"type":"input","input":12345678901234567890}';
    await s.transaction(async (stores) => {
      const [seq] = await stores.history.append("r1", [item], 7_000);
      expect(
        await stores.runEvents.append(
          "r1",
          [
            { kind: "run.status", data_json: '{"status":"queued"}' },
            { kind: "history.item", history_seq: seq as number },
          ],
          7_000,
        ),
      ).toEqual([1, 2]);
    });
    expect(await s.runEvents.append("r2", [{ kind: "run.status", data_json: "{}" }], 7_000)).toEqual([1]);
    expect(await s.runEvents.append("r1", [{ kind: "model.request", data_json: '{"n":1}' }], 8_000)).toEqual([3]);
    const queued = { run_id: "r1", seq: 1, kind: "run.status", history_seq: null, created_at_ms: 7_000, source: null };
    const input = { run_id: "r1", seq: 2, kind: "history.item", history_seq: 0, created_at_ms: 7_000, source: null };
    expect(await s.runEvents.listAfter("r1", 0, 10)).toEqual([
      { ...queued, data_json: '{"status":"queued"}', data_bytes: 19 },
      { ...input, data_json: `{"seq":0,"item":${item}}`, data_bytes: item.length },
      {
        run_id: "r1",
        seq: 3,
        kind: "model.request",
        data_json: '{"n":1}',
        data_bytes: 7,
        history_seq: null,
        created_at_ms: 8_000,
        source: null,
      },
    ]);
    expect((await s.runEvents.listAfter("r1", 1, 1)).map((event) => event.seq)).toEqual([2]);
    expect(await s.runEvents.listAfter("r1", 3, 10)).toEqual([]);
    // Longer than the reader's limit: no data, only its size (the item is never read into memory).
    expect(await s.runEvents.listAfter("r1", 0, 2, 19)).toEqual([
      { ...queued, data_json: '{"status":"queued"}', data_bytes: 19 },
      { ...input, data_json: null, data_bytes: item.length },
    ]);
  });

  it("run events: a commit that appended events tells its listeners the runs, after the commit; a rollback tells nothing", async () => {
    const s = storage();
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1"));
    await s.runs.insert(runRecord("r2"));
    const heard: Array<{ runIds: readonly string[]; seen: number }> = [];
    const stop = s.onRunEventsCommitted((runIds) => {
      // Called after the commit: a read outside the transaction already sees the events.
      void s.runEvents.listAfter("r1", 0, 10).then((events) => heard.push({ runIds, seen: events.length }));
    });
    await s.transaction(async (stores) => {
      await stores.runEvents.appendAtCommit("r1", [{ kind: "run.status", data_json: "{}" }], 1);
      await stores.runEvents.appendAtCommit("r2", [{ kind: "run.status", data_json: "{}" }], 1);
      await stores.runEvents.appendAtCommit("r1", [{ kind: "model.request", data_json: "{}" }], 1);
    });
    await expect(
      s.transaction(async (stores) => {
        await stores.runEvents.appendAtCommit("r1", [{ kind: "run.status", data_json: "{}" }], 2);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    // A transaction without events tells nothing either.
    await s.transaction(async (stores) => stores.runs.get("r1", "*"));
    stop();
    await s.transaction(async (stores) => {
      await stores.runEvents.appendAtCommit("r2", [{ kind: "run.status", data_json: "{}" }], 3);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).toEqual([{ runIds: ["r1", "r2"], seen: 2 }]);
  });
});
