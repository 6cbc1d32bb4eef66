/**
 * The tools of one toolset version: each validated, names unique.
 *
 * An empty list is valid: an agent may run without tools (and a toolset can be published before its
 * tools exist). Names are compared exactly (case-sensitive), as the model and the executor see them.
 */

import { ProtocolError } from "../errors.js";
import { pointerAppend } from "../json/pointer.js";
import { type ToolDefinition, validateToolDefinition } from "./tool-definition.js";

/** Most tools one toolset version holds: every model request carries all their definitions. */
export const MAX_TOOLS_PER_TOOLSET = 128;

/** Validates a toolset's `tools` list and returns each tool normalized, in the sender's order. */
export function validateToolset(tools: unknown, pointer = "/tools"): ToolDefinition[] {
  const steps = validateToolsetStepwise(tools, pointer);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/**
 * `validateToolset` one tool at a time: yields the index of each tool validated and returns the list.
 * Compiling a schema can take tens of milliseconds; the server awaits between tools, so a toolset
 * of many large schemas does not hold its event loop for the sum.
 */
export function* validateToolsetStepwise(tools: unknown, pointer = "/tools"): Generator<number, ToolDefinition[]> {
  if (!Array.isArray(tools)) {
    throw new ProtocolError("validation_failed", "tools must be an array of tool definitions", pointer);
  }
  if (tools.length > MAX_TOOLS_PER_TOOLSET) {
    throw new ProtocolError(
      "too_many_tools",
      `a toolset version holds at most ${MAX_TOOLS_PER_TOOLSET} tools, got ${tools.length}`,
      pointer,
      { maximum: MAX_TOOLS_PER_TOOLSET, count: tools.length },
    );
  }
  const firstIndex = new Map<string, number>();
  const validated: ToolDefinition[] = [];
  for (const [index, input] of tools.entries()) {
    const tool = validateToolDefinition(input, pointerAppend(pointer, index));
    const first = firstIndex.get(tool.name);
    if (first !== undefined) {
      throw new ProtocolError(
        "duplicate_tool_name",
        `tool name ${JSON.stringify(tool.name)} is already used by tool ${first}`,
        pointerAppend(pointerAppend(pointer, index), "name"),
        { name: tool.name, first: pointerAppend(pointer, first) },
      );
    }
    firstIndex.set(tool.name, index);
    validated.push(tool);
    yield index;
  }
  return validated;
}

/** The distinct binding IDs a toolset references, in order of first use, for the server's registration check. */
export function referencedBindingIds(tools: readonly ToolDefinition[]): string[] {
  return [...new Set(tools.map((tool) => tool.binding_id))];
}
