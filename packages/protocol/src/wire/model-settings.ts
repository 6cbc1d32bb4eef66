/**
 * Wire schema of an agent version's model settings (SPEC §7, §10). It documents the providers for
 * OpenAPI with the protocol's own limits; the rules live in `validateModelSettings` (`config/`), which
 * the server runs on `model` before schema validation, so its errors (such as an unknown provider at
 * `/model/provider`) are what a client sees. A new provider adds its branch to ModelSettings.
 */

import { type Static, Type } from "typebox";
import { SCRIPTED_MODEL_LIMITS } from "../config/scripted-model.js";
import { AnyObject, StoredText, WireObject } from "./common.js";

/** One tool call a scripted step emits. */
export const ScriptedToolCall = WireObject("A tool call the scripted model emits.", {
  name: StoredText({
    description: "The tool to call; a name the toolset lacks makes the run answer the call with an error.",
    minLength: 1,
    maxLength: SCRIPTED_MODEL_LIMITS.toolNameLength,
  }),
  arguments: AnyObject("The call's arguments; the run checks them against the tool's input schema."),
});

/** One step of a script: emit tool calls, or end the run with a message. */
export const ScriptStep = Type.Union(
  [
    WireObject("Emits these tool calls and waits for their results.", {
      tool_calls: Type.Array(ScriptedToolCall, {
        description: "The calls, in order.",
        minItems: 1,
        maxItems: SCRIPTED_MODEL_LIMITS.toolCallsPerStep,
      }),
    }),
    WireObject("Ends the run `completed` with this output.", {
      message: Type.String({ description: "The run's output." }),
    }),
  ],
  { description: "One model turn of the script." },
);

/** One step of a script. */
export type ScriptStep = Static<typeof ScriptStep>;

/** Settings of the built-in, deterministic `scripted` provider. */
export const ScriptedModelSettings = WireObject("The built-in scripted model: one step per model turn.", {
  provider: Type.Literal("scripted", { description: "The built-in scripted model." }),
  script: Type.Array(ScriptStep, {
    description: "The steps, played in order.",
    minItems: 1,
    maxItems: SCRIPTED_MODEL_LIMITS.steps,
  }),
});

/** Settings of the `scripted` provider. */
export type ScriptedModelSettings = Static<typeof ScriptedModelSettings>;

/** An agent version's model settings, one branch per provider (chosen by `provider`). */
export const ModelSettings = Type.Union([ScriptedModelSettings], {
  description: 'Model settings, chosen by `provider` (now: `"scripted"`). Strict: unknown members are refused.',
});

/** An agent version's model settings. */
export type ModelSettings = Static<typeof ModelSettings>;
