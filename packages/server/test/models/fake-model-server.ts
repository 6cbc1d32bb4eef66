/**
 * A local model server for tests (node:http on 127.0.0.1, never the network) that speaks both real
 * wire formats the official SDKs use: OpenAI Chat Completions (`POST …/chat/completions`, answers
 * with `tool_calls` and `usage`) and Anthropic Messages (`POST …/v1/messages`, `tool_use` blocks and
 * `usage`). Input tokens are counted with a real tokenizer (gpt-tokenizer, o200k_base) over what the
 * request holds — message texts, tool calls, tool definitions, with per-message framing as OpenAI
 * documents it — so the server's estimator calibrates against realistic ASCII and CJK ratios.
 *
 * What it answers is up to the test: a queue of replies (`push`), or a `respond` function of the
 * request; a `hang` reply holds the request open until `releaseHung()` (or the client gives up).
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { encode } from "gpt-tokenizer";
import { afterAll } from "vitest";

/** One request the fake received. */
export interface ReceivedRequest {
  readonly format: "openai" | "anthropic";
  readonly headers: IncomingMessage["headers"];
  /** The body exactly as received. */
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of requests.
  readonly body: any;
  /** Input tokens by the tokenizer. */
  readonly inputTokens: number;
}

/** What the fake answers to one request. */
export type FakeReply =
  | { kind: "tool_calls"; calls: Array<{ name: string; arguments: unknown }>; text?: string }
  | { kind: "message"; text: string }
  | { kind: "error"; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: "hang" };

/** How to start the fake. */
export interface FakeOptions {
  /** The model's real context window: a request over it is refused as too long (as the real APIs do). */
  readonly contextWindow?: number;
  /** Decides the reply when the queue is empty. */
  readonly respond?: (request: ReceivedRequest, index: number) => FakeReply;
}

/** A started fake model server. */
export interface FakeModelServer {
  /** `http://127.0.0.1:PORT` — OpenAI base URL is this + `/v1`; Anthropic's is this. */
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** Queues replies, answered in order before `respond` is asked. */
  push(...replies: FakeReply[]): void;
  /** Answers every held `hang` request with the next reply. */
  releaseHung(): void;
  /** Resolves when `count` requests have arrived. */
  waitForRequests(count: number): Promise<void>;
  close(): Promise<void>;
}

const open = new Set<FakeModelServer>();

afterAll(async () => {
  for (const fake of open) await fake.close();
});

function tokens(text: string): number {
  return text === "" ? 0 : encode(text).length;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block) => {
      if (block.type === "text") return block.text as string;
      if (block.type === "tool_result") return textOf(block.content);
      if (block.type === "tool_use") return `${block.name}${JSON.stringify(block.input)}`;
      return "";
    })
    .join("");
}

/** Input tokens of a request body of `format`, as the provider would count them (approximately). */
// biome-ignore lint/suspicious/noExplicitAny: request bodies are plain JSON.
export function countInputTokens(format: "openai" | "anthropic", body: any): number {
  let total = 3;
  if (body.tools !== undefined) total += tokens(JSON.stringify(body.tools));
  if (typeof body.system === "string") total += 3 + tokens(body.system);
  for (const message of body.messages ?? []) {
    total += 3 + tokens(message.role);
    total += tokens(textOf(message.content));
    for (const call of message.tool_calls ?? [])
      total += 3 + tokens(call.function.name) + tokens(call.function.arguments);
  }
  return format === "openai" ? total : total + 4;
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

let ids = 0;

function answer(
  format: "openai" | "anthropic",
  request: ReceivedRequest,
  reply: FakeReply,
  response: ServerResponse,
): void {
  const usageOut = 7;
  if (reply.kind === "error") {
    send(
      response,
      reply.status,
      reply.body ?? { error: { message: `fake error ${reply.status}`, type: "server_error" } },
      reply.headers,
    );
    return;
  }
  if (reply.kind === "hang") return;
  ids++;
  if (format === "openai") {
    const message =
      reply.kind === "message"
        ? { role: "assistant", content: reply.text, refusal: null }
        : {
            role: "assistant",
            content: reply.text ?? null,
            refusal: null,
            tool_calls: reply.calls.map((call, i) => ({
              id: `call_fake_${ids}_${i}`,
              type: "function",
              function: {
                name: call.name,
                arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
              },
            })),
          };
    send(response, 200, {
      id: `chatcmpl-${ids}`,
      object: "chat.completion",
      created: 1_700_000_000,
      model: request.body.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: reply.kind === "message" ? "stop" : "tool_calls" }],
      usage: {
        prompt_tokens: request.inputTokens,
        completion_tokens: usageOut,
        total_tokens: request.inputTokens + usageOut,
      },
    });
    return;
  }
  const content =
    reply.kind === "message"
      ? [{ type: "text", text: reply.text }]
      : [
          ...(reply.text === undefined ? [] : [{ type: "text", text: reply.text }]),
          ...reply.calls.map((call, i) => ({
            type: "tool_use",
            id: `toolu_${ids}_${i}`,
            name: call.name,
            input: call.arguments,
          })),
        ];
  send(response, 200, {
    id: `msg_${ids}`,
    type: "message",
    role: "assistant",
    model: request.body.model,
    content,
    stop_reason: reply.kind === "message" ? "end_turn" : "tool_use",
    stop_sequence: null,
    usage: {
      input_tokens: request.inputTokens,
      output_tokens: usageOut,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  });
}

function tooLong(format: "openai" | "anthropic", request: ReceivedRequest, window: number): FakeReply {
  if (format === "openai") {
    return {
      kind: "error",
      status: 400,
      body: {
        error: {
          message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${request.inputTokens} tokens. Please reduce the length of the messages.`,
          type: "invalid_request_error",
          param: "messages",
          code: "context_length_exceeded",
        },
      },
    };
  }
  return {
    kind: "error",
    status: 400,
    body: {
      type: "error",
      error: {
        type: "invalid_request_error",
        message: `prompt is too long: ${request.inputTokens} tokens > ${window} maximum`,
      },
    },
  };
}

/** Starts a fake model server. */
export async function startFakeModelServer(options: FakeOptions = {}): Promise<FakeModelServer> {
  const requests: ReceivedRequest[] = [];
  const queue: FakeReply[] = [];
  const hung: Array<{ format: "openai" | "anthropic"; request: ReceivedRequest; response: ServerResponse }> = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const format = incoming.url?.endsWith("/chat/completions")
        ? "openai"
        : incoming.url?.endsWith("/messages")
          ? "anthropic"
          : undefined;
      if (format === undefined || incoming.method !== "POST") {
        send(response, 404, { error: { message: "not found" } });
        return;
      }
      const body = JSON.parse(text);
      const request: ReceivedRequest = {
        format,
        headers: incoming.headers,
        text,
        body,
        inputTokens: countInputTokens(format, body),
      };
      const index = requests.length;
      requests.push(request);
      for (const waiter of waiters.filter((w) => requests.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const maxTokens = Number(body.max_tokens ?? 0);
      let reply: FakeReply;
      if (options.contextWindow !== undefined && request.inputTokens + maxTokens > options.contextWindow) {
        reply = tooLong(format, request, options.contextWindow);
      } else {
        reply = queue.shift() ?? options.respond?.(request, index) ?? { kind: "message", text: "done" };
      }
      if (reply.kind === "hang") hung.push({ format, request, response });
      answer(format, request, reply, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the fake is not on TCP");
  const fake: FakeModelServer = {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    push: (...replies) => queue.push(...replies),
    releaseHung: () => {
      for (const held of hung.splice(0)) {
        if (held.response.destroyed) continue;
        const reply = queue.shift() ??
          options.respond?.(held.request, requests.indexOf(held.request)) ?? { kind: "message", text: "done" };
        answer(held.format, held.request, reply, held.response);
      }
    },
    waitForRequests: (count) =>
      requests.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    close: async () => {
      open.delete(fake);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  open.add(fake);
  return fake;
}
