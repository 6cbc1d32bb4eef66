// docs/protocol.md draws the call state machine; the drawing must be the transition table, edge for edge.
import { readFileSync } from "node:fs";
import { CALL_STATUSES, CALL_TRANSITIONS, type CallEvent, FINAL_CALL_STATUSES } from "@toolhost/protocol";
import { expect, it } from "vitest";

const DOC = new URL("../../../../docs/protocol.md", import.meta.url);

/** The mermaid state diagram of CALL_TRANSITIONS: statuses in declaration order, events in table order. */
function callStateDiagram(): string {
  const lines = ["stateDiagram-v2", "    [*] --> pending"];
  for (const from of Object.values(CALL_STATUSES)) {
    for (const [event, to] of Object.entries(CALL_TRANSITIONS[from]) as Array<[CallEvent, string]>) {
      lines.push(`    ${from} --> ${to}: ${event}`);
    }
  }
  for (const status of Object.values(CALL_STATUSES))
    if (FINAL_CALL_STATUSES.has(status)) lines.push(`    ${status} --> [*]`);
  return lines.join("\n");
}

it("the call state diagram in docs/protocol.md is generated from CALL_TRANSITIONS", () => {
  const doc = readFileSync(DOC, "utf8");
  const block = /<!-- call-state-diagram -->\n```mermaid\n([\s\S]*?)\n```/.exec(doc)?.[1];
  expect(block, "docs/protocol.md needs a ```mermaid block right after <!-- call-state-diagram -->").toBeDefined();
  expect(block, `replace the diagram in docs/protocol.md with:\n${callStateDiagram()}`).toBe(callStateDiagram());
});

it("the diagram has one edge per allowed transition", () => {
  const edges = callStateDiagram()
    .split("\n")
    .filter((line) => line.includes(": "));
  const allowed = Object.values(CALL_TRANSITIONS).reduce((sum, events) => sum + Object.keys(events).length, 0);
  expect(edges).toHaveLength(allowed);
});
