// The run-end rule on its own: every run status, for a call the model made and a compensation call.
import { describe, expect, it } from "vitest";
import { RUN_STATUSES, type RunStatus, runFreezesCall } from "../src/index.js";

describe("runFreezesCall", () => {
  it("freezes a model's call exactly when its run has ended, never a compensation call", () => {
    const table = Object.fromEntries(
      (Object.keys(RUN_STATUSES) as RunStatus[]).map((status) => [
        status,
        [runFreezesCall(status, { compensates: null }), runFreezesCall(status, { compensates: "call_1" })],
      ]),
    );
    expect(table).toEqual({
      queued: [false, false],
      running: [false, false],
      waiting_for_tools: [false, false],
      completed: [true, false],
      failed: [true, false],
      cancelled: [true, false],
      expired: [true, false],
    });
  });
});
