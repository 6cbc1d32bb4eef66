/**
 * The `openai` provider's wire format (pure): a conversation rendered as a Chat Completions request,
 * and a completion read back as the turn's decision. Tool calls keep the run's call IDs, tool names
 * are mapped to names the API accepts (`tool-names.ts`), a tool result's content is its stored
 * projection's compact text. `messages` is the body's last member, so consecutive requests of a run
 * share their longest possible prefix.
 */

import { type ProviderModelSettings, parseJson, type ToolDefinition } from "@toolhost/protocol";
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import { type Conversation, messagesOf } from "./conversation.js";
import { ModelRequestError, type ProviderAnswer, SUMMARY_INSTRUCTION } from "./model-answer.js";
import type { ModelToolCall } from "./model-turn.js";
import type { ToolNameMap } from "./tool-names.js";

/** What a request asks for: the next turn, or a summary (tools shown but not callable). */
export interface RenderOptions {
  readonly purpose: "turn" | "summary";
  readonly maxOutputTokens: number;
}

/** The Chat Completions request body for `conversation`. */
export function openAiBody(
  settings: ProviderModelSettings,
  conversation: Conversation,
  tools: readonly ToolDefinition[],
  names: ToolNameMap,
  options: RenderOptions,
): ChatCompletionCreateParamsNonStreaming {
  const messages: ChatCompletionMessageParam[] = [];
  if (conversation.system !== "") messages.push({ role: "system", content: conversation.system });
  for (const message of messagesOf(conversation)) {
    if (message.role === "user") messages.push({ role: "user", content: message.text });
    else if (message.role === "tool")
      messages.push({ role: "tool", tool_call_id: message.call_id, content: message.text });
    else {
      messages.push({
        role: "assistant",
        tool_calls: message.calls.map((call) => ({
          id: call.call_id,
          type: "function" as const,
          function: { name: names.toProvider(call.name), arguments: call.arguments_json },
        })),
      });
    }
  }
  if (options.purpose === "summary") messages.push({ role: "user", content: SUMMARY_INSTRUCTION });
  return {
    model: settings.model,
    max_tokens: options.maxOutputTokens,
    ...(settings.temperature === null ? {} : { temperature: settings.temperature }),
    ...(tools.length === 0
      ? {}
      : {
          tools: tools.map((tool) => ({
            type: "function" as const,
            function: {
              name: names.toProvider(tool.name),
              description: tool.description,
              parameters: tool.input_schema as Record<string, unknown>,
            },
          })),
          ...(options.purpose === "summary" ? { tool_choice: "none" as const } : {}),
        }),
    messages,
  };
}

/** The decision in `completion`: its tool calls (names mapped back, arguments read losslessly), or its text. */
export function readOpenAiAnswer(completion: ChatCompletion, names: ToolNameMap): ProviderAnswer {
  const usage =
    completion.usage === undefined || completion.usage === null
      ? null
      : { input_tokens: completion.usage.prompt_tokens, output_tokens: completion.usage.completion_tokens };
  const message = completion.choices?.[0]?.message;
  if (message === undefined)
    throw new ModelRequestError({ kind: "model_error", message: "the model answered no choice" });
  const calls: ModelToolCall[] = [];
  for (const call of message.tool_calls ?? []) {
    if (call.type !== "function") continue;
    const name = names.fromProvider(call.function.name) ?? call.function.name;
    const text = call.function.arguments.trim() === "" ? "{}" : call.function.arguments;
    try {
      calls.push({ name, arguments: parseJson(text) });
    } catch (error) {
      calls.push({
        name,
        arguments: text,
        argumentsError: `the arguments are not valid JSON: ${(error as Error).message}`,
      });
    }
  }
  if (calls.length > 0) return { kind: "tool_calls", calls, usage };
  if (typeof message.content === "string") return { kind: "message", text: message.content, usage };
  throw new ModelRequestError({ kind: "model_error", message: "the model answered neither tool calls nor text" });
}
