// The console's pure parts: the dry-run body keeps the editors' exact texts (big integers, key
// order), a call's timeline is in time order with late receipts marked, an executor's tools come from
// its declaration when it made one, which runs are still moving, and the browser's language.
import type { ExecutorSummary, ModelRequest, Run, StoredReceipt, ToolCall } from "@toolhost/protocol/wire";
import { describe, expect, it } from "vitest";
import { browserLanguage } from "../src/i18n/browser-language.js";
import { format, MESSAGES } from "../src/i18n/messages.js";
import { changesOf, patchList } from "../src/live/run-changes.js";
import type { BindingView } from "../src/pages/executors/executors-view.js";
import { executorTools } from "../src/pages/executors/executors-view.js";
import { timelineOf } from "../src/pages/runs/call-events.js";
import { durationText, waterfallOf } from "../src/pages/runs/call-waterfall.js";
import { callCancellable, callCompensable, runCancellable } from "../src/pages/runs/run-actions.js";
import { runMoving } from "../src/pages/runs/run-status.js";
import { pageSizeOf, runsPathOf, runsQueryOf, searchTargetOf } from "../src/pages/runs/runs-query.js";
import { CHART, tokenChartOf } from "../src/pages/runs/token-chart.js";
import { completedReceiptText, dryRunBodyText } from "../src/pages/schema/dry-run-body.js";

const t = (key: keyof (typeof MESSAGES)["en"], values?: Record<string, string | number>) =>
  format(MESSAGES.en[key], values);

describe("dryRunBodyText", () => {
  it("sends arguments and receipts exactly as typed", () => {
    const result = '{"z": 1, "id": 12345678901234567890, "x": 1e5}';
    const body = dryRunBodyText({
      agentVersion: "agv_1",
      toolName: "tasks.read",
      argumentsText: ' {"cursor": "c"}\n',
      receiptTexts: [completedReceiptText("r1", `\uFEFF${result}\n`)],
    });
    expect(body).toBe(
      `{"agent_version":"agv_1","tool_name":"tasks.read","arguments":{"cursor": "c"},"mock_receipts":[{"receipt_id": "r1", "kind": "completed", "result": ${result}}]}`,
    );
    expect(() => JSON.parse(body)).not.toThrow();
  });
});

describe("the message tables", () => {
  it("have the same keys in Chinese and English, and the seed's page name first", () => {
    expect(Object.keys(MESSAGES.zh).sort()).toEqual(Object.keys(MESSAGES.en).sort());
    expect(MESSAGES.zh["nav.schema"]).toBe("检查 Schema 与模拟回执");
  });
});

const CALL: ToolCall = {
  call_id: "call_1",
  run_id: "run_1",
  turn: 0,
  tool_name: "tasks.create",
  binding_id: "b",
  effect: "write",
  status: "completed",
  executor_id: "exec-1",
  claim_id: "clm_1",
  claimed_at: "2026-01-01T00:00:01.000Z",
  accepted_at: "2026-01-01T00:00:02.000Z",
  arguments_digest: "sha256:x",
  deadline: "2026-01-01T00:01:00.000Z",
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:04.000Z",
  settled_at: "2026-01-01T00:00:03.000Z",
};

function receipt(receiptId: string, kind: StoredReceipt["kind"], at: string, applied = true): StoredReceipt {
  return {
    receipt_id: receiptId,
    seq: 1,
    kind,
    executor_id: "exec-1",
    claim_id: "clm_1",
    applied,
    body_bytes: 10,
    created_at: at,
  };
}

describe("timelineOf", () => {
  it("orders a call's events by time and marks late receipts", () => {
    const events = timelineOf(
      CALL,
      [
        receipt("r-acc", "accepted", "2026-01-01T00:00:02.000Z"),
        receipt("r-done", "completed", "2026-01-01T00:00:03.000Z"),
        receipt("r-late", "completed", "2026-01-01T00:00:05.000Z", false),
      ],
      t,
    );
    expect(events.map((event) => event.text)).toEqual([
      "created (turn 0)",
      "claimed by exec-1",
      "start confirmed by the server (accepted)",
      "receipt completed",
      "settled: completed",
      "receipt completed — late receipt (the run had ended; not applied)",
    ]);
    expect(events.at(-1)?.tone).toBe("late");
  });

  it("says when the server refused a call", () => {
    const refused: ToolCall = { ...CALL, status: "failed", rejected: "invalid_arguments" };
    delete refused.claimed_at;
    expect(timelineOf(refused, [], t).map((event) => event.text)).toContain(
      "refused by the server (invalid_arguments); no executor saw it",
    );
  });
});

describe("executorTools", () => {
  const executor: ExecutorSummary = {
    executor_id: "e",
    connection_id: "c",
    epoch: 1,
    binding_ids: ["a"],
    online: true,
    connected_at: "2026-01-01T00:00:00.000Z",
    last_heartbeat_at: "2026-01-01T00:00:00.000Z",
    lease_expires_at: "2026-01-01T00:00:15.000Z",
    disconnected_at: null,
  };
  const bindings = [
    { binding: { binding_id: "a", name: "A", created_at: "" }, diagnostics: [], toolNames: ["x.read", "x.write"] },
    { binding: { binding_id: "b", name: "B", created_at: "" }, diagnostics: [], toolNames: ["y.read"] },
  ] as BindingView[];

  it("takes the tools of its bindings when it declared none, and its declaration when it made one", () => {
    expect(executorTools(executor, bindings)).toEqual({ names: ["x.read", "x.write"], declared: false });
    expect(executorTools({ ...executor, tool_names: ["x.read"] }, bindings)).toEqual({
      names: ["x.read"],
      declared: true,
    });
  });
});

describe("runMoving", () => {
  it("is true while the run or one of its calls may still change", () => {
    const run = { status: "completed" } as Parameters<typeof runMoving>[0];
    expect(runMoving(run, [CALL])).toBe(false);
    expect(runMoving(run, [{ ...CALL, status: "accepted" }])).toBe(true);
    expect(runMoving({ ...run, status: "waiting_for_tools" }, [])).toBe(true);
  });
});

describe("browserLanguage", () => {
  it("is Chinese for any zh* first preference and English otherwise", () => {
    expect(browserLanguage(["zh-CN", "en"])).toBe("zh");
    expect(browserLanguage(["zh-TW"])).toBe("zh");
    expect(browserLanguage(["ZH"])).toBe("zh");
    expect(browserLanguage(["en-US", "zh-CN"])).toBe("en");
    expect(browserLanguage(["fr-FR"])).toBe("en");
    expect(browserLanguage([])).toBe("en");
    expect(browserLanguage([""])).toBe("en");
  });
});

describe("the runs list's URL", () => {
  it("reads the filters, the cursor and the page size back from the URL it makes", () => {
    const query = { status: "failed", agent: "agt_1", cursor: "c/2+=", limit: "10" };
    const path = runsPathOf(query);
    expect(path).toBe("/runs?status=failed&agent=agt_1&cursor=c%2F2%2B%3D&limit=10");
    expect(runsQueryOf(path.slice("/runs".length))).toEqual(query);
    expect(runsPathOf({})).toBe("/runs");
    expect(runsPathOf({ status: "", cursor: undefined })).toBe("/runs");
  });

  it("ignores unknown and empty parameters, and a page size out of the API's range", () => {
    expect(runsQueryOf("?status=&other=1&session=ses_1")).toEqual({ session: "ses_1" });
    expect(pageSizeOf({})).toBe(50);
    expect(pageSizeOf({ limit: "1" })).toBe(1);
    expect(pageSizeOf({ limit: "200" })).toBe(200);
    for (const limit of ["0", "201", "2.5", "ten"]) expect(pageSizeOf({ limit })).toBe(50);
  });

  it("tells run, session and call IDs apart by their prefix", () => {
    expect(searchTargetOf(" run_01abc ")).toEqual({ kind: "run", id: "run_01abc" });
    expect(searchTargetOf("ses_01abc")).toEqual({ kind: "session", id: "ses_01abc" });
    expect(searchTargetOf("call_01abc")).toEqual({ kind: "call", id: "call_01abc" });
    expect(searchTargetOf("agt_01abc")).toEqual({ kind: "unknown", text: "agt_01abc" });
    expect(searchTargetOf("run_")).toEqual({ kind: "unknown", text: "run_" });
  });
});

describe("which actions apply", () => {
  const call = (status: ToolCall["status"], effect: ToolCall["effect"]) => ({ status, effect }) as ToolCall;

  it("cancels a run until it has ended", () => {
    const run = (status: string) => ({ status }) as Parameters<typeof runCancellable>[0];
    for (const status of ["queued", "running", "waiting_for_tools"])
      expect(runCancellable(run(status)), status).toBe(true);
    for (const status of ["completed", "failed", "cancelled", "expired"])
      expect(runCancellable(run(status)), status).toBe(false);
  });

  it("business-cancels a call until it is final, and compensates only a completed write call", () => {
    for (const status of ["pending", "claimed", "accepted", "reconciliation_required"] as const) {
      expect(callCancellable(call(status, "write")), status).toBe(true);
    }
    for (const status of ["completed", "failed", "cancelled", "expired"] as const) {
      expect(callCancellable(call(status, "write")), status).toBe(false);
    }
    expect(callCompensable(call("completed", "write"))).toBe(true);
    expect(callCompensable(call("completed", "read"))).toBe(false);
    expect(callCompensable(call("failed", "write"))).toBe(false);
  });
});

describe("the model requests chart", () => {
  const request = (estimated: number, actual: number | null, compacted = false): ModelRequest =>
    ({ estimated_input_tokens: estimated, actual_input_tokens: actual, compacted, purpose: "turn" }) as ModelRequest;

  it("scales to the window, so its line is always shown, with estimated and actual bars per request", () => {
    const chart = tokenChartOf([request(1000, 900), request(2000, null, true)], 8000);
    const base = CHART.height - CHART.bottom;
    expect(chart.baseY).toBe(base);
    expect(chart.scaleMax).toBe(8800);
    expect(chart.limitY).toBeCloseTo(base - (8000 / 8800) * (base - CHART.top));
    const [first, second] = chart.bars;
    expect(first?.estimatedY).toBeCloseTo(base - (1000 / 8800) * (base - CHART.top));
    expect(first?.actualY).toBeCloseTo(base - (900 / 8800) * (base - CHART.top));
    expect(second?.actualY).toBeNull();
    expect([first?.compacted, second?.compacted]).toEqual([false, true]);
    expect((second?.x ?? 0) > (first?.x ?? 0)).toBe(true);
  });

  it("grows the scale when a request went over the window", () => {
    const chart = tokenChartOf([request(12_000, 11_000)], 8000);
    expect(chart.scaleMax).toBe(13_200);
    expect((chart.bars[0]?.estimatedY ?? 0) < chart.limitY).toBe(true);
  });
});

describe("the call waterfall", () => {
  const t0 = Date.parse("2026-01-01T00:00:00.000Z");
  const iso = (ms: number) => new Date(t0 + ms).toISOString();
  const run = { created_at: iso(0), ended_at: iso(2000) } as Run;

  it("splits each call into waiting, claimed and running on the run's axis", () => {
    const settled = {
      call_id: "call_1",
      tool_name: "tasks.create",
      status: "completed",
      created_at: iso(500),
      claimed_at: iso(700),
      accepted_at: iso(800),
      settled_at: iso(1500),
    } as ToolCall;
    const [row] = waterfallOf(run, [settled], t0 + 99_999).rows;
    expect(row?.parts).toEqual([
      { phase: "waiting", left: 25, width: 10, ms: 200 },
      { phase: "claimed", left: 35, width: 5, ms: 100 },
      { phase: "running", left: 40, width: 35, ms: 700 },
    ]);
    expect(row?.totalMs).toBe(1000);
    expect(row?.open).toBe(false);
  });

  it("runs an open call up to now, and stretches the axis past the run's end to it", () => {
    const open = { call_id: "call_2", tool_name: "t", status: "pending", created_at: iso(1000) } as ToolCall;
    const waterfall = waterfallOf({ created_at: iso(0) } as Run, [open], t0 + 4000);
    expect(waterfall.spanMs).toBe(4000);
    expect(waterfall.rows[0]?.parts).toEqual([{ phase: "waiting", left: 25, width: 75, ms: 3000 }]);
    expect(waterfall.rows[0]?.open).toBe(true);
  });

  it("says durations in ms, s and min", () => {
    expect([durationText(850), durationText(1250), durationText(125_000)]).toEqual(["850 ms", "1.25 s", "2 min 5 s"]);
  });
});

describe("what a batch of run events changed", () => {
  it("keeps the latest run and call states, the model requests, and whether the history grew", () => {
    const changes = changesOf([
      { event: "run.status", data: { run_id: "run_1", status: "running" } },
      { event: "tool_call.status", data: { call_id: "call_1", status: "pending" } },
      { event: "tool_call.status", data: { call_id: "call_1", status: "completed" } },
      { event: "model.request", data: { request_id: "mrq_1" } },
      { event: "run.status", data: { run_id: "run_1", status: "waiting_for_tools" } },
      { event: "something.new", data: {} },
    ]);
    expect(changes.run?.status).toBe("waiting_for_tools");
    expect([...changes.calls.values()].map((call) => call.status)).toEqual(["completed"]);
    expect([...changes.models.keys()]).toEqual(["mrq_1"]);
    expect(changes.history).toBe(false);
    expect(changes.reload).toBe(false);
    expect(changesOf([{ event: "history.item", data: { seq: 0 } }]).history).toBe(true);
  });

  it("asks for a full reload when a run or call event came as a reference (data over 64 KiB)", () => {
    const href = "/v1/runs/run_1";
    const run = changesOf([
      { event: "run.status", data: { run_id: "run_1", status: "completed", ref: { bytes: 70_000, href } } },
    ]);
    expect(run.reload).toBe(true);
    expect(run.run).toBeUndefined();
    const call = changesOf([{ event: "tool_call.status", data: { ref: { bytes: 90_000, href } } }]);
    expect(call.reload).toBe(true);
    expect(call.calls.size).toBe(0);
    const item = changesOf([
      { event: "history.item", data: { seq: 3, ref: { bytes: 80_000, href: `${href}/history` } } },
    ]);
    expect(item).toMatchObject({ history: true, reload: false });
  });

  it("replaces changed items in place and appends new ones", () => {
    const list = [
      { id: "a", v: 1 },
      { id: "b", v: 1 },
    ];
    const changed = new Map([
      ["c", { id: "c", v: 1 }],
      ["a", { id: "a", v: 2 }],
    ]);
    expect(patchList(list, changed, (item) => item.id)).toEqual([
      { id: "a", v: 2 },
      { id: "b", v: 1 },
      { id: "c", v: 1 },
    ]);
  });
});
