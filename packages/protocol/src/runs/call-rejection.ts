/**
 * Tool calls the run refuses before any executor sees them: the model named a tool its toolset lacks,
 * sent arguments that do not match the tool's input schema, or put more calls in one turn than the
 * server takes (docs/runs.md). Nothing is executed; the
 * model gets the error below as that call's tool result, so it can correct itself.
 */

import type { ArgumentError } from "../config/tool-arguments.js";
import type { PlainJsonObject } from "../json/value.js";

/** Why a call was refused. */
export const CALL_REJECTIONS = {
  /** The arguments do not match the tool's input schema. */
  invalid_arguments: "invalid_arguments",
  /** The model named a tool that the agent version's toolset does not have. */
  unknown_tool: "unknown_tool",
  /** The call came after the most calls one model turn may carry (docs/runs.md#limits). */
  too_many_calls: "too_many_calls",
} as const;

/** One reason a call was refused. */
export type CallRejection = keyof typeof CALL_REJECTIONS;

/**
 * What the model sees for arguments that fail the schema:
 * `{"error":{"code":"invalid_arguments","message","errors":[{pointer,message},…]}}`.
 */
export function invalidArgumentsResult(toolName: string, errors: readonly ArgumentError[]): PlainJsonObject {
  return {
    error: {
      code: CALL_REJECTIONS.invalid_arguments,
      message: `The arguments do not match the input schema of tool ${JSON.stringify(toolName)}; nothing was executed. Fix them and call again.`,
      errors: errors.map((error) => ({ pointer: error.pointer, message: error.message })),
    },
  };
}

/**
 * What the model sees for a tool its toolset lacks:
 * `{"error":{"code":"unknown_tool","message","tools":[name,…]}}` (the names it may call).
 */
export function unknownToolResult(toolName: string, toolNames: readonly string[]): PlainJsonObject {
  return {
    error: {
      code: CALL_REJECTIONS.unknown_tool,
      message: `There is no tool named ${JSON.stringify(toolName)}; nothing was executed. Call one of the listed tools.`,
      tools: [...toolNames],
    },
  };
}

/**
 * What the model sees for a call past the per-turn limit:
 * `{"error":{"code":"too_many_calls","message","max_calls_per_turn"}}`.
 */
export function tooManyCallsResult(maxCallsPerTurn: number): PlainJsonObject {
  return {
    error: {
      code: CALL_REJECTIONS.too_many_calls,
      message: `One turn may make at most ${maxCallsPerTurn} tool calls; this one was not executed. Call it again in a later turn if it is still needed.`,
      max_calls_per_turn: maxCallsPerTurn,
    },
  };
}
