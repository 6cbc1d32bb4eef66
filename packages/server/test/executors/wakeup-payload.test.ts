// The cross-instance wake-up payload: round trip, split under the size limit, foreign payloads ignored.
import { describe, expect, it } from "vitest";
import { decodeWakeup, encodeWakeups, WAKEUP_PAYLOAD_MAX_BYTES } from "../../src/executors/wakeup-payload.js";

describe("wake-up payloads", () => {
  it("round-trips origin, schema and distinct binding IDs", () => {
    const payloads = encodeWakeups("o1", "t_abc", ["b1", "b:2", "b1", "日本"]);
    expect(payloads).toHaveLength(1);
    expect(decodeWakeup(payloads[0])).toEqual({ origin: "o1", schema: "t_abc", bindingIds: ["b1", "b:2", "日本"] });
    expect(encodeWakeups("o1", "s", [])).toEqual([]);
  });

  it("splits long lists so that every payload stays within the limit and none is lost", () => {
    const ids = Array.from({ length: 400 }, (_, i) => `binding-${i}-${"x".repeat(100)}`);
    const payloads = encodeWakeups("origin", "public", ids);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(WAKEUP_PAYLOAD_MAX_BYTES);
    expect(payloads.flatMap((p) => decodeWakeup(p)?.bindingIds ?? [])).toEqual(ids);
    const tight = encodeWakeups("o", "s", ["aaaa", "bbbb", "cccc"], 30);
    expect(tight.map((p) => decodeWakeup(p)?.bindingIds)).toEqual([["aaaa"], ["bbbb"], ["cccc"]]);
    expect(encodeWakeups("o", "s", ["a".repeat(50)], 30)).toEqual([]);
  });

  it("ignores payloads that are not wake-ups", () => {
    for (const payload of [
      undefined,
      "",
      "b1",
      "[]",
      "null",
      '{"o":"x","s":"y"}',
      '{"o":1,"s":"y","b":[]}',
      '{"o":"x","s":"y","b":[1]}',
    ]) {
      expect(decodeWakeup(payload)).toBeUndefined();
    }
  });
});
