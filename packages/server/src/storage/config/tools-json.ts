/** Reading the stored tool list of a toolset version (`tools_json`, validated when it was stored). */

/** The tools of `toolsJson` as objects (throws when the text is not a JSON array). */
function storedTools(toolsJson: string): unknown[] {
  const tools: unknown = JSON.parse(toolsJson);
  if (!Array.isArray(tools)) throw new Error("stored tools_json is not a JSON array");
  return tools;
}

/** The `binding_id` of a stored tool, if it has a string one. */
function bindingIdOf(tool: unknown): string | undefined {
  if (typeof tool !== "object" || tool === null) return undefined;
  const bindingId = (tool as { binding_id?: unknown }).binding_id;
  return typeof bindingId === "string" ? bindingId : undefined;
}

/** True when some tool of the list names `bindingId` as its `binding_id`. */
export function toolsReferenceBinding(toolsJson: string, bindingId: string): boolean {
  return storedTools(toolsJson).some((tool) => bindingIdOf(tool) === bindingId);
}

/** The distinct binding IDs the tools of the list name, in first-seen order. */
export function bindingIdsOfTools(toolsJson: string): string[] {
  const ids = new Set<string>();
  for (const tool of storedTools(toolsJson)) {
    const bindingId = bindingIdOf(tool);
    if (bindingId !== undefined) ids.add(bindingId);
  }
  return [...ids];
}
