// The demo's pure parts: what `npm start` does with the database it finds, and the step lines.
import { describe, expect, it } from "vitest";
import { planDemo } from "../src/demo/demo-plan.js";
import { stepLine } from "../src/demo/step-progress.js";

describe("planDemo", () => {
  it.each([
    [
      { demoAgentId: "agt_1", hasConfiguration: true, hasKeys: true },
      { action: "reuse", agentId: "agt_1" },
    ],
    [
      { demoAgentId: "agt_1", hasConfiguration: false, hasKeys: false },
      { action: "reuse", agentId: "agt_1" },
    ],
    [{ demoAgentId: undefined, hasConfiguration: false, hasKeys: false }, { action: "seed" }],
    [{ demoAgentId: undefined, hasConfiguration: true, hasKeys: false }, { action: "leave" }],
    [{ demoAgentId: undefined, hasConfiguration: false, hasKeys: true }, { action: "leave" }],
  ])("%j → %j", (facts, plan) => {
    expect(planDemo(facts)).toEqual(plan);
  });
});

describe("stepLine", () => {
  it("ticks or crosses a step and gives its time in ms below a second, in s above", () => {
    expect(stepLine(true, "server listening", 182.4)).toBe("  ✓ server listening  (182 ms)\n");
    expect(stepLine(false, "executor online", 30_012)).toBe("  ✗ executor online  (30.0 s)\n");
  });
});
