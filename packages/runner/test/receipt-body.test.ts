// Receipt bodies are exact texts: envelope order, lossless values, no silent JSON coercions.
import { JsonNumber, parseJson } from "@toolhost/protocol";
import { describe, expect, it } from "vitest";
import { RunnerError } from "../src/errors.js";
import { toJsonValue } from "../src/json-value.js";
import { errorObject, newReceiptId, receiptBodyText } from "../src/receipt-body.js";

const envelope = { receiptId: "r-1", executorId: "exec-1", claimId: "clm-1", grant: "g" };

describe("receiptBodyText", () => {
  it("writes the envelope first, then only the members the kind carries", () => {
    expect(receiptBodyText(envelope, { kind: "accepted" })).toBe(
      '{"receipt_id":"r-1","executor_id":"exec-1","claim_id":"clm-1","grant":"g","kind":"accepted"}',
    );
    expect(receiptBodyText(envelope, { kind: "failed", error: errorObject("quota", "over") })).toBe(
      '{"receipt_id":"r-1","executor_id":"exec-1","claim_id":"clm-1","grant":"g","kind":"failed","error":{"code":"quota","message":"over"}}',
    );
  });

  it("keeps a lossless result byte for byte (big integers, float spellings, key order, non-ASCII)", () => {
    const result = parseJson('{"z":1,"a":12345678901234567890123,"f":1.0,"t":"任务 ✓"}');
    const text = receiptBodyText(envelope, { kind: "completed", result, resultType: "json" });
    expect(text).toContain('"result":{"z":1,"a":12345678901234567890123,"f":1.0,"t":"任务 ✓"},"result_type":"json"');
  });

  it("mints distinct receipt IDs that name their kind", () => {
    const ids = new Set(Array.from({ length: 100 }, () => newReceiptId("completed")));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^r-completed-[0-9a-f-]{36}$/);
  });
});

describe("toJsonValue", () => {
  it("follows JSON.stringify for plain values and keeps bigint digits", () => {
    const value = toJsonValue({ a: undefined, b: [undefined, () => 1], d: new Date(0), n: 2n ** 80n });
    expect(value).toEqual(
      new Map<string, unknown>([
        ["b", [null, null]],
        ["d", "1970-01-01T00:00:00.000Z"],
        ["n", new JsonNumber("1208925819614629174706176", true)],
      ]),
    );
  });

  it("refuses what JSON cannot say, naming the pointer", () => {
    const cyclic: Record<string, unknown> = { list: [] };
    (cyclic.list as unknown[]).push(cyclic);
    for (const [value, pointer] of [
      [{ x: Number.POSITIVE_INFINITY }, "/x"],
      [{ y: [1n, { z: 10n ** 400n }, { w: () => 1 }, Number.NaN] }, "/y/3"],
      [cyclic, "/list/0"],
    ] as const) {
      try {
        toJsonValue(value);
        throw new Error("expected a refusal");
      } catch (error) {
        expect(error).toBeInstanceOf(RunnerError);
        expect((error as RunnerError).code).toBe("invalid_json");
        expect((error as RunnerError).details?.pointer).toBe(pointer);
      }
    }
    expect(() => toJsonValue(() => 1)).toThrow(RunnerError);
    expect(() => toJsonValue(Symbol("s"))).toThrow(RunnerError);
  });
});
