/**
 * Settings of the model providers reached over HTTP through their official SDKs (see docs/runs.md):
 *
 * - `openai`: the Chat Completions API of OpenAI and of every OpenAI-compatible endpoint (Azure-style
 *   gateways, vLLM, Ollama, …), chosen by `base_url`;
 * - `anthropic`: the Messages API of Anthropic and Anthropic-compatible endpoints.
 *
 * Strict like every model setting: an unknown member is refused with its pointer. `api_key_env`
 * names an environment variable of the server, read when a request is made; the key itself is never
 * part of the settings, never stored and never logged.
 */

import { ProtocolError } from "../errors.js";
import { pointerAppend } from "../json/pointer.js";
import type { PlainObject } from "./plain-json.js";
import { jsonTypeName, refuseUnknownFields, requiredMember } from "./strict-fields.js";

/** The HTTP providers, each with its default endpoint and its temperature range. */
export const PROVIDER_DEFAULTS = {
  openai: { base_url: "https://api.openai.com/v1", max_temperature: 2 },
  anthropic: { base_url: "https://api.anthropic.com", max_temperature: 1 },
} as const;

/** One HTTP provider. */
export type HttpModelProvider = keyof typeof PROVIDER_DEFAULTS;

/** Limits of the HTTP providers' settings. */
export const PROVIDER_MODEL_LIMITS = {
  /** Longest model name, in characters. */
  modelLength: 256,
  /** Longest base URL, in characters. */
  baseUrlLength: 2048,
  /** Most output tokens one request may ask for. */
  maxOutputTokens: 1_000_000,
  /** Output tokens asked for when the settings name none. */
  defaultOutputTokens: 4096,
} as const;

/** An environment variable name (what `api_key_env` may hold). */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** Validated settings of an HTTP provider, defaults applied. */
export interface ProviderModelSettings<P extends HttpModelProvider = HttpModelProvider> {
  provider: P;
  /** The endpoint's base URL (`…/v1` for OpenAI-compatible ones). */
  base_url: string;
  /** The model name the endpoint knows. */
  model: string;
  /** The server's environment variable holding the API key; null when the endpoint needs none. */
  api_key_env: string | null;
  /** Output tokens each request may use; also reserved in the context window. */
  max_output_tokens: number;
  /** Sampling temperature; null for the provider's default. */
  temperature: number | null;
}

/** Settings of the `openai` provider. */
export type OpenAiModelSettings = ProviderModelSettings<"openai">;

/** Settings of the `anthropic` provider. */
export type AnthropicModelSettings = ProviderModelSettings<"anthropic">;

const FIELDS = ["provider", "base_url", "model", "api_key_env", "max_output_tokens", "temperature"] as const;

function fail(message: string, pointer: string, details?: Record<string, unknown>): never {
  throw new ProtocolError("validation_failed", message, pointer, details);
}

function baseUrlOf(value: unknown, pointer: string, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || value.length === 0 || value.length > PROVIDER_MODEL_LIMITS.baseUrlLength) {
    fail(`base_url must be an http or https URL of at most ${PROVIDER_MODEL_LIMITS.baseUrlLength} characters`, pointer);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(`base_url must be an absolute http or https URL; got ${JSON.stringify(value)}`, pointer);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    fail(`base_url must use http or https; got ${JSON.stringify(url.protocol)}`, pointer);
  }
  // A key in the URL would be stored and shown with the agent version: keys go in api_key_env.
  if (url.username !== "" || url.password !== "") fail("base_url must not carry credentials; use api_key_env", pointer);
  return value;
}

function validateProvider<P extends HttpModelProvider>(
  provider: P,
  settings: PlainObject,
  pointer: string,
): ProviderModelSettings<P> {
  refuseUnknownFields(settings, FIELDS, pointer, `${provider} model settings`);
  const defaults = PROVIDER_DEFAULTS[provider];
  const at = (field: string): string => pointerAppend(pointer, field);
  const model = requiredMember(settings, "model", pointer);
  if (typeof model !== "string" || model.length === 0 || model.length > PROVIDER_MODEL_LIMITS.modelLength) {
    fail(
      `model must be a string of 1 to ${PROVIDER_MODEL_LIMITS.modelLength} characters; got ${jsonTypeName(model)}`,
      at("model"),
    );
  }
  const keyEnv = settings.api_key_env;
  if (keyEnv !== undefined && (typeof keyEnv !== "string" || !ENV_NAME_PATTERN.test(keyEnv))) {
    fail(
      "api_key_env must name an environment variable (letters, digits and _, not starting with a digit)",
      at("api_key_env"),
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
    base_url: baseUrlOf(settings.base_url, at("base_url"), defaults.base_url),
    model,
    api_key_env: keyEnv ?? null,
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
