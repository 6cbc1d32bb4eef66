/**
 * The built-in `scripted` model (pure): turn N plays step N of the agent version's script. A
 * `message` step ends the run, a `tool_calls` step emits its calls, and a turn past the last step
 * fails the run with `script_exhausted`. The settings are read losslessly, so the arguments keep the
 * stored key order and big integers; their structure is checked by the protocol's validator.
 */

import {
  isJsonObject,
  type JsonValue,
  objectGet,
  parseJson,
  type ScriptedModelSettings,
  validateModelSettings,
} from "@toolhost/protocol";
import type { ModelToolCall, ModelTurn } from "../models/model-turn.js";

/** The run error when the script has no step left for a turn. */
export const SCRIPT_EXHAUSTED = "script_exhausted";

/** Scripted settings read from stored model JSON: the validated steps and the lossless tree. */
export interface ScriptedModel {
  readonly settings: ScriptedModelSettings;
  /** The lossless `script` array, index for index with `settings.script`. */
  readonly steps: readonly JsonValue[];
}

/** Reads stored model settings (`agent_versions.model_json`); throws when they are not a valid script. */
export function readScriptedModel(modelJson: string): ScriptedModel {
  const tree = parseJson(modelJson);
  const settings = validateModelSettings(tree);
  if (settings.provider !== "scripted") throw new Error(`model provider ${settings.provider} is not scripted`);
  const steps = isJsonObject(tree) ? objectGet(tree, "script") : undefined;
  if (!Array.isArray(steps) || steps.length !== settings.script.length) throw new Error("stored script is malformed");
  return { settings, steps };
}

/** What model turn `turn` (0, 1, …) of `model` decides. */
export function scriptedTurn(model: ScriptedModel, turn: number): ModelTurn {
  const step = model.settings.script[turn];
  if (step === undefined) {
    const total = model.settings.script.length;
    return {
      kind: "fail",
      error: {
        code: SCRIPT_EXHAUSTED,
        message: `the script has ${total} step${total === 1 ? "" : "s"} and turn ${turn + 1} needs another one`,
      },
    };
  }
  if ("message" in step) return { kind: "message", text: step.message };
  const lossless = model.steps[turn];
  const calls = lossless !== undefined && isJsonObject(lossless) ? objectGet(lossless, "tool_calls") : undefined;
  return {
    kind: "tool_calls",
    calls: step.tool_calls.map((call, index): ModelToolCall => {
      const source = Array.isArray(calls) ? calls[index] : undefined;
      const args = source !== undefined && isJsonObject(source) ? objectGet(source, "arguments") : undefined;
      if (args === undefined) throw new Error(`stored script step ${turn} call ${index} has no arguments`);
      return { name: call.name, arguments: args };
    }),
  };
}
