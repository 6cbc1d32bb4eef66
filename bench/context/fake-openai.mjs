/**
 * The bench's model: a local Chat Completions server (127.0.0.1, never the network) that counts each
 * request's input tokens with a real tokenizer (gpt-tokenizer, o200k_base) the way the test fakes do,
 * answers `tool_calls` until the run has made `turns` of them, summarises when asked (`tool_choice:
 * "none"`), and refuses a request over its context window as OpenAI does (counted as an overflow).
 */

import { createServer } from "node:http";
import { encode } from "gpt-tokenizer";

const tokens = (text) => (text === "" ? 0 : encode(text).length);

/** Input tokens of a Chat Completions body (content, tool calls, tool definitions, per-message framing). */
export function countInputTokens(body) {
  let total = 3;
  if (body.tools !== undefined) total += tokens(JSON.stringify(body.tools));
  for (const message of body.messages ?? []) {
    total += 3 + tokens(message.role);
    if (typeof message.content === "string") total += tokens(message.content);
    for (const call of message.tool_calls ?? [])
      total += 3 + tokens(call.function.name) + tokens(call.function.arguments);
  }
  return total;
}

/** Starts the fake; `requests` records `{ text, body, inputTokens, refused }` per request. */
export async function startFakeOpenAi({ contextWindow, turns }) {
  const requests = [];
  let calls = 0;
  const server = createServer((incoming, response) => {
    const chunks = [];
    incoming.on("data", (chunk) => chunks.push(chunk));
    incoming.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const body = JSON.parse(text);
      const inputTokens = countInputTokens(body);
      const refused = inputTokens + (body.max_tokens ?? 0) > contextWindow;
      requests.push({ text, body, inputTokens, refused });
      const send = (status, value) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(value));
      };
      if (refused) {
        send(400, {
          error: {
            message: `This model's maximum context length is ${contextWindow} tokens. However, your messages resulted in ${inputTokens} tokens.`,
            type: "invalid_request_error",
            code: "context_length_exceeded",
          },
        });
        return;
      }
      let message;
      if (body.tool_choice === "none") {
        message = {
          role: "assistant",
          content: `Summary: ${body.messages.length} messages; the user wants every page read and the overdue tasks listed.`,
        };
      } else if (calls >= turns) {
        message = { role: "assistant", content: "All pages read." };
      } else {
        calls++;
        message = {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: `call_${calls}`,
              type: "function",
              function: { name: "tasks_read", arguments: JSON.stringify({ cursor: `page-${calls}` }) },
            },
          ],
        };
      }
      send(200, {
        id: `chatcmpl-${requests.length}`,
        object: "chat.completion",
        created: 1_700_000_000,
        model: body.model,
        choices: [{ index: 0, message, logprobs: null, finish_reason: message.tool_calls ? "tool_calls" : "stop" }],
        usage: { prompt_tokens: inputTokens, completion_tokens: 20, total_tokens: inputTokens + 20 },
      });
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}
