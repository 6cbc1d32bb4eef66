/** Reading the stored tool list of a toolset version (`tools_json`, validated when it was stored). */

/** True when some tool of the list names `bindingId` as its `binding_id`. */
export function toolsReferenceBinding(toolsJson: string, bindingId: string): boolean {
  const tools: unknown = JSON.parse(toolsJson);
  if (!Array.isArray(tools)) throw new Error("stored tools_json is not a JSON array");
  return tools.some(
    (tool: unknown) =>
      typeof tool === "object" && tool !== null && (tool as { binding_id?: unknown }).binding_id === bindingId,
  );
}
