/**
 * Reading the stored tools of a toolset version (`tools_json`). Tools stored through the API were
 * normalized by `validateToolset`, every default filled in. Tools stored by an earlier service version
 * may lack fields that had no default then (migration 0002 only replaced `max_result_tokens`), so a
 * missing field reads as its default, exactly as `validateToolset` fills it. The stored text itself is
 * never changed here.
 */

import { RESULT_CONTEXT_BYTES, TIMEOUT_MS, TOOL_EFFECTS, type ToolDefinition } from "@toolhost/protocol";

/** The tools of `toolsJson` with every field present (missing ones read as their defaults). */
export function readStoredTools(toolsJson: string): ToolDefinition[] {
  const tools: unknown = JSON.parse(toolsJson);
  if (!Array.isArray(tools)) throw new Error("stored tools_json is not a JSON array");
  return tools.map((tool: Partial<ToolDefinition>) => ({
    name: tool.name ?? "",
    description: tool.description ?? "",
    binding_id: tool.binding_id ?? "",
    input_schema: tool.input_schema ?? { type: "object" },
    output_schema: tool.output_schema ?? {},
    max_result_context_bytes: tool.max_result_context_bytes ?? RESULT_CONTEXT_BYTES.default,
    effect: tool.effect ?? TOOL_EFFECTS.write,
    timeout_ms: tool.timeout_ms ?? TIMEOUT_MS.default,
  }));
}
