/**
 * An agent version's model settings: which provider answers the model turns, and how (docs/runs.md).
 * `provider` picks the validator; each provider's settings are strict (an unknown member is refused
 * with its pointer), like tool definitions. Adding a provider (the runs work adds `openai` and
 * `anthropic`) means: its name in MODEL_PROVIDERS, its validator in PROVIDER_VALIDATORS, and its
 * settings type in the ModelSettings union — nothing else changes.
 */

import { ProtocolError } from "../errors.js";
import { pointerAppend } from "../json/pointer.js";
import { isPlainObject, type PlainObject, toPlainJson } from "./plain-json.js";
import {
  type AnthropicModelSettings,
  type OpenAiModelSettings,
  validateAnthropicSettings,
  validateOpenAiSettings,
} from "./provider-model.js";
import { type ScriptedModelSettings, validateScriptedSettings } from "./scripted-model.js";
import { jsonTypeName, requiredMember } from "./strict-fields.js";

/** The model providers an agent version may name. */
export const MODEL_PROVIDERS = {
  /** Built in and deterministic: plays a fixed script, one step per turn (demos and tests). */
  scripted: "scripted",
  /** The Chat Completions API of OpenAI or any OpenAI-compatible endpoint. */
  openai: "openai",
  /** The Messages API of Anthropic or an Anthropic-compatible endpoint. */
  anthropic: "anthropic",
} as const;

/** One model provider. */
export type ModelProvider = keyof typeof MODEL_PROVIDERS;

/** Validated model settings, one branch per provider (discriminated by `provider`). */
export type ModelSettings = ScriptedModelSettings | OpenAiModelSettings | AnthropicModelSettings;

/** Each provider's settings validator: gets the settings object (provider already checked). */
const PROVIDER_VALIDATORS: {
  readonly [P in ModelProvider]: (settings: PlainObject, pointer: string) => Extract<ModelSettings, { provider: P }>;
} = {
  scripted: validateScriptedSettings,
  openai: validateOpenAiSettings,
  anthropic: validateAnthropicSettings,
};

/** True when `value` names a model provider. */
export function isModelProvider(value: unknown): value is ModelProvider {
  return typeof value === "string" && Object.hasOwn(MODEL_PROVIDERS, value);
}

/** Validates model settings and answers a normalized copy; throws a ProtocolError naming the pointer. */
export function validateModelSettings(input: unknown, pointer = "/model"): ModelSettings {
  const settings = toPlainJson(input, pointer);
  if (!isPlainObject(settings)) {
    throw new ProtocolError(
      "validation_failed",
      `model settings must be a JSON object; got ${jsonTypeName(settings)}`,
      pointer,
    );
  }
  const provider = requiredMember(settings, "provider", pointer);
  if (!isModelProvider(provider)) {
    const allowed = Object.values(MODEL_PROVIDERS);
    throw new ProtocolError(
      "validation_failed",
      `provider must be one of ${allowed.map((name) => JSON.stringify(name)).join(", ")}; got ${typeof provider === "string" ? JSON.stringify(provider) : jsonTypeName(provider)}`,
      pointerAppend(pointer, "provider"),
      { allowed },
    );
  }
  return PROVIDER_VALIDATORS[provider](settings, pointer);
}
