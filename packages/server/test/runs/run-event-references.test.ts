// Run events stored as references (run-event-data.ts) on both dialects: a `run.status`,
// `tool_call.status` or `model.request` event stores its row's ID and a snapshot of what changes, and
// reads back byte for byte the wire form it had when appended, however the row changed since; events
// stored with their wire form (before 0016) read as they are.

import { expect, it } from "vitest";
import { runStatusData } from "../../src/runs/event-reference.js";
import { modelRequestOf } from "../../src/runs/model-request-wire.js";
import { eventsWithData } from "../../src/runs/run-event-data.js";
import { modelRequestEvent, runStatusEvent, toolCallEvent } from "../../src/runs/run-events.js";
import { toolCallOf } from "../../src/runs/run-wire.js";
import type { ModelRequestRecord } from "../../src/storage/records.js";
import { callRecord, publishRuntime, runRecord } from "../support/call-fixtures.js";
import { describeEachDialect, useTestStorage } from "../support/test-databases.js";

const request: ModelRequestRecord = {
  request_id: "mrq1",
  run_id: "r1",
  turn: 0,
  purpose: "turn",
  provider: "scripted",
  model: "scripted",
  request_bytes: 95,
  estimated_input_tokens: 46,
  actual_input_tokens: null,
  output_tokens: 7,
  compacted: true,
  latency_ms: 3,
  error_json: '{"code":"model_unavailable","message":"down"}',
  created_at_ms: 5_500,
};

describeEachDialect("run events stored as references", (dialect) => {
  const storage = useTestStorage(dialect);

  it("read back the wire form they had when appended, not the row's current one", async () => {
    const s = storage();
    await publishRuntime(s);
    // The rows as they are now (later than the events): the run ended, the call completed.
    const ended = runRecord("r1", {
      status: "completed",
      output: "Fini — \u{1F600}",
      updated_at_ms: 9_000,
      ended_at_ms: 9_000,
      turn: 2,
      history_length: 4,
    });
    await s.runs.insert(ended);
    const completed = callRecord("r1", "c1", {
      status: "completed",
      executor_id: "ex1",
      claim_id: "clm1",
      grant_hash: "ab",
      claimed_at_ms: 7_000,
      accept_deadline_ms: 37_000,
      accepted_at_ms: 7_500,
      settled_at_ms: 8_000,
      updated_at_ms: 8_000,
    });
    await s.calls.insertMany([completed]);
    await s.modelRequests.insert(request);
    // The events as the flows appended them, at earlier states of the same rows.
    const queued = runRecord("r1", { status: "queued", turn: 0 });
    const failed = runRecord("r1", {
      status: "failed",
      error_json: '{"code":"run_timed_out","message":"late"}',
      updated_at_ms: 8_500,
      ended_at_ms: 8_500,
    });
    const pending = callRecord("r1", "c1");
    const cancelAsked = callRecord("r1", "c1", {
      status: "accepted",
      executor_id: "ex1",
      claim_id: "clm1",
      claimed_at_ms: 7_000,
      accepted_at_ms: 7_500,
      cancel_requested_at_ms: 7_700,
      updated_at_ms: 7_700,
    });
    const events = [
      runStatusEvent(queued),
      toolCallEvent(pending),
      modelRequestEvent(request),
      toolCallEvent(cancelAsked),
      toolCallEvent(completed),
      runStatusEvent(failed),
      runStatusEvent(ended),
    ];
    for (const event of events) expect(event).not.toHaveProperty("data_json");
    expect(await s.runEvents.append("r1", events, 9_000)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // An event stored with its wire form, as every event was before 0016.
    const legacy = JSON.stringify(toolCallOf(pending));
    await s.runEvents.append("r1", [{ kind: "tool_call.status", data_json: legacy }], 9_000);

    const stored = await s.runEvents.listAfter("r1", 0, 10);
    expect(stored.map((event) => event.source === null)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
    const read = eventsWithData(stored, Number.MAX_SAFE_INTEGER);
    const expected = [
      runStatusData(queued),
      JSON.stringify(toolCallOf(pending)),
      JSON.stringify(modelRequestOf(request)),
      JSON.stringify(toolCallOf(cancelAsked)),
      JSON.stringify(toolCallOf(completed)),
      runStatusData(failed),
      runStatusData(ended),
      legacy,
    ];
    expect(read.map((event) => event.data_json)).toEqual(expected);
    expect(read.map((event) => event.data_bytes)).toEqual(expected.map((data) => Buffer.byteLength(data, "utf8")));
    expect(read.map((event) => event.kind)).toEqual([
      "run.status",
      "tool_call.status",
      "model.request",
      "tool_call.status",
      "tool_call.status",
      "run.status",
      "run.status",
      "tool_call.status",
    ]);
    // The snapshot is what changes only: far shorter than the wire form it stands for.
    const pendingStored = events[1] as { snapshot_json: string };
    expect(pendingStored.snapshot_json).toBe('{"status":"pending","updated_at_ms":6000}');
    // Longer than the reader's limit: no data, only its size, as for an event stored whole.
    const limited = eventsWithData(await s.runEvents.listAfter("r1", 0, 1), 10);
    expect(limited).toMatchObject([{ seq: 1, data_json: null, data_bytes: Buffer.byteLength(expected[0] ?? "") }]);
  });
});
