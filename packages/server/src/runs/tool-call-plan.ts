/**
 * Checking one model turn's tool calls against the toolset (pure). A call naming a tool the toolset
 * lacks, or whose arguments fail the tool's input schema, is refused here: it never becomes a pending
 * call, and the model gets the error as the call's tool result (docs/runs.md). The others become pending
 * calls for executors.
 */

import {
  argumentsDigest,
  type CallRejection,
  compact,
  invalidArgumentsResult,
  type JsonValue,
  type PlainJsonObject,
  RESULT_CONTEXT_BYTES,
  type ToolDefinition,
  tooManyCallsResult,
  unknownToolResult,
  validateArguments,
} from "@toolhost/protocol";
import type { ModelToolCall } from "../models/model-turn.js";
import { MAX_CALLS_PER_TURN } from "./run-limits.js";

/** A refused call: why, and the tool result the model gets instead. */
export interface CallRefusal {
  reason: CallRejection;
  result: PlainJsonObject;
  /** The budget the result is projected to: the tool's, or the default for an unknown tool. */
  budget: number;
}

/** One call of the turn, checked. */
export interface PlannedCall {
  name: string;
  /** The arguments as emitted (lossless, the model's key order). */
  arguments: JsonValue;
  /** Their compact text in the model's key order (what the claim hands to the executor). */
  argumentsJson: string;
  argumentsDigest: string;
  /** The tool, when the toolset has one of that name. */
  tool: ToolDefinition | undefined;
  /** Set when the call is refused. */
  refusal: CallRefusal | undefined;
}

/** Checks `calls` against `tools`, in the model's order. */
export function planToolCalls(calls: readonly ModelToolCall[], tools: readonly ToolDefinition[]): PlannedCall[] {
  const byName = toolsByName(tools);
  return calls.map((call, position) =>
    position < MAX_CALLS_PER_TURN ? planToolCall(call, tools, byName) : extraCall(call, byName),
  );
}

/** A call past MAX_CALLS_PER_TURN: refused without checking its arguments (docs/runs.md#limits). */
export function extraCall(call: ModelToolCall, byName: ReadonlyMap<string, ToolDefinition>): PlannedCall {
  const tool = byName.get(call.name);
  return {
    name: call.name,
    arguments: call.arguments,
    argumentsJson: compact(call.arguments),
    argumentsDigest: argumentsDigest(call.arguments),
    tool,
    refusal: {
      reason: "too_many_calls",
      result: tooManyCallsResult(MAX_CALLS_PER_TURN),
      budget: tool?.max_result_context_bytes ?? RESULT_CONTEXT_BYTES.default,
    },
  };
}

/** The tools of a toolset by name, for `planToolCall`. */
export function toolsByName(tools: readonly ToolDefinition[]): ReadonlyMap<string, ToolDefinition> {
  return new Map(tools.map((tool) => [tool.name, tool]));
}

/** Checks one call against `tools` (`byName` from `toolsByName(tools)`). */
export function planToolCall(
  call: ModelToolCall,
  tools: readonly ToolDefinition[],
  byName: ReadonlyMap<string, ToolDefinition>,
): PlannedCall {
  const tool = byName.get(call.name);
  const planned = {
    name: call.name,
    arguments: call.arguments,
    argumentsJson: compact(call.arguments),
    argumentsDigest: argumentsDigest(call.arguments),
    tool,
  };
  if (tool === undefined) {
    const result = unknownToolResult(
      call.name,
      tools.map((candidate) => candidate.name),
    );
    return { ...planned, refusal: { reason: "unknown_tool", result, budget: RESULT_CONTEXT_BYTES.default } };
  }
  // Arguments that are not JSON at all (a real model's slip) are refused like ones that fail the schema.
  const validation =
    call.argumentsError === undefined
      ? validateArguments(tool.input_schema, call.arguments)
      : { valid: false, errors: [{ pointer: "", message: call.argumentsError }] };
  if (validation.valid) return { ...planned, refusal: undefined };
  const result = invalidArgumentsResult(tool.name, validation.errors);
  return { ...planned, refusal: { reason: "invalid_arguments", result, budget: tool.max_result_context_bytes } };
}
