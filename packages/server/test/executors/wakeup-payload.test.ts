// The cross-instance wake-up payload: round trip, split under the size limit, foreign payloads ignored.
import { describe, expect, it } from "vitest";
import { callWakeup, type Wakeup } from "../../src/wakeups/wakeup.js";
import { decodeWakeup, encodeWakeups, WAKEUP_PAYLOAD_MAX_BYTES } from "../../src/wakeups/wakeup-payload.js";

const call = (id: string, binding = "b1", tool = "t"): Wakeup =>
  callWakeup({ call_id: id, binding_id: binding, tool_name: tool });

describe("wake-up payloads", () => {
  it("round-trips origin, schema and every wake-up, one per call", () => {
    const wakeups: Wakeup[] = [
      call("c1"),
      call("c1"),
      { ...callWakeup({ call_id: "c2", binding_id: "b:2", tool_name: "日本" }), handoffs: 3 },
      { kind: "cancel", executor_id: "e1" },
    ];
    const payloads = encodeWakeups("o1", "t_abc", wakeups);
    expect(payloads).toHaveLength(1);
    expect(decodeWakeup(payloads[0])).toEqual({ origin: "o1", schema: "t_abc", wakeups });
    expect(encodeWakeups("o1", "s", [])).toEqual([]);
  });

  it("splits long lists so that every payload stays within the limit and none is lost", () => {
    const wakeups = Array.from({ length: 400 }, (_, i) => call(`call-${i}-${"x".repeat(100)}`));
    const payloads = encodeWakeups("origin", "public", wakeups);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(WAKEUP_PAYLOAD_MAX_BYTES);
    expect(payloads.flatMap((p) => decodeWakeup(p)?.wakeups ?? [])).toEqual(wakeups);
    const tight = encodeWakeups("o", "s", [call("a"), call("b"), call("c")], 50);
    expect(tight.map((p) => decodeWakeup(p)?.wakeups.map((w) => (w.kind === "call" ? w.call_id : "")))).toEqual([
      ["a"],
      ["b"],
      ["c"],
    ]);
    expect(encodeWakeups("o", "s", [call("a".repeat(50))], 50)).toEqual([]);
  });

  it("ignores payloads that are not wake-ups", () => {
    for (const payload of [
      undefined,
      "",
      "b1",
      "[]",
      "null",
      '{"o":"x","s":"y"}',
      '{"o":1,"s":"y","w":[]}',
      '{"o":"x","s":"y","w":[1]}',
      '{"o":"x","s":"y","w":[["c","c1","b1","t",-1]]}',
      '{"o":"x","s":"y","w":[["x",1]]}',
      '{"o":"x","s":"y","b":["b1"]}',
    ]) {
      expect(decodeWakeup(payload)).toBeUndefined();
    }
  });
});
