// Pure parts of the model area: tool name mapping, the conversation read from stored history items,
// the token estimator's calibration, and the window decision.

import { compact, parseJson, TOOL_NAME_PATTERN } from "@toolhost/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decideWindow, fitsWindow } from "../../src/models/context-window.js";
import { readConversation, toolResultText } from "../../src/models/conversation.js";
import type { ConversationSize } from "../../src/models/request-size.js";
import {
  addTextFeatures,
  calibratedWeights,
  estimateTokens,
  noFeatures,
  observationTerms,
  PRIOR_WEIGHTS,
  type TokenFeatures,
} from "../../src/models/token-estimate.js";
import { PROVIDER_TOOL_NAME, toolNameMap } from "../../src/models/tool-names.js";
import type { HistoryItemRecord } from "../../src/storage/records.js";

describe("tool names", () => {
  it("keeps acceptable names and maps the others reversibly", () => {
    const map = toolNameMap(["tasks.read", "tasks_create", "a.b", "a_b", "x".repeat(128)]);
    expect(map.toProvider("tasks_create")).toBe("tasks_create");
    expect(map.toProvider("tasks.read")).toBe("tasks_read");
    expect(map.toProvider("a_b")).toBe("a_b");
    expect(map.toProvider("a.b")).toMatch(/^a_b_[0-9a-f]{8}$/);
    expect(map.toProvider("x".repeat(128))).toMatch(/^x{55}_[0-9a-f]{8}$/);
    expect(map.fromProvider("tasks_read")).toBe("tasks.read");
    expect(map.fromProvider("nope")).toBeUndefined();
  });

  it("maps any toolset one to one onto names providers accept, and back", () => {
    const name = fc.stringMatching(new RegExp(TOOL_NAME_PATTERN.source));
    fc.assert(
      fc.property(fc.uniqueArray(name, { maxLength: 12 }), (names) => {
        const map = toolNameMap(names);
        const mapped = names.map((n) => map.toProvider(n));
        expect(new Set(mapped).size).toBe(names.length);
        for (const [i, n] of names.entries()) {
          expect(mapped[i]).toMatch(PROVIDER_TOOL_NAME);
          expect(map.fromProvider(mapped[i] as string)).toBe(n);
        }
      }),
    );
  });
});

function items(texts: string[]): HistoryItemRecord[] {
  return texts.map((item_json, seq) => ({ run_id: "r", seq, item_json, created_at_ms: 0 }));
}

const preview = (result: string) =>
  `{"max_result_context_bytes":1024,"original_bytes":1,"retained_bytes":1,"truncated":false,"result":${result}}`;

describe("conversation", () => {
  it("slices a tool result's text byte for byte, whatever its receipt ID holds", () => {
    const result = '{"b":1.5,"a":[12345678901234567890,"\\"result\\":"],"中":"文"}';
    const item = `{"type":"tool_result","call_id":"c1","receipt_id":"r,\\"result\\":1}","context_preview":${preview(result)}}`;
    expect(toolResultText(item)).toBe(result);
    expect(compact(parseJson(toolResultText(item)))).toBe(result);
  });

  it("pins the input, shows the latest summary instead of what it replaced, and a later outcome as user text", () => {
    const conversation = readConversation(
      "sys",
      items([
        '{"type":"input","input":{"q":1}}',
        '{"type":"tool_calls","calls":[{"call_id":"c1","name":"tasks.read","arguments":{"z":1,"a":2}}]}',
        `{"type":"tool_result","call_id":"c1","receipt_id":null,"context_preview":${preview('"one"')}}`,
        '{"type":"tool_calls","calls":[{"call_id":"c2","name":"tasks.read","arguments":{}}]}',
        `{"type":"tool_result","call_id":"c2","receipt_id":"r2","context_preview":${preview('"two"')}}`,
        '{"type":"compaction","summary":"S","through_seq":2}',
        `{"type":"tool_result","call_id":"c1","receipt_id":"r9","context_preview":${preview('"late"')}}`,
        `{"type":"tool_result","call_id":"c2","receipt_id":"r8","context_preview":${preview('"again"')}}`,
      ]),
    );
    expect(conversation.compacted).toBe(true);
    expect(conversation.head).toEqual([
      { role: "user", text: '{"q":1}' },
      { role: "user", text: "Summary of the earlier part of this conversation (compacted):\nS" },
    ]);
    expect(conversation.blocks).toEqual([
      {
        first_seq: 3,
        messages: [
          { role: "assistant", calls: [{ call_id: "c2", name: "tasks.read", arguments_json: "{}" }] },
          { role: "tool", call_id: "c2", text: '"two"' },
          { role: "user", text: 'The outcome of tool call c1 is now known: "late"' },
          { role: "user", text: 'The outcome of tool call c2 is now known: "again"' },
        ],
      },
    ]);
  });
});

describe("token estimator", () => {
  it("counts ASCII bytes, CJK characters and other bytes", () => {
    expect(addTextFeatures(noFeatures(), "ab 中文😀é", 2)).toEqual([3, 2, 6, 2, 0]);
  });

  it("answers the prior without observations and recovers real weights from a few", () => {
    expect(calibratedWeights(0, undefined)).toEqual([...PRIOR_WEIGHTS]);
    const truth: TokenFeatures = [0.3, 0.7, 0.45, 3, 25];
    const sums = new Array<number>(20).fill(0);
    let n = 0;
    for (let i = 0; i < 40; i++) {
      const x: TokenFeatures = [1000 + 97 * i, (i * 37) % 400, (i * 13) % 90, 2 + (i % 7), 1];
      const y = estimateTokens(truth, x);
      observationTerms(x, y).forEach((term, k) => {
        sums[k] = (sums[k] as number) + term;
      });
      n++;
    }
    const weights = calibratedWeights(n, sums);
    const probe: TokenFeatures = [5000, 300, 50, 9, 1];
    const error =
      Math.abs(estimateTokens(weights, probe) - estimateTokens(truth, probe)) / estimateTokens(truth, probe);
    expect(error).toBeLessThan(0.02);
  });

  it("keeps the prior for a feature no observation has", () => {
    const sums = new Array<number>(20).fill(0);
    const x: TokenFeatures = [1000, 0, 0, 2, 1];
    observationTerms(x, 300).forEach((term, k) => {
      sums[k] = (sums[k] as number) + term;
    });
    expect(calibratedWeights(1, sums)[1]).toBeCloseTo(PRIOR_WEIGHTS[1], 6);
  });
});

describe("window decision", () => {
  const weights: TokenFeatures = [1, 0, 0, 0, 0];
  const size = (fixed: number, input: number, blocks: number[]): ConversationSize => ({
    fixed: [fixed, 0, 0, 0, 1],
    input: [input, 0, 0, 0, 0],
    summary: [0, 0, 0, 0, 0],
    blocks: blocks.map((b) => [b, 0, 0, 0, 0]),
  });
  const limits = { maxContextTokens: 1000, maxOutputTokens: 100, summaryTokens: 50 };

  it("lets a request within the window (with the margin) through", () => {
    expect(decideWindow(weights, size(100, 100, [300, 300]), limits)).toEqual({ kind: "fits", estimated_tokens: 800 });
    expect(fitsWindow(857, limits)).toBe(true);
    expect(fitsWindow(858, limits)).toBe(false);
  });

  it("compacts the fewest oldest blocks that bring the rest under half the budget", () => {
    // budget 900, target 450: fixed+input 200 + summary 50 + kept ≤ 450/1.05.
    expect(decideWindow(weights, size(100, 100, [200, 200, 150, 150]), limits)).toEqual({
      kind: "compact",
      cut: 3,
      estimated_tokens: 900,
    });
    // Nothing small enough to keep: everything is compacted.
    expect(decideWindow(weights, size(100, 100, [100, 700]), limits)).toMatchObject({ kind: "compact", cut: 2 });
  });

  it("forces a compaction the estimate would not need, and refuses what nothing can shrink", () => {
    expect(decideWindow(weights, size(100, 100, [200, 100]), limits, true)).toMatchObject({ kind: "compact", cut: 2 });
    expect(decideWindow(weights, size(100, 900, []), limits)).toMatchObject({
      kind: "exceeded",
      estimated_tokens: 1000,
    });
  });
});
