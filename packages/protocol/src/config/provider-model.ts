/**
 * Settings of the model providers reached over HTTP through their official SDKs (see docs/runs.md):
 *
 * - `openai`: the Chat Completions API of OpenAI and of every OpenAI-compatible endpoint (Azure-style
 *   gateways, vLLM, Ollama, …);
 * - `anthropic`: the Messages API of Anthropic and Anthropic-compatible endpoints.
 *
 * The endpoint and its key are never part of the settings: `connection` names one of the model
 * connections the operator declares (`model-connection.ts`), and the server checks that it exists,
 * serves the same provider and lies in the publishing key's reach. Strict like every model setting: an
 * unknown member is refused with its pointer — `base_url` and `api_key_env` too, with no alias.
 */

import { ProtocolError } from "../errors.js";
import { pointerAppend } from "../json/pointer.js";
import { CONNECTION_ID_PATTERN } from "./model-connection.js";
import type { PlainObject } from "./plain-json.js";
import { jsonTypeName, refuseUnknownFields, requiredMember } from "./strict-fields.js";

/** The HTTP providers, each with its temperature range. */
export const PROVIDER_DEFAULTS = {
  openai: { max_temperature: 2 },
  anthropic: { max_temperature: 1 },
} as const;

/** One HTTP provider. */
export type HttpModelProvider = keyof typeof PROVIDER_DEFAULTS;

/** Limits of the HTTP providers' settings. */
export const PROVIDER_MODEL_LIMITS = {
  /** Longest model name, in characters. */
  modelLength: 256,
  /** Most output tokens one request may ask for. */
  maxOutputTokens: 1_000_000,
  /** Output tokens asked for when the settings name none. */
  defaultOutputTokens: 4096,
} as const;

/** Validated settings of an HTTP provider, defaults applied. */
export interface ProviderModelSettings<P extends HttpModelProvider = HttpModelProvider> {
  provider: P;
  /** The operator's model connection the requests go through (its ID). */
  connection: string;
  /** The model name the endpoint knows. */
  model: string;
  /** Output tokens each request may use; also reserved in the context window. */
  max_output_tokens: number;
  /** Sampling temperature; null for the provider's default. */
  temperature: number | null;
}

/** Settings of the `openai` provider. */
export type OpenAiModelSettings = ProviderModelSettings<"openai">;

/** Settings of the `anthropic` provider. */
export type AnthropicModelSettings = ProviderModelSettings<"anthropic">;

const FIELDS = ["provider", "connection", "model", "max_output_tokens", "temperature"] as const;

/** Members agent versions carried before model connections: refused, no alias (the operator owns endpoints and keys). */
export const CONNECTION_FIELDS = ["base_url", "api_key_env"] as const;

/** Refuses `base_url`/`api_key_env` with `unknown_field` at their pointer, saying what replaced them. */
function refuseConnectionFields(settings: PlainObject, pointer: string): void {
  for (const field of Object.keys(settings)) {
    if (!(CONNECTION_FIELDS as readonly string[]).includes(field)) continue;
    throw new ProtocolError(
      "unknown_field",
      `unknown field ${JSON.stringify(field)}: an agent version names no endpoint and no key; name one of the server's model connections in "connection" (docs/configuration.md#model-connections)`,
      pointerAppend(pointer, field),
      { field, allowed: [...FIELDS] },
    );
  }
}

function fail(message: string, pointer: string, details?: Record<string, unknown>): never {
  throw new ProtocolError("validation_failed", message, pointer, details);
}

function validateProvider<P extends HttpModelProvider>(
  provider: P,
  settings: PlainObject,
  pointer: string,
): ProviderModelSettings<P> {
  refuseConnectionFields(settings, pointer);
  refuseUnknownFields(settings, FIELDS, pointer, `${provider} model settings`);
  const defaults = PROVIDER_DEFAULTS[provider];
  const at = (field: string): string => pointerAppend(pointer, field);
  const connection = requiredMember(settings, "connection", pointer);
  if (typeof connection !== "string" || !CONNECTION_ID_PATTERN.test(connection)) {
    fail(
      `connection must name one of the server's model connections (1 to 64 lowercase letters, digits and ._-); got ${typeof connection === "string" ? JSON.stringify(connection) : jsonTypeName(connection)}`,
      at("connection"),
    );
  }
  const model = requiredMember(settings, "model", pointer);
  if (typeof model !== "string" || model.length === 0 || model.length > PROVIDER_MODEL_LIMITS.modelLength) {
    fail(
      `model must be a string of 1 to ${PROVIDER_MODEL_LIMITS.modelLength} characters; got ${jsonTypeName(model)}`,
      at("model"),
    );
  }
  const maxOutput = settings.max_output_tokens;
  if (
    maxOutput !== undefined &&
    (typeof maxOutput !== "number" ||
      !Number.isSafeInteger(maxOutput) ||
      maxOutput < 1 ||
      maxOutput > PROVIDER_MODEL_LIMITS.maxOutputTokens)
  ) {
    fail(
      `max_output_tokens must be an integer from 1 to ${PROVIDER_MODEL_LIMITS.maxOutputTokens}`,
      at("max_output_tokens"),
      {
        minimum: 1,
        maximum: PROVIDER_MODEL_LIMITS.maxOutputTokens,
      },
    );
  }
  const temperature = settings.temperature;
  if (
    temperature !== undefined &&
    (typeof temperature !== "number" || !(temperature >= 0) || temperature > defaults.max_temperature)
  ) {
    fail(`temperature must be a number from 0 to ${defaults.max_temperature}`, at("temperature"), {
      minimum: 0,
      maximum: defaults.max_temperature,
    });
  }
  return {
    provider,
    connection,
    model,
    max_output_tokens: maxOutput ?? PROVIDER_MODEL_LIMITS.defaultOutputTokens,
    temperature: temperature ?? null,
  };
}

/** Validates `openai` settings (an object whose provider is `openai`). */
export function validateOpenAiSettings(settings: PlainObject, pointer: string): OpenAiModelSettings {
  return validateProvider("openai", settings, pointer);
}

/** Validates `anthropic` settings (an object whose provider is `anthropic`). */
export function validateAnthropicSettings(settings: PlainObject, pointer: string): AnthropicModelSettings {
  return validateProvider("anthropic", settings, pointer);
}

/**
 * Refuses settings whose output reservation leaves no room for input in a `maxContextTokens` window
 * (every request would fail `context_window_exceeded`); the scripted model reserves nothing.
 */
export function checkOutputWithinWindow(
  settings: { provider: string; max_output_tokens?: number },
  maxContextTokens: number,
  pointer = "/model",
): void {
  if (settings.provider === "scripted" || settings.max_output_tokens === undefined) return;
  if (settings.max_output_tokens < maxContextTokens) return;
  fail(
    `max_output_tokens (${settings.max_output_tokens}, the default when absent) must be below max_context_tokens (${maxContextTokens}): it is reserved in every request's window`,
    pointerAppend(pointer, "max_output_tokens"),
    { max_output_tokens: settings.max_output_tokens, max_context_tokens: maxContextTokens },
  );
}
