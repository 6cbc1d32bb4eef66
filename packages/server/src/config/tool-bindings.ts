/**
 * The registration check of a toolset version's bindings (pure): every tool's `binding_id` must name
 * a registered executor binding inside the caller's binding scope. A missing binding and one outside
 * the scope get the same answer, so the check reveals nothing beyond the scope.
 */

import { ProtocolError, type ToolDefinition } from "@toolhost/protocol";

/** Throws 422 `unknown_reference` at `/tools/<i>/binding_id` for the first tool whose binding is not in `visible`. */
export function assertToolBindingsRegistered(
  tools: readonly ToolDefinition[],
  visible: ReadonlySet<string>,
  pointer = "/tools",
): void {
  const index = tools.findIndex((tool) => !visible.has(tool.binding_id));
  const tool = tools[index];
  if (tool === undefined) return;
  throw new ProtocolError(
    "unknown_reference",
    `binding_id ${JSON.stringify(tool.binding_id)} names no executor binding registered in this key's binding scope; register it with POST /v1/executor-bindings`,
    `${pointer}/${index}/binding_id`,
    { kind: "executor_binding", id: tool.binding_id },
  );
}
