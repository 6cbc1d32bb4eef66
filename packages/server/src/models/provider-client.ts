/**
 * Sending one rendered request through the provider's official SDK (the I/O of the providers), over
 * one of the operator's model connections. The SDKs retry 408/409/429/5xx answers and connection
 * failures with exponential backoff and jitter, honouring `retry-after` and `retry-after-ms`, up to
 * `maxRetries` times, each attempt limited to `timeoutMs`. The connection's key is read from the
 * server's environment variable its `api_key_env` names when the request is made, handed to the
 * connection's fetch only (`connection-fetch.ts`: only that key, only below its base_url, no
 * redirects), never stored or logged.
 *
 * A failure never carries the provider's answer body into the run: the run's error says the status
 * and the provider's error type and code only (`classifyProviderError`), and the body goes to the
 * server's log at warn, truncated and with the key blanked out.
 */

import Anthropic from "@anthropic-ai/sdk";
import type { MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources/messages/messages";
import type { ModelConnection } from "@toolhost/protocol";
import OpenAI from "openai";
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { readAnthropicAnswer } from "./anthropic-messages.js";
import { type ConnectionTarget, connectionFetch } from "./connection-fetch.js";
import { ModelRequestError, type ProviderAnswer } from "./model-answer.js";
import { readOpenAiAnswer } from "./openai-chat.js";
import type { ToolNameMap } from "./tool-names.js";

/** Where refused requests are logged (the server's logger). */
export interface ProviderLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

/** How requests are sent (server options). */
export interface ProviderCallOptions {
  /** Retries after the first attempt (429, 5xx, timeouts, connection failures). */
  readonly maxRetries: number;
  /** Each attempt's timeout. */
  readonly timeoutMs: number;
  /** Where a connection's `api_key_env` is read. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where a refused request's answer body is logged. */
  readonly log: ProviderLog;
  /** Aborts the request (the server is stopping, or the run ended). */
  readonly signal: AbortSignal;
}

/** One declared connection with its ID. */
export interface NamedConnection extends ModelConnection {
  readonly id: string;
}

/** A request body rendered for its provider. */
export type ProviderBody =
  | { provider: "openai"; body: ChatCompletionCreateParamsNonStreaming }
  | { provider: "anthropic"; body: MessageCreateParamsNonStreaming };

/** Sent to the SDKs when the connection has no key (they require one); the connection's fetch drops it. */
const NO_KEY = "no-key";

function apiKeyOf(connection: NamedConnection, env: ProviderCallOptions["env"]): string | null {
  if (connection.api_key_env === null) return null;
  const key = env[connection.api_key_env];
  if (key === undefined || key === "") {
    throw new ModelRequestError({
      kind: "model_error",
      message: `the environment variable ${connection.api_key_env} of model connection ${JSON.stringify(connection.id)} is not set`,
    });
  }
  return key;
}

/** Sends `request` over `connection` and reads the answer; throws ModelRequestError once retries are spent. */
export async function sendProviderRequest(
  connection: NamedConnection,
  request: ProviderBody,
  names: ToolNameMap,
  options: ProviderCallOptions,
): Promise<ProviderAnswer> {
  const apiKey = apiKeyOf(connection, options.env);
  const target: ConnectionTarget = {
    id: connection.id,
    baseUrl: connection.base_url,
    apiKey,
  };
  const common = {
    baseURL: connection.base_url,
    apiKey: apiKey ?? NO_KEY,
    maxRetries: options.maxRetries,
    timeout: options.timeoutMs,
    fetch: connectionFetch(target),
    logLevel: "off" as const,
  };
  try {
    if (request.provider === "openai") {
      const client = new OpenAI({
        ...common,
        organization: null,
        project: null,
        webhookSecret: null,
      });
      const completion = await client.chat.completions.create(request.body, { signal: options.signal });
      return readOpenAiAnswer(completion, names);
    }
    const client = new Anthropic({ ...common, authToken: null, webhookKey: null });
    const message = await client.messages.create(request.body, { signal: options.signal });
    return readAnthropicAnswer(message, names);
  } catch (error) {
    if (error instanceof ModelRequestError || options.signal.aborted) throw error;
    const refusal = classifyProviderError(connection, error);
    options.log.warn(
      {
        connection: connection.id,
        provider: connection.provider,
        status: refusal.status,
        body: loggedBody(error, apiKey),
      },
      "model request failed",
    );
    throw new ModelRequestError(refusal.failure);
  }
}

/** Context-length refusals as OpenAI, Anthropic and the common compatible servers word them. */
const CONTEXT_LENGTH =
  /context[_ ]length|context window|maximum context|prompt is too long|too many tokens|input is too long|reduce the length/i;

/** What a provider's error type or code may look like to be shown in a run's error; anything else is left out. */
const SHOWN_DETAIL = /^[A-Za-z0-9_.:-]{1,64}$/;

/** Longest answer body logged. */
export const LOGGED_BODY_MAX = 2048;

/** A string member of `value`, if it looks like an error type or code. */
function detailOf(value: unknown, member: string): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const detail = (value as Record<string, unknown>)[member];
  return typeof detail === "string" && SHOWN_DETAIL.test(detail) ? detail : undefined;
}

/** What a failed request is: the run's failure (status, error type and code only) and the status, if any. */
export function classifyProviderError(
  connection: Pick<NamedConnection, "id" | "provider">,
  error: unknown,
): { failure: ModelRequestError["failure"]; status: number | undefined } {
  const via = `${connection.provider} (model connection ${JSON.stringify(connection.id)})`;
  const status =
    typeof (error as { status?: unknown }).status === "number" ? (error as { status: number }).status : undefined;
  if (status === undefined) {
    const name = error instanceof Error ? error.name : "";
    const what = /timeout/i.test(name) ? "timed out" : /connection/i.test(name) ? "could not connect" : "failed";
    return { failure: { kind: "model_error", message: `the request to ${via} ${what}` }, status };
  }
  const type = detailOf(error, "type");
  const code = detailOf(error, "code") ?? detailOf(error, "errorCode");
  const details = [type === undefined ? "" : `type ${type}`, code === undefined ? "" : `code ${code}`].filter(
    (part) => part !== "",
  );
  const shown = details.length === 0 ? "" : ` (${details.join(", ")})`;
  const message = error instanceof Error ? error.message : "";
  if (
    (status === 400 || status === 413 || status === 422) &&
    (code === "context_length_exceeded" || CONTEXT_LENGTH.test(message))
  ) {
    return {
      failure: { kind: "context_length", message: `${via} refused the request as too long: ${status}${shown}` },
      status,
    };
  }
  const redirect = status >= 300 && status < 400 ? "; redirects are never followed" : "";
  return { failure: { kind: "model_error", message: `${via} answered ${status}${shown}${redirect}` }, status };
}

/** The answer body for the log: the SDK's parsed body (or its message), truncated, with the key blanked out. */
function loggedBody(error: unknown, apiKey: string | null): string {
  const parsed = (error as { error?: unknown }).error;
  let text = parsed === undefined ? (error instanceof Error ? error.message : String(error)) : JSON.stringify(parsed);
  if (apiKey !== null && apiKey !== "") text = text.replaceAll(apiKey, "[the connection's key]");
  return text.length > LOGGED_BODY_MAX ? `${text.slice(0, LOGGED_BODY_MAX)}…` : text;
}
