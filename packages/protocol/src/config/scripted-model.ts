/**
 * The built-in `scripted` model provider's settings (docs/runs.md): a fixed script the run plays back,
 * one step per model turn. A step either emits tool calls (`{"tool_calls":[{"name","arguments"},…]}`)
 * and waits for their results, or ends the run with a message (`{"message":"…"}`). Deterministic, for
 * demos and tests. Call names are not checked against the toolset here: a script may call a tool the
 * toolset lacks, and the run answers that call with an error, as it would for a real model.
 */

import { ProtocolError } from "../errors.js";
import { pointerAppend } from "../json/pointer.js";
import { isPlainObject, type PlainObject } from "./plain-json.js";
import { jsonTypeName, refuseUnknownFields, requiredMember } from "./strict-fields.js";

/** Size limits of a script. */
export const SCRIPTED_MODEL_LIMITS = {
  /** Most steps in a script. */
  steps: 1000,
  /** Most tool calls one step emits. */
  toolCallsPerStep: 64,
  /** Longest tool name a call may carry, in characters. */
  toolNameLength: 128,
} as const;

/** One tool call a script step emits. */
export interface ScriptedToolCall {
  /** The tool to call (normally a tool of the agent version's toolset). */
  name: string;
  /** The call's arguments: a JSON object, checked against the tool's input schema by the run. */
  arguments: PlainObject;
}

/** A step that emits tool calls and waits for their results. */
export interface ScriptedToolCallsStep {
  tool_calls: ScriptedToolCall[];
}

/** A step that ends the run `completed` with `message` as its output. */
export interface ScriptedMessageStep {
  message: string;
}

/** One step of a script. */
export type ScriptStep = ScriptedToolCallsStep | ScriptedMessageStep;

/** Settings of the `scripted` provider. */
export interface ScriptedModelSettings {
  provider: "scripted";
  /** The steps, played in order, one per model turn. */
  script: ScriptStep[];
}

const SETTINGS_FIELDS = ["provider", "script"] as const;
const STEP_FIELDS = ["tool_calls", "message"] as const;
const CALL_FIELDS = ["name", "arguments"] as const;

/** Validates `scripted` settings (an object whose provider is `scripted`); answers a fresh normalized copy. */
export function validateScriptedSettings(settings: PlainObject, pointer: string): ScriptedModelSettings {
  refuseUnknownFields(settings, SETTINGS_FIELDS, pointer, "scripted model settings");
  const at = pointerAppend(pointer, "script");
  const script = requiredMember(settings, "script", pointer);
  if (!Array.isArray(script) || script.length === 0 || script.length > SCRIPTED_MODEL_LIMITS.steps) {
    throw new ProtocolError(
      "validation_failed",
      `script must be an array of 1 to ${SCRIPTED_MODEL_LIMITS.steps} steps; got ${describeList(script)}`,
      at,
      { max_items: SCRIPTED_MODEL_LIMITS.steps },
    );
  }
  return { provider: "scripted", script: script.map((step, index) => validateStep(step, pointerAppend(at, index))) };
}

function validateStep(step: unknown, pointer: string): ScriptStep {
  if (!isPlainObject(step)) {
    throw new ProtocolError("validation_failed", `a script step must be an object; got ${jsonTypeName(step)}`, pointer);
  }
  refuseUnknownFields(step, STEP_FIELDS, pointer, "a script step");
  const hasCalls = Object.hasOwn(step, "tool_calls");
  if (hasCalls === Object.hasOwn(step, "message")) {
    throw new ProtocolError(
      "validation_failed",
      hasCalls
        ? "a script step has either tool_calls or message, not both"
        : 'a script step needs "tool_calls" (emit calls) or "message" (end the run)',
      pointer,
    );
  }
  if (!hasCalls) {
    if (typeof step.message !== "string") {
      throw new ProtocolError(
        "validation_failed",
        `message must be a string; got ${jsonTypeName(step.message)}`,
        pointerAppend(pointer, "message"),
      );
    }
    return { message: step.message };
  }
  const calls = step.tool_calls;
  const at = pointerAppend(pointer, "tool_calls");
  if (!Array.isArray(calls) || calls.length === 0 || calls.length > SCRIPTED_MODEL_LIMITS.toolCallsPerStep) {
    throw new ProtocolError(
      "validation_failed",
      `tool_calls must be an array of 1 to ${SCRIPTED_MODEL_LIMITS.toolCallsPerStep} calls; got ${describeList(calls)}`,
      at,
      { max_items: SCRIPTED_MODEL_LIMITS.toolCallsPerStep },
    );
  }
  return { tool_calls: calls.map((call, index) => validateCall(call, pointerAppend(at, index))) };
}

function validateCall(call: unknown, pointer: string): ScriptedToolCall {
  if (!isPlainObject(call)) {
    throw new ProtocolError("validation_failed", `a tool call must be an object; got ${jsonTypeName(call)}`, pointer);
  }
  refuseUnknownFields(call, CALL_FIELDS, pointer, "a scripted tool call");
  const name = requiredMember(call, "name", pointer);
  if (typeof name !== "string" || name.length === 0 || name.length > SCRIPTED_MODEL_LIMITS.toolNameLength) {
    throw new ProtocolError(
      "validation_failed",
      `name must be a string of 1 to ${SCRIPTED_MODEL_LIMITS.toolNameLength} characters; got ${jsonTypeName(name)}`,
      pointerAppend(pointer, "name"),
    );
  }
  const args = requiredMember(call, "arguments", pointer);
  if (!isPlainObject(args)) {
    throw new ProtocolError(
      "validation_failed",
      `arguments must be a JSON object; got ${jsonTypeName(args)}`,
      pointerAppend(pointer, "arguments"),
    );
  }
  return { name, arguments: args };
}

function describeList(value: unknown): string {
  return Array.isArray(value) ? `${value.length} items` : jsonTypeName(value);
}
