// The remembered wake-ups are bounded: one per executor, at most WOKEN_CALLS_MAX executors (the
// oldest dropped), each forgotten after WOKEN_CALL_TTL_MS; a won claim of another call hands the
// remembered wake-up on exactly once.

import { describe, expect, it } from "vitest";
import { callWakeup } from "../../src/wakeups/wakeup.js";
import { WOKEN_CALL_TTL_MS, WOKEN_CALLS_MAX, WokenCalls } from "../../src/wakeups/woken-calls.js";

const wakeupOf = (callId: string) => callWakeup({ call_id: callId, binding_id: "b1", tool_name: "tool_0" });

describe("WokenCalls", () => {
  it("hands the wake-up on when the executor won another call, once", () => {
    const woken = new WokenCalls();
    woken.answered("e1", wakeupOf("y"), 0);
    expect(woken.claimed("e1", "x", 10)).toEqual(wakeupOf("y"));
    expect(woken.claimed("e1", "z", 20)).toBeUndefined();
    expect(woken.size).toBe(0);
  });

  it("hands nothing on when the executor won its woken call, or its answer used no wake-up", () => {
    const woken = new WokenCalls();
    woken.answered("e1", wakeupOf("x"), 0);
    expect(woken.claimed("e1", "x", 10)).toBeUndefined();
    woken.answered("e2", wakeupOf("x"), 0);
    woken.answered("e2", undefined, 5);
    expect(woken.claimed("e2", "y", 10)).toBeUndefined();
    expect(woken.size).toBe(0);
  });

  it("forgets a wake-up older than its TTL", () => {
    const woken = new WokenCalls();
    woken.answered("e1", wakeupOf("y"), 0);
    expect(woken.claimed("e1", "x", WOKEN_CALL_TTL_MS + 1)).toBeUndefined();
    expect(woken.size).toBe(0);
  });

  it("keeps at most WOKEN_CALLS_MAX executors, dropping the oldest", () => {
    const woken = new WokenCalls();
    for (let i = 0; i <= WOKEN_CALLS_MAX; i++) woken.answered(`e${i}`, wakeupOf(`c${i}`), i);
    expect(woken.size).toBe(WOKEN_CALLS_MAX);
    expect(woken.claimed("e0", "other", WOKEN_CALLS_MAX)).toBeUndefined();
    expect(woken.claimed(`e${WOKEN_CALLS_MAX}`, "other", WOKEN_CALLS_MAX)).toEqual(wakeupOf(`c${WOKEN_CALLS_MAX}`));
  });
});
