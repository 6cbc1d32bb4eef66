/**
 * Whether a tool changes business state, which decides how carefully its calls are executed.
 */

/** The tool effects; a tool that declares none is `write`, because assuming a write is the safe side. */
export const TOOL_EFFECTS = {
  /** Changes business state: the executor persists the operation and waits for `accepted` before any side effect. */
  write: "write",
  /** Only reads: running it twice changes nothing, so a repeated execution is harmless. */
  read: "read",
} as const;

/** One of the tool effects. */
export type ToolEffect = keyof typeof TOOL_EFFECTS;

/** True when `value` names a tool effect. */
export function isToolEffect(value: unknown): value is ToolEffect {
  return typeof value === "string" && Object.hasOwn(TOOL_EFFECTS, value);
}
