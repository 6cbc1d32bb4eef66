// The pure decisions of a run: the scripted model's turns, checking a turn's calls, the records one
// turn writes, what the model sees of each outcome, and compensation.
import {
  argumentsDigest,
  CANCELLED_RESULT,
  compact,
  EXPIRED_RESULT,
  MeasuredResult,
  parseJson,
  projectResult,
  projectUnknownOutcome,
  type ToolDefinition,
  validateToolDefinition,
} from "@toolhost/protocol";
import { describe, expect, it } from "vitest";
import { decideCompensation } from "../../src/runs/compensate-call.js";
import { previewJson } from "../../src/runs/history-items.js";
import { outcomePreview, outcomeReceiptId } from "../../src/runs/outcome-preview.js";
import { historyPageText, toolCallOf } from "../../src/runs/run-wire.js";
import { readScriptedModel, scriptedTurn } from "../../src/runs/scripted-turn.js";
import { planToolCalls } from "../../src/runs/tool-call-plan.js";
import { turnRecords } from "../../src/runs/turn-records.js";
import { callRecord } from "../support/call-fixtures.js";

const TOOLS: ToolDefinition[] = [
  validateToolDefinition({
    name: "tasks.read",
    binding_id: "b-read",
    effect: "read",
    input_schema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
    max_result_context_bytes: 1024,
    timeout_ms: 5_000,
  }),
  validateToolDefinition({ name: "tasks.create", binding_id: "b-write", input_schema: { type: "object" } }),
];

describe("the scripted model", () => {
  const model = readScriptedModel(
    '{"provider":"scripted","script":[{"tool_calls":[{"name":"tasks.read","arguments":{"z":1,"n":12345678901234567890,"a":1.0}}]},{"message":"done"}]}',
  );

  it("plays one step per turn, with the arguments read losslessly in the stored key order", () => {
    const first = scriptedTurn(model, 0);
    expect(first.kind).toBe("tool_calls");
    if (first.kind !== "tool_calls") return;
    expect(first.calls.map((call) => [call.name, compact(call.arguments)])).toEqual([
      ["tasks.read", '{"z":1,"n":12345678901234567890,"a":1.0}'],
    ]);
    expect(scriptedTurn(model, 1)).toEqual({ kind: "message", text: "done" });
  });

  it("fails the run with script_exhausted past the last step", () => {
    expect(scriptedTurn(model, 2)).toEqual({
      kind: "fail",
      error: { code: "script_exhausted", message: "the script has 2 steps and turn 3 needs another one" },
    });
  });

  it("refuses stored settings that are not a valid script", () => {
    expect(() => readScriptedModel('{"provider":"scripted","script":[]}')).toThrow();
    expect(() => readScriptedModel('{"provider":"other"}')).toThrow();
  });
});

describe("checking a turn's calls", () => {
  it("keeps valid calls, refuses unknown tools and invalid arguments with the error the model sees", () => {
    const planned = planToolCalls(
      [
        { name: "tasks.read", arguments: parseJson('{"n":1,"x":"中"}') },
        { name: "tasks.read", arguments: parseJson('{"n":"one"}') },
        { name: "tasks.gone", arguments: parseJson("{}") },
      ],
      TOOLS,
    );
    expect(planned[0]).toMatchObject({ argumentsJson: '{"n":1,"x":"中"}', refusal: undefined, tool: TOOLS[0] });
    expect(planned[0]?.argumentsDigest).toBe(argumentsDigest({ x: "中", n: 1 }));
    expect(planned[1]?.refusal).toEqual({
      reason: "invalid_arguments",
      budget: 1024,
      result: {
        error: {
          code: "invalid_arguments",
          message:
            'The arguments do not match the input schema of tool "tasks.read"; nothing was executed. Fix them and call again.',
          errors: [{ pointer: "/n", message: "must be integer" }],
        },
      },
    });
    expect(planned[2]?.tool).toBeUndefined();
    expect(planned[2]?.refusal).toEqual({
      reason: "unknown_tool",
      budget: 16384,
      result: {
        error: {
          code: "unknown_tool",
          message: 'There is no tool named "tasks.gone"; nothing was executed. Call one of the listed tools.',
          tools: ["tasks.read", "tasks.create"],
        },
      },
    });
  });

  it("turns them into pending and refused (failed) call rows and the history items of the turn", () => {
    const planned = planToolCalls(
      [
        { name: "tasks.read", arguments: parseJson('{"n":1}') },
        { name: "tasks.gone", arguments: parseJson('{"q":2}') },
        { name: "tasks.create", arguments: parseJson("{}") },
        { name: "tasks.read", arguments: parseJson('{"n":2}') },
      ],
      TOOLS,
    );
    const records = turnRecords("r1", 3, planned, ["c0", "c1", "c2", "c3"], 10_000);
    expect(records.calls.map((call) => [call.call_id, call.turn, call.position, call.status, call.binding_id])).toEqual(
      [
        ["c0", 3, 0, "pending", "b-read"],
        ["c1", 3, 1, "failed", ""],
        ["c2", 3, 2, "pending", "b-write"],
        ["c3", 3, 3, "pending", "b-read"],
      ],
    );
    expect(records.calls[0]).toMatchObject({ deadline_ms: 15_000, effect: "read", max_result_context_bytes: 1024 });
    expect(records.calls[1]).toMatchObject({ deadline_ms: 10_000, settled_at_ms: 10_000, effect: "write" });
    expect(records.calls[2]).toMatchObject({ deadline_ms: 310_000, max_result_context_bytes: 16384 });
    // One wake-up per pending call (each wakes one executor), none for the refused one.
    expect(records.wakeups).toEqual([
      { kind: "call", call_id: "c0", binding_id: "b-read", tool_name: "tasks.read", handoffs: 0 },
      { kind: "call", call_id: "c2", binding_id: "b-write", tool_name: "tasks.create", handoffs: 0 },
      { kind: "call", call_id: "c3", binding_id: "b-read", tool_name: "tasks.read", handoffs: 0 },
    ]);
    expect(records.items[0]).toBe(
      '{"type":"tool_calls","calls":[{"call_id":"c0","name":"tasks.read","arguments":{"n":1}},{"call_id":"c1","name":"tasks.gone","arguments":{"q":2}},{"call_id":"c2","name":"tasks.create","arguments":{}},{"call_id":"c3","name":"tasks.read","arguments":{"n":2}}]}',
    );
    const refusal = planned[1]?.refusal;
    if (refusal === undefined) throw new Error("c1 must be refused");
    const preview = projectResult(refusal.result, 16384);
    expect(records.items.slice(1)).toEqual([
      `{"type":"tool_result","call_id":"c1","receipt_id":null,"context_preview":{"max_result_context_bytes":16384,"original_bytes":${preview.original_bytes},"retained_bytes":${preview.retained_bytes},"truncated":false,"result":${compact(refusal.result)}}}`,
    ]);
    const refused = records.calls[1];
    if (refused === undefined) throw new Error("c1 must be stored");
    expect(toolCallOf(refused)).toMatchObject({ rejected: "unknown_tool", status: "failed" });
    expect(toolCallOf(refused).binding_id).toBeUndefined();
  });
});

describe("what the model sees of an outcome", () => {
  const big = parseJson(
    `{"items":[${Array.from({ length: 400 }, (_, i) => `{"id":${i},"v":12345678901234567890}`).join(",")}],"next_cursor":"p2"}`,
  );

  it("projects a completed result exactly as projectResult does (the dry-run preview)", () => {
    const preview = outcomePreview(
      { kind: "completed", receipt_id: "r1", result: MeasuredResult.of(big), result_type: "json" },
      1024,
    );
    expect(compact(previewJson(preview))).toBe(compact(previewJson(projectResult(big, 1024))));
    expect(preview.truncated).toBe(true);
    expect(preview.retained_bytes).toBeLessThanOrEqual(1024);
  });

  it("projects a failure as {error}, and fixed messages for cancelled, expired and unknown outcomes", () => {
    const error = parseJson('{"code":"E1","big":1e5}');
    expect(outcomePreview({ kind: "failed", receipt_id: "r", error }, 2048)).toEqual(projectResult({ error }, 2048));
    expect(outcomePreview({ kind: "cancelled", receipt_id: null }, 2048).result).toEqual(CANCELLED_RESULT);
    expect(outcomePreview({ kind: "expired" }, 2048)).toMatchObject({ result: EXPIRED_RESULT, truncated: false });
    expect(outcomePreview({ kind: "reconciliation_required", receipt_id: "x" }, 1024)).toEqual(
      projectUnknownOutcome(1024),
    );
    expect(outcomeReceiptId({ kind: "expired" })).toBeNull();
    expect(outcomeReceiptId({ kind: "failed", receipt_id: "r9", error })).toBe("r9");
  });
});

describe("compensation", () => {
  const completedWrite = callRecord("r1", "c1", { status: "completed", effect: "write" });

  it("is allowed only for a completed write call", () => {
    for (const call of [
      callRecord("r1", "c1", { status: "accepted" }),
      callRecord("r1", "c1", { status: "failed" }),
      callRecord("r1", "c1", { status: "reconciliation_required" }),
      callRecord("r1", "c1", { status: "completed", effect: "read" }),
    ]) {
      expect(() => decideCompensation(call, TOOLS, "tasks.create", {})).toThrow(
        expect.objectContaining({ code: "not_compensable", status: 409 }),
      );
    }
    expect(decideCompensation(completedWrite, TOOLS, "tasks.create", {})).toBe(TOOLS[1]);
  });

  it("needs a tool of the toolset and arguments matching its schema", () => {
    expect(() => decideCompensation(completedWrite, TOOLS, "tasks.gone", {})).toThrow(
      expect.objectContaining({ code: "unknown_reference", pointer: "/tool_name" }),
    );
    expect(() => decideCompensation(completedWrite, TOOLS, "tasks.read", { n: "x" })).toThrow(
      expect.objectContaining({ code: "validation_failed", pointer: "/arguments/n", status: 422 }),
    );
  });
});

describe("history pages", () => {
  it("are the stored texts, concatenated as they are", () => {
    const items = ['{"type":"input","input":1.50}', '{"b":1,"a":2}'].map((item_json, seq) => ({
      run_id: "r",
      seq,
      item_json,
      created_at_ms: 1,
    }));
    expect(historyPageText({ items, next_cursor: null })).toBe(
      '{"data":[{"type":"input","input":1.50},{"b":1,"a":2}],"next_cursor":null}',
    );
    expect(historyPageText({ items: [], next_cursor: 'a"b' })).toBe('{"data":[],"next_cursor":"a\\"b"}');
  });
});
