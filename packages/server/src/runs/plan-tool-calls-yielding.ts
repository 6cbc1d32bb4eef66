/**
 * `planToolCalls` for the run loop: the event loop gets a turn after every call.
 *
 * One argument check is bounded by the work budget and one compile by the schema limits
 * (docs/configuration.md), but a model turn may hold many calls; checked in one go, their costs
 * would add up on the loop that answers every other request.
 */

import { setImmediate as nextTurn } from "node:timers/promises";
import type { ToolDefinition } from "@toolhost/protocol";
import type { ModelToolCall } from "../models/model-turn.js";
import { MAX_CALLS_PER_TURN } from "./run-limits.js";
import { extraCall, type PlannedCall, planToolCall, toolsByName } from "./tool-call-plan.js";

/** Checks `calls` against `tools` like `planToolCalls`, yielding to the event loop between calls. */
export async function planToolCallsYielding(
  calls: readonly ModelToolCall[],
  tools: readonly ToolDefinition[],
): Promise<PlannedCall[]> {
  const byName = toolsByName(tools);
  const planned: PlannedCall[] = [];
  for (const call of calls) {
    if (planned.length >= MAX_CALLS_PER_TURN) {
      planned.push(extraCall(call, byName));
      continue;
    }
    if (planned.length > 0) await nextTurn();
    planned.push(planToolCall(call, tools, byName));
  }
  return planned;
}
