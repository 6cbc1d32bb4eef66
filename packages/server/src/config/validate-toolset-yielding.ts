/**
 * `validateToolset` for a request handler: the event loop gets a turn after every tool.
 *
 * One schema's compile is bounded by the schema limits (docs/configuration.md), but a toolset may
 * hold many tools; validated in one go, their compiles would add up on the loop that answers
 * every other request (`/v1/health` included).
 */

import { setImmediate as nextTurn } from "node:timers/promises";
import { type ToolDefinition, validateToolsetStepwise } from "@toolhost/protocol";

/** Validates `tools` like `validateToolset`, yielding to the event loop between tools. */
export async function validateToolsetYielding(tools: unknown, pointer: string): Promise<ToolDefinition[]> {
  const steps = validateToolsetStepwise(tools, pointer);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
    await nextTurn();
  }
}
