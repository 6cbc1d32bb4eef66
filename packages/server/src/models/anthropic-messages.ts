/**
 * The `anthropic` provider's wire format (pure): a conversation rendered as a Messages request, and
 * a message read back as the turn's decision. Consecutive user-side messages (tool results, later
 * outcomes, the summary) merge into one user message with its tool results first, as the API wants;
 * `messages` is the body's last member.
 */

import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
} from "@anthropic-ai/sdk/resources/messages/messages";
import type { ProviderModelSettings, ToolDefinition } from "@toolhost/protocol";
import { type Conversation, messagesOf } from "./conversation.js";
import { ModelRequestError, type ProviderAnswer, SUMMARY_INSTRUCTION } from "./model-answer.js";
import type { ModelToolCall } from "./model-turn.js";
import type { RenderOptions } from "./openai-chat.js";
import type { ToolNameMap } from "./tool-names.js";

function inputObject(argumentsJson: string): Record<string, unknown> {
  const value: unknown = JSON.parse(argumentsJson);
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : { arguments: value };
}

function nonEmpty(text: string): string {
  // The API refuses empty text blocks.
  return text === "" ? "(empty)" : text;
}

/** The Messages request body for `conversation`. */
export function anthropicBody(
  settings: ProviderModelSettings,
  conversation: Conversation,
  tools: readonly ToolDefinition[],
  names: ToolNameMap,
  options: RenderOptions,
): MessageCreateParamsNonStreaming {
  const messages: MessageParam[] = [];
  let user: ContentBlockParam[] | undefined;
  const flushUser = (): void => {
    if (user === undefined) return;
    // Tool results first, then text (stable within each kind).
    const ordered = [...user.filter((b) => b.type === "tool_result"), ...user.filter((b) => b.type !== "tool_result")];
    messages.push({ role: "user", content: ordered });
    user = undefined;
  };
  const userBlock = (block: ContentBlockParam): void => {
    user ??= [];
    user.push(block);
  };
  for (const message of messagesOf(conversation)) {
    if (message.role === "user") userBlock({ type: "text", text: nonEmpty(message.text) });
    else if (message.role === "tool") {
      userBlock({ type: "tool_result", tool_use_id: message.call_id, content: nonEmpty(message.text) });
    } else {
      flushUser();
      messages.push({
        role: "assistant",
        content: message.calls.map((call) => ({
          type: "tool_use" as const,
          id: call.call_id,
          name: names.toProvider(call.name),
          input: inputObject(call.arguments_json),
        })),
      });
    }
  }
  if (options.purpose === "summary") userBlock({ type: "text", text: SUMMARY_INSTRUCTION });
  flushUser();
  return {
    model: settings.model,
    max_tokens: options.maxOutputTokens,
    ...(settings.temperature === null ? {} : { temperature: settings.temperature }),
    ...(conversation.system === "" ? {} : { system: conversation.system }),
    ...(tools.length === 0
      ? {}
      : {
          tools: tools.map((tool) => ({
            name: names.toProvider(tool.name),
            description: tool.description,
            input_schema: tool.input_schema as { type: "object"; [key: string]: unknown },
          })),
          ...(options.purpose === "summary" ? { tool_choice: { type: "none" as const } } : {}),
        }),
    messages,
  };
}

/** The decision in `message`: its `tool_use` blocks (names mapped back), or its text. */
export function readAnthropicAnswer(message: Message, names: ToolNameMap): ProviderAnswer {
  const u = message.usage;
  const usage =
    u === undefined || u === null
      ? null
      : {
          input_tokens: u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0),
          output_tokens: u.output_tokens,
        };
  const calls: ModelToolCall[] = [];
  const texts: string[] = [];
  for (const block of message.content ?? []) {
    if (block.type === "tool_use") {
      calls.push({ name: names.fromProvider(block.name) ?? block.name, arguments: block.input as never });
    } else if (block.type === "text") texts.push(block.text);
  }
  if (calls.length > 0) return { kind: "tool_calls", calls, usage };
  if (texts.length > 0) return { kind: "message", text: texts.join(""), usage };
  throw new ModelRequestError({ kind: "model_error", message: "the model answered neither tool_use nor text" });
}
