/**
 * The model a run's agent version names, read from its stored settings: the built-in scripted model
 * (answered synchronously, inside the transaction that starts the turn) or a provider reached over
 * HTTP (answered by the run driver, outside any transaction).
 */

import { type ProviderModelSettings, parseJson, validateModelSettings } from "@toolhost/protocol";
import { undecidedTurn } from "./decided-turn.js";
import type { RunFailure } from "./model-turn.js";
import { readScriptedModel, type ScriptedModel } from "./scripted-turn.js";

/** A run's model. */
export type RunModel =
  | { kind: "scripted"; scripted: ScriptedModel }
  | { kind: "provider"; settings: ProviderModelSettings }
  /** Stored settings that no longer read (a bug, or a database edited by hand): the turn fails the run. */
  | { kind: "unreadable"; failure: RunFailure };

/** The provider and model name requests are recorded (and calibrated) under. */
export interface ModelIdentity {
  provider: string;
  model: string;
}

/** Reads stored model settings (`agent_versions.model_json`); settings that do not read are `unreadable`. */
export function readRunModel(modelJson: string): RunModel {
  try {
    return readModelSettings(modelJson);
  } catch (error) {
    return { kind: "unreadable", failure: undecidedTurn(error) };
  }
}

function readModelSettings(modelJson: string): RunModel {
  if (modelJson.startsWith('{"provider":"scripted"'))
    return { kind: "scripted", scripted: readScriptedModel(modelJson) };
  const settings = validateModelSettings(parseJson(modelJson));
  if (settings.provider === "scripted") return { kind: "scripted", scripted: readScriptedModel(modelJson) };
  return { kind: "provider", settings };
}

/** Who answers: the provider and model name. */
export function identityOf(model: RunModel): ModelIdentity {
  return model.kind === "provider"
    ? { provider: model.settings.provider, model: model.settings.model }
    : { provider: model.kind, model: model.kind };
}

/** Output tokens a request of `model` reserves in the window (the scripted model writes nothing counted). */
export function maxOutputTokensOf(model: RunModel): number {
  return model.kind === "provider" ? model.settings.max_output_tokens : 0;
}
