// One test per rule of docs/projection.md (what the model sees of a plain JSON tool result, protected results,
// budgets), on hand-made results. Multimodal results have their own file.
import { describe, expect, it } from "vitest";
import {
  checkBudget,
  compact,
  cutHeadTail,
  JsonNumber,
  type JsonValue,
  MeasuredResult,
  measure,
  PRESERVED_KEYS,
  PRESERVED_STRING_MAX_BYTES,
  PRESERVED_SUFFIXES,
  parseJson,
  projectResult,
  projectUnknownOutcome,
  RESULT_CONTEXT_BYTES,
  TRUNCATION_NOTICE,
  UNKNOWN_OUTCOME_RESULT,
} from "../src/index.js";
import { cutParts, envelope, escapedCost, expectLawfulCut, obj, ones, refusal, utf8 } from "./projection-helpers.js";

/** The projection's preview space: the budget less the envelope with an empty preview. */
function allowanceOf(budget: number, parts: ReturnType<typeof cutParts>): number {
  return budget - measure(envelope({ ...parts, head: "", tail: "" }));
}

describe("fits: unchanged", () => {
  it("a result of exactly the budget is returned as is", () => {
    const result = "x".repeat(1022); // 1,024 bytes with its quotes
    const preview = projectResult(result, 1024);
    expect(preview).toEqual({
      max_result_context_bytes: 1024,
      original_bytes: 1024,
      retained_bytes: 1024,
      truncated: false,
      result,
    });
    const object = obj(["status", "ok"], ["items", ones(10)]);
    expect(projectResult(object, 1024).result).toBe(object);
  });

  it("one byte more is cut", () => {
    const preview = projectResult("x".repeat(1023), 1024);
    expect(preview.truncated).toBe(true);
    expect(preview.original_bytes).toBe(1025);
    expectLawfulCut(preview, compact("x".repeat(1023)), 1024);
  });
});

describe("too large: the envelope", () => {
  it("has exactly the documented keys in the documented order", () => {
    const result = obj(["status", "done"], ["items", ones(2000)]);
    const preview = projectResult(result, 2048);
    const parts = expectLawfulCut(preview, compact(result), 2048);
    const text = compact(preview.result);
    expect(text).toBe(
      `{"truncation":{"original_bytes":${parts.original},"omitted_bytes":${parts.omitted},"notice":${JSON.stringify(TRUNCATION_NOTICE)}},` +
        `"preserved_fields":{"status":"done"},"preview":{"head":${JSON.stringify(parts.head)},"tail":${JSON.stringify(parts.tail)}}}`,
    );
    expect(parts.original).toBe(4027);
  });

  it("the notice is a short fixed English sentence: middle omitted, page or filter", () => {
    expect(TRUNCATION_NOTICE).toMatch(/middle/i);
    expect(TRUNCATION_NOTICE).toMatch(/omitted/i);
    expect(TRUNCATION_NOTICE).toMatch(/page/i);
    expect(TRUNCATION_NOTICE).toMatch(/filter/i);
    expect(utf8(TRUNCATION_NOTICE)).toBeLessThan(200);
    const a = cutParts(projectResult(ones(5000), 1024));
    const b = cutParts(projectResult(obj(["k", "中".repeat(9000)]), 20000));
    expect(a.notice).toBe(b.notice);
  });

  it("retained_bytes is the measure of what the model sees, and within the budget", () => {
    for (const budget of [1024, 1025, 4096, 16384, 32768]) {
      const result = obj(["id", "r-1"], ["text", 'quote " backslash \\ tab \t 中文 😀 '.repeat(2000)]);
      const preview = projectResult(result, budget);
      expectLawfulCut(preview, compact(result), budget);
    }
  });
});

describe("head and tail share the space equally", () => {
  it("plain ASCII: the head gets the floor of half the preview space, the tail the ceiling", () => {
    for (const budget of [1500, 1501, 2000, 2001, 9999]) {
      const result = ones(10_000);
      const preview = projectResult(result, budget);
      const parts = expectLawfulCut(preview, compact(result), budget);
      const space = allowanceOf(budget, parts);
      expect(parts.head.length).toBe(Math.floor(space / 2));
      expect(parts.tail.length).toBe(Math.ceil(space / 2));
      expect(preview.retained_bytes).toBe(budget);
    }
  });

  it("the share is counted in escaped bytes: a head of escapes holds fewer characters", () => {
    const result = ['"'.repeat(3000), ...ones(3000)];
    const budget = 2000;
    const parts = expectLawfulCut(projectResult(result, budget), compact(result), budget);
    const space = allowanceOf(budget, parts);
    // Every head character but '[' costs 2 (\" or \\); the tail is plain.
    expect(parts.head).toMatch(/^\["(\\")*\\?$/);
    // The head takes its half in 2-byte steps (one byte may be left, which the tail takes).
    const head = escapedCost(parts.head);
    expect(head).toBeLessThanOrEqual(Math.floor(space / 2));
    expect(head).toBeGreaterThanOrEqual(Math.floor(space / 2) - 1);
    expect(parts.tail.length).toBe(space - head);
    expect(utf8(parts.head)).toBeLessThan(parts.tail.length * 0.6);
  });

  it("space the head cannot use (a 4-byte character does not fit) goes to the tail", () => {
    const result = ["😀".repeat(3000), ...ones(3000)];
    let sawLeftover = false;
    for (let budget = 2000; budget < 2008; budget++) {
      const parts = expectLawfulCut(projectResult(result, budget), compact(result), budget);
      const space = allowanceOf(budget, parts);
      const head = escapedCost(parts.head);
      expect(parts.head).toMatch(/^\["(😀)*$/u);
      expect(head).toBeLessThanOrEqual(Math.floor(space / 2));
      expect(head).toBeGreaterThan(Math.floor(space / 2) - 4);
      expect(parts.tail.length).toBe(space - head);
      if (parts.tail.length > Math.ceil(space / 2)) sawLeftover = true;
    }
    expect(sawLeftover).toBe(true);
  });

  it("space the tail cannot use goes back to the head", () => {
    const result = [...ones(3000), "中".repeat(3000)];
    let sawLeftover = false;
    for (let budget = 2000; budget < 2006; budget++) {
      const parts = expectLawfulCut(projectResult(result, budget), compact(result), budget);
      const space = allowanceOf(budget, parts);
      const tail = escapedCost(parts.tail);
      expect(parts.tail).toMatch(/^(中)*"\]$/u);
      expect(parts.head.length).toBe(space - tail);
      if (parts.head.length > Math.floor(space / 2)) sawLeftover = true;
    }
    expect(sawLeftover).toBe(true);
  });
});

describe("never splits a character", () => {
  it.each([
    ["emoji (surrogate pairs)", "😀", /^"(😀)*$/u, /^(😀)*"$/u],
    ["CJK (3 bytes)", "中", /^"(中)*$/u, /^(中)*"$/u],
    ["2-byte letters", "é", /^"(é)*$/u, /^(é)*"$/u],
    ["mixed", "a😀中é", /^"(a😀中é)*(a|a😀|a😀中)?$/u, /^(😀中é|中é|é)?(a😀中é)*"$/u],
  ])("%s", (_, piece, headPattern, tailPattern) => {
    const result = piece.repeat(5000);
    const full = compact(result);
    for (let budget = 1024; budget < 1036; budget++) {
      const parts = expectLawfulCut(projectResult(result, budget), full, budget);
      expect(parts.head).toMatch(headPattern);
      expect(parts.tail).toMatch(tailPattern);
      expect(Buffer.from(parts.head, "utf8").toString("utf8")).toBe(parts.head);
    }
  });
});

describe("omitted_bytes and the digits it takes", () => {
  it("omitted_bytes is original_bytes less the UTF-8 of head and tail", () => {
    const result = obj(["title", "中文标题😀".repeat(3000)], ["status", "ok"]);
    const parts = expectLawfulCut(projectResult(result, 4096), compact(result), 4096);
    expect(parts.omitted).toBe(measure(result) - Buffer.byteLength(parts.head) - Buffer.byteLength(parts.tail));
  });

  it("stays maximal when one more character would take omitted_bytes down a digit (exactly 10,000 left)", () => {
    // With 5 digits for omitted_bytes the preview space is `space`; a result of 10,000 + space bytes
    // leaves exactly 10,000 omitted, and one more character would leave 9,999, a digit shorter.
    for (const budget of [1024, 1025, 3000, 3001]) {
      const space =
        budget - measure(envelope({ original: 10_001, omitted: 10_000, preserved: new Map(), head: "", tail: "" }));
      const size = 10_000 + space; // `ones(n)` measures 2n + 1, so only odd sizes are reachable
      const result = size % 2 === 1 ? ones((size - 1) / 2) : [10, ...ones((size - 4) / 2)];
      expect(measure(result)).toBe(size);
      expectLawfulCut(projectResult(result, budget), compact(result), budget);
    }
  });

  it("stays within the budget when a wider preview would keep fewer raw bytes", () => {
    // A head of backslashes (2 escaped bytes each) and a tail of CJK: giving the preview one more byte
    // can move a whole "中" out of the tail. Find budgets where that happens right at 10,000 omitted.
    const head = "\\".repeat(800);
    const tail = "中".repeat(400);
    const frame = compact([head, tail]);
    const overhead5 = measure(
      envelope({ original: 10_001, omitted: 10_000, preserved: new Map(), head: "", tail: "" }),
    );
    let found = 0;
    for (let budget = 1024; budget < 1400 && found < 4; budget++) {
      const space = budget - overhead5;
      const narrow = cutHeadTail(frame, space);
      if (cutHeadTail(frame, space + 1).rawBytes >= narrow.rawBytes) continue;
      found++;
      // Pad the middle so that the narrow cut leaves exactly 9,999 bytes omitted.
      let pad = 9_999 + narrow.rawBytes - utf8(frame);
      const middle: JsonValue[] = [];
      if (pad % 2 === 1) {
        middle.push(10);
        pad -= 3;
      }
      for (; pad > 0; pad -= 2) middle.push(1);
      const result = [head, ...middle, tail];
      expect(measure(result)).toBe(9_999 + narrow.rawBytes);
      expectLawfulCut(projectResult(result, budget), compact(result), budget);
    }
    expect(found).toBeGreaterThan(0);
  });

  it("handles results just over the budget, where omitted_bytes is tiny", () => {
    for (let extra = 1; extra < 40; extra++) {
      const result = "y".repeat(1022 + extra);
      const parts = expectLawfulCut(projectResult(result, 1024), compact(result), 1024);
      expect(parts.omitted).toBeGreaterThan(0);
    }
  });
});

describe("preserved_fields", () => {
  const filler = (bytes: number): [string, JsonValue] => ["filler", "x".repeat(bytes)];

  it("depth 1 before depth 2, each in document order, keyed by dotted path", () => {
    const result = obj(
      ["data", obj(["next_cursor", "c-2"], ["id", 7], ["note", "n"])],
      filler(5000),
      ["status", "ok"],
      ["meta", obj(["request_id", "r-9"])],
      ["request_id", "r-1"],
    );
    const parts = expectLawfulCut(projectResult(result, 2048), compact(result), 2048);
    expect(compact(parts.preserved)).toBe(
      '{"status":"ok","request_id":"r-1","data.next_cursor":"c-2","data.id":7,"meta.request_id":"r-9"}',
    );
  });

  it("takes every status, identifier and paging key, and the _id, _status and _cursor suffixes", () => {
    expect([...PRESERVED_KEYS].sort()).toEqual(
      [
        "status",
        "state",
        "ok",
        "success",
        "error",
        "code",
        "id",
        "next_cursor",
        "cursor",
        "next_page_token",
        "has_more",
        "total",
        "count",
      ].sort(),
    );
    expect([...PRESERVED_SUFFIXES].sort()).toEqual(["_cursor", "_id", "_status"]);
    const taken = [...PRESERVED_KEYS, "user_id", "_id", "job_status", "prev_cursor", "a.b_id"];
    const ignored = [
      "identity",
      "idx",
      "ids",
      "status_code",
      "Status",
      "ID",
      "error_message",
      "cursor_",
      "my_id_",
      "next",
    ];
    const result = obj(
      ...taken.map((k, i): [string, JsonValue] => [k, i]),
      ...ignored.map((k): [string, JsonValue] => [k, 0]),
      filler(30000),
    );
    const parts = expectLawfulCut(projectResult(result, 16384), compact(result), 16384);
    expect([...parts.preserved.keys()]).toEqual(taken);
  });

  it("takes short scalars only: strings of at most 128 UTF-8 bytes, numbers, booleans, null", () => {
    expect(PRESERVED_STRING_MAX_BYTES).toBe(128);
    const big = new JsonNumber("123456789012345678901234567890", true);
    const result = obj(
      ["a_id", "a".repeat(128)],
      ["b_id", "b".repeat(129)],
      ["c_id", "中".repeat(42)], // 126 bytes
      ["d_id", "中".repeat(43)], // 129 bytes
      ["e_id", "😀".repeat(32)], // 128 bytes
      ["f_id", "😀".repeat(33)], // 132 bytes
      ["g_id", '"'.repeat(128)], // 128 bytes of UTF-8, 256 once escaped
      ["h_id", big],
      ["i_id", new JsonNumber("-1.50e3", false)],
      ["ok", false],
      ["error", null],
      ["count", 3],
      ["status", obj(["code", 200])],
      ["items_id", ones(2)],
      ["empty_id", obj()],
      filler(40000),
    );
    const preview = projectResult(result, 32768);
    const parts = expectLawfulCut(preview, compact(result), 32768);
    expect([...parts.preserved.keys()]).toEqual([
      "a_id",
      "c_id",
      "e_id",
      "g_id",
      "h_id",
      "i_id",
      "ok",
      "error",
      "count",
      "status.code",
    ]);
    expect(compact(parts.preserved.get("h_id") as JsonValue)).toBe("123456789012345678901234567890");
    expect(compact(parts.preserved.get("i_id") as JsonValue)).toBe("-1500.0");
  });

  it("looks no deeper than depth 2 and not into arrays", () => {
    const result = obj(
      ["a", obj(["b", obj(["id", 1])])],
      ["items", [obj(["id", 2])]],
      ["list", obj(["rows", [obj(["status", "x"])]])],
      filler(5000),
    );
    const parts = expectLawfulCut(projectResult(result, 1024), compact(result), 1024);
    expect(parts.preserved.size).toBe(0);
  });

  it("adds a field only while the whole stays within a quarter of the budget, skipping and continuing", () => {
    const result = obj(
      ["a_id", "x".repeat(128)], // {"a_id":"x…"} = 139 bytes
      ["b_id", "y".repeat(128)], // would make 277 > 256: skipped
      ["c_id", 5], // 148
      ["d_id", "z".repeat(100)], // would make 258: skipped
      ["e_id", "w".repeat(98)], // exactly 256
      ["f_id", 1], // would make 265: skipped
      filler(5000),
    );
    for (const budget of [1024, 1027]) {
      const parts = expectLawfulCut(projectResult(result, budget), compact(result), budget);
      expect([...parts.preserved.keys()]).toEqual(["a_id", "c_id", "e_id"]);
      expect(measure(parts.preserved)).toBe(256);
    }
    // A quarter of 1,064 is 266: now d_id fits (258), and e_id and f_id no longer do.
    const roomier = expectLawfulCut(projectResult(result, 1064), compact(result), 1064);
    expect([...roomier.preserved.keys()]).toEqual(["a_id", "c_id", "d_id"]);
    expect(measure(roomier.preserved)).toBe(258);
  });

  it("never overwrites a path already taken (a depth-1 key with a dot)", () => {
    for (const result of [
      obj(["data.next_cursor", "top"], ["data", obj(["next_cursor", "nested"])], filler(5000)),
      obj(["data", obj(["next_cursor", "nested"])], ["data.next_cursor", "top"], filler(5000)),
    ]) {
      const parts = expectLawfulCut(projectResult(result, 1024), compact(result), 1024);
      expect(compact(parts.preserved)).toBe('{"data.next_cursor":"top"}');
    }
  });

  it("is empty for a result that is not an object, and works for plain objects too", () => {
    expect(cutParts(projectResult(ones(5000), 1024)).preserved.size).toBe(0);
    expect(cutParts(projectResult("s".repeat(5000), 1024)).preserved.size).toBe(0);
    const plain = { status: "ok", data: { next_cursor: "n" }, rows: "r".repeat(5000) };
    expect(compact(cutParts(projectResult(plain, 1024)).preserved)).toBe('{"status":"ok","data.next_cursor":"n"}');
  });
});

describe("protected results are never cut", () => {
  it.each(["submission", "opaque"] as const)("%s, even far over budget", (resultType) => {
    const result = obj(["replay", "r".repeat(200_000)], ["status", "ok"]);
    const preview = projectResult(result, 1024, resultType);
    expect(preview).toEqual({
      max_result_context_bytes: 1024,
      original_bytes: measure(result),
      retained_bytes: measure(result),
      truncated: false,
      result,
    });
    expect(preview.result).toBe(result);
  });

  it("the unknown outcome of reconciliation_required is the fixed protocol message", () => {
    for (const budget of [1024, 16384, 32768]) {
      const preview = projectUnknownOutcome(budget);
      expect(preview.result).toEqual(UNKNOWN_OUTCOME_RESULT);
      expect(preview.truncated).toBe(false);
      expect(preview.max_result_context_bytes).toBe(budget);
      expect(preview.original_bytes).toBe(measure(UNKNOWN_OUTCOME_RESULT));
      expect(preview.retained_bytes).toBe(preview.original_bytes);
      expect(preview.retained_bytes).toBeLessThanOrEqual(RESULT_CONTEXT_BYTES.min);
      expect(compact(preview.result)).toBe(compact(UNKNOWN_OUTCOME_RESULT));
    }
    // A copy: changing what one caller got does not change the next answer.
    (projectUnknownOutcome(1024).result as Record<string, JsonValue>).status = "done";
    expect(projectUnknownOutcome(1024).result).toEqual(UNKNOWN_OUTCOME_RESULT);
    expect(UNKNOWN_OUTCOME_RESULT.status).toBe("reconciliation_required");
  });
});

describe("budgets", () => {
  it("accepts integers from 1,024 to 32,768, default 16,384", () => {
    expect(RESULT_CONTEXT_BYTES).toEqual({ min: 1024, max: 32768, default: 16384 });
    for (const budget of [1024, 1025, 16384, 32767, 32768]) {
      expect(checkBudget(budget)).toBe(budget);
      expect(projectResult("x", budget).max_result_context_bytes).toBe(budget);
    }
  });

  it.each([1023, 32769, 1.5, 1024.5, "16384", 0, -1, Number.NaN, Number.POSITIVE_INFINITY, null, undefined])(
    "refuses %s with invalid_budget",
    (budget) => {
      for (const attempt of [
        () => checkBudget(budget),
        () => projectResult("x", budget as number),
        () => projectResult("x", budget as number, "opaque"),
        () => projectUnknownOutcome(budget as number),
      ]) {
        const error = refusal(attempt);
        expect(error.code).toBe("invalid_budget");
        expect(error.pointer).toBe("/max_result_context_bytes");
        expect(error.details).toEqual({ min: 1024, max: 32768, default: 16384 });
        expect(error.status).toBe(422);
      }
    },
  );
});

describe("stable and equal for every way of holding the result", () => {
  it("a MeasuredResult, the value and the re-read text project to the same bytes", () => {
    const result = obj(
      ["status", "ok"],
      ["data", obj(["next_cursor", "c"])],
      ["rows", ones(3000)],
      ["big", new JsonNumber("98765432109876543210", true)],
    );
    for (const budget of [1024, 4096, 32768]) {
      const direct = compact(projectResult(result, budget).result);
      expect(compact(projectResult(result, budget).result)).toBe(direct);
      expect(compact(projectResult(MeasuredResult.of(result), budget).result)).toBe(direct);
      const text = compact(result);
      expect(compact(projectResult(parseJson(text), budget).result)).toBe(direct);
      const stored = MeasuredResult.fromStored(parseJson(text), text, utf8(text));
      expect(compact(projectResult(stored, budget).result)).toBe(direct);
    }
  });
});
