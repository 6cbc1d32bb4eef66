/**
 * The model a run's agent version names, read from its stored settings: the built-in scripted model
 * (answered synchronously, inside the transaction that starts the turn) or a provider reached over
 * HTTP (answered by the run driver, outside any transaction).
 */

import { type ProviderModelSettings, parseJson, validateModelSettings } from "@toolhost/protocol";
import { readScriptedModel, type ScriptedModel } from "./scripted-turn.js";

/** A run's model. */
export type RunModel =
  | { kind: "scripted"; scripted: ScriptedModel }
  | { kind: "provider"; settings: ProviderModelSettings };

/** The provider and model name requests are recorded (and calibrated) under. */
export interface ModelIdentity {
  provider: string;
  model: string;
}

/** Reads stored model settings (`agent_versions.model_json`). */
export function readRunModel(modelJson: string): RunModel {
  if (modelJson.startsWith('{"provider":"scripted"'))
    return { kind: "scripted", scripted: readScriptedModel(modelJson) };
  const settings = validateModelSettings(parseJson(modelJson));
  if (settings.provider === "scripted") return { kind: "scripted", scripted: readScriptedModel(modelJson) };
  return { kind: "provider", settings };
}

/** Who answers: the provider and model name. */
export function identityOf(model: RunModel): ModelIdentity {
  return model.kind === "scripted"
    ? { provider: "scripted", model: "scripted" }
    : { provider: model.settings.provider, model: model.settings.model };
}

/** Output tokens a request of `model` reserves in the window (the scripted model writes nothing counted). */
export function maxOutputTokensOf(model: RunModel): number {
  return model.kind === "scripted" ? 0 : model.settings.max_output_tokens;
}
