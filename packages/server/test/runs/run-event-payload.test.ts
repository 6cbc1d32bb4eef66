// The cross-instance run event wake-up payload and the references of large events (both pure):
// round trip, split under PostgreSQL's size limit, foreign payloads ignored; a long run.status
// loses its output for a ref, a history reference reads exactly its item.
import { describe, expect, it } from "vitest";
import { historyItemHref, MAX_EVENT_DATA_BYTES, runStatusData } from "../../src/runs/event-reference.js";
import {
  decodeRunEventWakeup,
  encodeRunEventWakeups,
  RUN_EVENT_PAYLOAD_MAX_BYTES,
} from "../../src/runs/run-event-payload.js";
import { decodeNumberCursor } from "../../src/storage/page-cursor.js";
import type { RunRecord } from "../../src/storage/records.js";

const RUN: RunRecord = {
  run_id: "run_1",
  session_id: "ses_1",
  agent_id: "agt_1",
  agent_version: "agv_1",
  subject: "user",
  status: "completed",
  input_json: '"hi"',
  turn: 1,
  output: "done",
  error_json: null,
  history_length: 2,
  created_at_ms: 1_000,
  updated_at_ms: 2_000,
  ended_at_ms: 2_000,
  max_turns: 100,
  max_tool_calls: 500,
  tool_call_count: 0,
  deadline_ms: null,
};

describe("run event wake-up payloads", () => {
  it("round-trip origin, schema and distinct run IDs; long lists split within the limit, none lost", () => {
    const [one] = encodeRunEventWakeups("o1", "t_abc", ["r1", "r2", "r1"]);
    expect(decodeRunEventWakeup(one)).toEqual({ origin: "o1", schema: "t_abc", runIds: ["r1", "r2"] });
    expect(encodeRunEventWakeups("o", "s", [])).toEqual([]);
    const ids = Array.from({ length: 400 }, (_, i) => `run_${i}_${"x".repeat(100)}`);
    const payloads = encodeRunEventWakeups("origin", "public", ids);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(RUN_EVENT_PAYLOAD_MAX_BYTES);
    expect(payloads.flatMap((p) => decodeRunEventWakeup(p)?.runIds ?? [])).toEqual(ids);
    expect(encodeRunEventWakeups("o", "s", ["a".repeat(50)], 30)).toEqual([]);
  });

  it("ignores payloads that are not run event wake-ups", () => {
    for (const payload of [undefined, "", "r1", "[]", "null", '{"o":"x","s":"y"}', '{"o":"x","s":"y","r":[1]}']) {
      expect(decodeRunEventWakeup(payload)).toBeUndefined();
    }
  });
});

describe("large event references", () => {
  it("a run.status over 64 KiB keeps the status and points at the run instead of carrying the output", () => {
    expect(JSON.parse(runStatusData(RUN))).toMatchObject({ status: "completed", output: "done" });
    const long = runStatusData({ ...RUN, output: "x".repeat(MAX_EVENT_DATA_BYTES) });
    expect(Buffer.byteLength(long)).toBeLessThan(1_024);
    const data = JSON.parse(long);
    expect(data).toMatchObject({ run_id: "run_1", status: "completed", ref: { href: "/v1/runs/run_1" } });
    expect(data.output).toBeUndefined();
    expect(data.ref.bytes).toBeGreaterThan(MAX_EVENT_DATA_BYTES);
  });

  it("a history item's reference is the history page after the item before it", () => {
    const href = new URL(historyItemHref("run_1", 0), "http://x");
    expect(href.pathname).toBe("/v1/runs/run_1/history");
    expect(href.searchParams.get("limit")).toBe("1");
    expect(decodeNumberCursor("history", href.searchParams.get("cursor"))).toBe(-1);
  });
});
