/**
 * Wire schema of an agent version's model settings (docs/runs.md). It documents the providers for
 * OpenAPI with the protocol's own limits; the rules live in `validateModelSettings` (`config/`), which
 * the server runs on `model` before schema validation, so its errors (such as an unknown provider at
 * `/model/provider`) are what a client sees. A new provider adds its branch to ModelSettings.
 */

import { type Static, Type } from "typebox";
import { CONNECTION_ID_PATTERN } from "../config/model-connection.js";
import { PROVIDER_DEFAULTS, PROVIDER_MODEL_LIMITS } from "../config/provider-model.js";
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

function providerMembers<P extends keyof typeof PROVIDER_DEFAULTS>(provider: P, what: string) {
  const defaults = PROVIDER_DEFAULTS[provider];
  return {
    provider: Type.Literal(provider, { description: what }),
    connection: Type.String({
      description: `One of the server's model connections (declared by the operator in \`TOOLHOST_MODEL_CONNECTIONS\`), serving \`${provider}\` and within the publishing key's \`connections\`; else 422 \`unknown_reference\` here. The connection holds the endpoint and the key: \`base_url\` and \`api_key_env\` are refused (422 \`unknown_field\`).`,
      pattern: CONNECTION_ID_PATTERN.source,
    }),
    model: Type.String({
      description: "The model name the endpoint knows.",
      minLength: 1,
      maxLength: PROVIDER_MODEL_LIMITS.modelLength,
    }),
    max_output_tokens: Type.Optional(
      Type.Integer({
        description: `Output tokens a request may use, reserved in the context window (default ${PROVIDER_MODEL_LIMITS.defaultOutputTokens}).`,
        minimum: 1,
        maximum: PROVIDER_MODEL_LIMITS.maxOutputTokens,
      }),
    ),
    temperature: Type.Optional(
      Type.Number({
        description: "Sampling temperature (the provider's default when absent).",
        minimum: 0,
        maximum: defaults.max_temperature,
      }),
    ),
  };
}

/** Settings of the `openai` provider (Chat Completions; OpenAI-compatible endpoints). */
export const OpenAiModelSettings = WireObject(
  "A model behind the Chat Completions API of OpenAI or any OpenAI-compatible endpoint (vLLM, Ollama, gateways).",
  providerMembers("openai", "OpenAI or an OpenAI-compatible endpoint."),
);

/** Settings of the `anthropic` provider (Messages API). */
export const AnthropicModelSettings = WireObject(
  "A model behind the Messages API of Anthropic or an Anthropic-compatible endpoint.",
  providerMembers("anthropic", "Anthropic or an Anthropic-compatible endpoint."),
);

/** An agent version's model settings, one branch per provider (chosen by `provider`). */
export const ModelSettings = Type.Union([ScriptedModelSettings, OpenAiModelSettings, AnthropicModelSettings], {
  description:
    'Model settings, chosen by `provider`: `"scripted"`, `"openai"` or `"anthropic"`. Strict: unknown members are refused.',
});

/** An agent version's model settings. */
export type ModelSettings = Static<typeof ModelSettings>;

/**
 * Settings of an HTTP provider stored before model connections existed: they named an endpoint
 * (`base_url`) and an environment variable (`api_key_env`) themselves. Still answered as stored; runs
 * of such a version fail `model_error` until a new version names a connection.
 */
export const LegacyProviderModelSettings = WireObject(
  "Stored before model connections: readable, but its runs fail `model_error`; publish a new version naming a `connection`.",
  {
    provider: Type.Union([Type.Literal("openai"), Type.Literal("anthropic")], { description: "The provider." }),
    base_url: Type.Optional(Type.String({ description: "The endpoint it named (no longer used)." })),
    model: Type.String({ description: "The model name." }),
    api_key_env: Type.Optional(Type.String({ description: "The environment variable it named (no longer read)." })),
    max_output_tokens: Type.Optional(Type.Integer({ description: "Output tokens a request could use." })),
    temperature: Type.Optional(Type.Number({ description: "Sampling temperature." })),
  },
);

/** An agent version's model settings as stored and answered: current ones, or settings from before model connections. */
export const StoredModelSettings = Type.Union([ModelSettings, LegacyProviderModelSettings], {
  description:
    "The model settings as published. Versions published before model connections may still carry `base_url`/`api_key_env` (their runs fail `model_error`).",
});

/** An agent version's model settings as answered. */
export type StoredModelSettings = Static<typeof StoredModelSettings>;
