/**
 * Sending one rendered request through the provider's official SDK (the I/O of the providers). The
 * SDKs retry 408/409/429/5xx answers and connection failures with exponential backoff and jitter,
 * honouring `retry-after` and `retry-after-ms`, up to `maxRetries` times, each attempt limited to
 * `timeoutMs`. The API key is read from the server's environment variable named by `api_key_env`
 * when the request is made; it is handed to the SDK only, never stored or logged. Nothing else is
 * taken from the environment (the SDKs would read their own variables otherwise).
 */

import Anthropic from "@anthropic-ai/sdk";
import type { MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources/messages/messages";
import type { ProviderModelSettings } from "@toolhost/protocol";
import OpenAI from "openai";
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { readAnthropicAnswer } from "./anthropic-messages.js";
import { ModelRequestError, type ProviderAnswer } from "./model-answer.js";
import { readOpenAiAnswer } from "./openai-chat.js";
import type { ToolNameMap } from "./tool-names.js";

/** How requests are sent (server options). */
export interface ProviderCallOptions {
  /** Retries after the first attempt (429, 5xx, timeouts, connection failures). */
  readonly maxRetries: number;
  /** Each attempt's timeout. */
  readonly timeoutMs: number;
  /** Where `api_key_env` is read. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Aborts the request (the server is stopping, or the run ended). */
  readonly signal: AbortSignal;
}

/** A request body rendered for its provider. */
export type ProviderBody =
  | { provider: "openai"; body: ChatCompletionCreateParamsNonStreaming }
  | { provider: "anthropic"; body: MessageCreateParamsNonStreaming };

/** Sent instead of a key to endpoints that need none (the SDKs require one). */
const NO_KEY = "no-key";

function apiKeyOf(settings: ProviderModelSettings, env: ProviderCallOptions["env"]): string {
  if (settings.api_key_env === null) return NO_KEY;
  const key = env[settings.api_key_env];
  if (key === undefined || key === "") {
    throw new ModelRequestError({
      kind: "model_error",
      message: `the server's environment variable ${settings.api_key_env} (api_key_env) is not set`,
    });
  }
  return key;
}

/** Sends `request` and reads the answer; throws ModelRequestError once retries are spent. */
export async function sendProviderRequest(
  settings: ProviderModelSettings,
  request: ProviderBody,
  names: ToolNameMap,
  options: ProviderCallOptions,
): Promise<ProviderAnswer> {
  const apiKey = apiKeyOf(settings, options.env);
  const common = { baseURL: settings.base_url, maxRetries: options.maxRetries, timeout: options.timeoutMs };
  try {
    if (request.provider === "openai") {
      const client = new OpenAI({ ...common, apiKey, organization: null, project: null });
      const completion = await client.chat.completions.create(request.body, { signal: options.signal });
      return readOpenAiAnswer(completion, names);
    }
    const client = new Anthropic({ ...common, apiKey, authToken: null });
    const message = await client.messages.create(request.body, { signal: options.signal });
    return readAnthropicAnswer(message, names);
  } catch (error) {
    if (error instanceof ModelRequestError || options.signal.aborted) throw error;
    throw new ModelRequestError(classifyProviderError(settings.provider, error));
  }
}

/** Context-length refusals as OpenAI, Anthropic and the common compatible servers word them. */
const CONTEXT_LENGTH =
  /context[_ ]length|context window|maximum context|prompt is too long|too many tokens|input is too long|reduce the length/i;

/** Longest provider message kept in a run's error. */
const MESSAGE_MAX = 500;

/** The failure an SDK error stands for. */
export function classifyProviderError(provider: string, error: unknown): ModelRequestError["failure"] {
  const status = (error as { status?: unknown }).status;
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const shown = message.length > MESSAGE_MAX ? `${message.slice(0, MESSAGE_MAX)}…` : message;
  if (
    (status === 400 || status === 413 || status === 422) &&
    (code === "context_length_exceeded" || CONTEXT_LENGTH.test(message))
  ) {
    return { kind: "context_length", message: `${provider} refused the request as too long: ${shown}` };
  }
  if (typeof status === "number") return { kind: "model_error", message: `${provider} answered ${status}: ${shown}` };
  return { kind: "model_error", message: `${provider} request failed: ${shown}` };
}
