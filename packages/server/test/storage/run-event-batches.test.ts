// Run events stored several to a row (run-event-batch.ts): the pure row plan reads back every event
// as appended, and on both dialects a stream read from any cursor with any limit answers exactly what
// the same events answer when each has a row of its own.

import fc from "fast-check";
import { expect, it } from "vitest";
import { runStatusEvent, toolCallEvent } from "../../src/runs/run-events.js";
import type { ModelRequestRecord, NewRunEvent } from "../../src/storage/records.js";
import {
  MAX_BATCH_EVENTS,
  MAX_BATCHED_SNAPSHOT_BYTES,
  planRows,
  readBatch,
} from "../../src/storage/runs/run-event-batch.js";
import { callRecord, publishRuntime, runRecord } from "../support/call-fixtures.js";
import { describeEachDialect, useTestStorage } from "../support/test-databases.js";

const RUN = "run_1";

const snapshotArb = fc.option(
  fc
    .record({
      status: fc.constantFrom("queued", "pending", "completed"),
      output: fc.option(fc.string({ unit: "grapheme", maxLength: 30 }), { nil: undefined }),
      updated_at_ms: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
    })
    .map((members) => JSON.stringify(members)),
  { nil: null },
);

const eventArb: fc.Arbitrary<NewRunEvent> = fc.oneof(
  fc.record({ kind: fc.constant("history.item" as const), history_seq: fc.nat(1_000) }),
  fc.record({
    kind: fc.constantFrom("run.status" as const, "tool_call.status" as const, "model.request" as const),
    ref_id: fc.constantFrom(RUN, "run_2", "call_1", "mrq_1", '\u{1F600}"\\'),
    snapshot_json: snapshotArb,
  }),
  fc.record({
    kind: fc.constantFrom("run.status" as const, "model.request" as const),
    data_json: fc.json(),
  }),
  // A snapshot too long to share a row.
  fc.constant<NewRunEvent>({
    kind: "run.status",
    ref_id: RUN,
    snapshot_json: JSON.stringify({ status: "completed", output: "x".repeat(MAX_BATCHED_SNAPSHOT_BYTES) }),
  }),
);

/** What an event must read back as, snapshots compared by their members (as they are read). */
function meaning(event: NewRunEvent, atMs: number) {
  if (event.kind === "history.item") return { kind: event.kind, history_seq: event.history_seq, atMs };
  if ("data_json" in event) return { kind: event.kind, data_json: event.data_json, atMs };
  const snapshot = event.snapshot_json === null ? null : (JSON.parse(event.snapshot_json) as Record<string, unknown>);
  const members =
    snapshot === null
      ? null
      : Object.fromEntries(Object.entries({ updated_at_ms: null, ...snapshot }).sort(([a], [b]) => a.localeCompare(b)));
  return { kind: event.kind, ref_id: event.ref_id, snapshot: members, atMs };
}

it("planRows: every event reads back in order, batches of 2 to MAX_BATCH_EVENTS, the rest alone", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(eventArb, fc.integer({ min: 10, max: 12 })), { maxLength: 3 * MAX_BATCH_EVENTS }),
      (pairs) => {
        const events = pairs.map(([event]) => event);
        const atMs = pairs.map(([, at]) => at);
        const rows = planRows(RUN, events, atMs);
        const read: unknown[] = [];
        let seq = 100;
        for (const row of rows) {
          if (!row.batch) {
            read.push(meaning(row.event, row.atMs));
            seq += 1;
            continue;
          }
          expect(row.count).toBeGreaterThanOrEqual(2);
          expect(row.count).toBeLessThanOrEqual(MAX_BATCH_EVENTS);
          seq += row.count;
          const batched = readBatch(row.dataJson, seq, row.atMs);
          expect(batched.map((event) => event.seq)).toEqual(
            Array.from({ length: row.count }, (_, index) => seq - row.count + 1 + index),
          );
          for (const event of batched) {
            if (event.kind === "history.item") {
              read.push(meaning(event, event.created_at_ms));
              continue;
            }
            // '' names the event's own run.
            const ref = event.ref_id === "" ? RUN : event.ref_id;
            read.push(
              meaning({ kind: event.kind, ref_id: ref, snapshot_json: event.snapshot_json }, event.created_at_ms),
            );
          }
        }
        expect(read).toEqual(events.map((event, index) => meaning(event, atMs[index] as number)));
        // Events with data of their own, and long snapshots, always have rows of their own.
        for (const row of rows) {
          if (!row.batch) continue;
          expect(row.dataJson.length).toBeLessThan(MAX_BATCH_EVENTS * (2 * MAX_BATCHED_SNAPSHOT_BYTES + 100));
        }
      },
    ),
    { numRuns: 300 },
  );
});

const request = (runId: string): ModelRequestRecord => ({
  request_id: `mrq_${runId}`,
  run_id: runId,
  turn: 0,
  purpose: "turn",
  provider: "scripted",
  model: "scripted",
  request_bytes: 95,
  estimated_input_tokens: 46,
  actual_input_tokens: null,
  output_tokens: 7,
  compacted: false,
  latency_ms: 3,
  error_json: null,
  created_at_ms: 5_500,
});

describeEachDialect("run events in batch rows", (dialect) => {
  const storage = useTestStorage(dialect);

  it("read from every cursor with any limit exactly as events of a row each; large items by size only", async () => {
    const s = storage();
    await publishRuntime(s);
    const big = JSON.stringify({ type: "tool_result", text: "y".repeat(3_000) });
    /** The events of one run: 150 in one commit (three batch rows and rows of their own between). */
    const eventsOf = (runId: string, seqs: number[]): NewRunEvent[] => {
      const events: NewRunEvent[] = [];
      for (let index = 0; index < 150; index++) {
        const at = 6_000 + index;
        if (index % 5 === 0) events.push({ kind: "history.item", history_seq: seqs[index % seqs.length] as number });
        else if (index % 5 === 1) events.push(runStatusEvent(runRecord(runId, { updated_at_ms: at })));
        else if (index % 5 === 2)
          events.push(toolCallEvent(callRecord(runId, `c_${runId}`, { status: "pending", updated_at_ms: 6_000 })));
        else if (index % 5 === 3) events.push({ kind: "model.request", ref_id: `mrq_${runId}`, snapshot_json: null });
        else if (index === 74) events.push({ kind: "model.request", data_json: '{"n":12345678901234567890}' });
        else if (index === 99)
          events.push(runStatusEvent(runRecord(runId, { status: "completed", output: "z".repeat(2_000) })));
        else events.push({ kind: "history.item", history_seq: seqs[1] as number });
      }
      return events;
    };
    const streams: Record<string, NewRunEvent[]> = {};
    for (const runId of ["r_batched", "r_single"]) {
      await s.runs.insert(runRecord(runId));
      await s.calls.insertMany([callRecord(runId, `c_${runId}`, { status: "completed", updated_at_ms: 9_000 })]);
      await s.modelRequests.insert(request(runId));
      const seqs = await s.transaction((stores) =>
        stores.history.append(runId, ['{"type":"input","input":"\u{1F600}"}', big, '{"type":"message"}'], 5_000),
      );
      streams[runId] = eventsOf(runId, seqs);
    }
    // One commit for the batched run, events at their own times.
    await s.transaction(async (stores) => {
      for (const [index, event] of (streams.r_batched ?? []).entries())
        await stores.runEvents.appendAtCommit("r_batched", [event], 6_000 + Math.floor(index / 3));
    });
    // The other run: one append per event, so each has a row of its own.
    for (const [index, event] of (streams.r_single ?? []).entries())
      expect(await s.runEvents.append("r_single", [event], 6_000 + Math.floor(index / 3))).toEqual([index + 1]);

    const unnamed = <T extends { run_id: string; source: unknown }>(events: T[], runId: string) =>
      JSON.parse(JSON.stringify(events).replaceAll(runId, "RUN")) as T[];
    const all = unnamed(await s.runEvents.listAfter("r_single", 0, 1_000, 2_500), "r_single");
    expect(all).toHaveLength(150);
    expect(unnamed(await s.runEvents.listAfter("r_batched", 0, 1_000, 2_500), "r_batched")).toEqual(all);
    // The large item comes by its size only, on both.
    expect(all.filter((event) => event.kind === "history.item" && event.data_json === null).length).toBeGreaterThan(0);
    for (const after of [0, 1, 5, 63, 64, 65, 74, 75, 99, 100, 148, 149, 150]) {
      for (const limit of [1, 7, 100]) {
        const read = unnamed(await s.runEvents.listAfter("r_batched", after, limit, 2_500), "r_batched");
        expect(read).toEqual(all.slice(after, after + limit));
      }
    }
    // The batched run took far fewer rows: the next append numbers on from the last batch.
    expect(await s.runEvents.append("r_batched", [{ kind: "history.item", history_seq: 0 }], 7_000)).toEqual([151]);
    expect(await s.runEvents.append("r_batched", streams.r_batched?.slice(0, 3) ?? [], 7_000)).toEqual([152, 153, 154]);
    expect((await s.runEvents.listAfter("r_batched", 150, 10)).map((event) => event.seq)).toEqual([151, 152, 153, 154]);
  });
});
