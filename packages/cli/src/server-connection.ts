/**
 * The `--url` and `--key` of the commands that talk to a running server (`runs …`, `calls …`), the
 * typed client they make, and how an API refusal becomes the command's one-line failure: the
 * method, path, status and error code, exit status 1.
 */

import { createToolhostClient, type ToolhostClient } from "@toolhost/client";
import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";
import { CommandFailure } from "./command-failure.js";
import { DEFAULT_SERVER_URL } from "./commands/dry-run.js";
import { EXIT_STATUS } from "./exit-status.js";

/** The options every server command has. */
export interface ServerConnectionOptions {
  url: string;
  key?: string;
  json?: boolean;
}

/** Adds `--url`, `--key` (scope `scope`) and `--json` to `command`. */
export function addServerOptions(command: Command, context: CommandContext, scope: string): Command {
  return command
    .option(
      "--url <url>",
      "the server (default: $TOOLHOST_URL, else http://127.0.0.1:8080)",
      context.env.TOOLHOST_URL || DEFAULT_SERVER_URL,
    )
    .option("--key <key>", `API key with ${scope} (default: $TOOLHOST_API_KEY)`)
    .option("--json", "print JSON (one object per line) instead of text");
}

/** The client of the server the options name; a usage error without a key. */
export function clientOf(options: ServerConnectionOptions, context: CommandContext): ToolhostClient {
  const apiKey = options.key ?? context.env.TOOLHOST_API_KEY;
  if (apiKey === undefined || apiKey === "") {
    throw new CommandFailure("an API key is required: --key KEY or TOOLHOST_API_KEY", EXIT_STATUS.usage);
  }
  return createToolhostClient({ baseUrl: options.url, apiKey });
}

/** An openapi-fetch answer. */
interface Answered<T> {
  readonly data?: T;
  readonly error?: unknown;
  readonly response: Response;
}

/** The data of a 2xx answer; anything else fails the command with the API's error code and message. */
export async function answerOf<T>(what: string, url: string, request: Promise<Answered<T>>): Promise<T> {
  let answer: Answered<T>;
  try {
    answer = await request;
  } catch (error) {
    throw new CommandFailure(`cannot reach ${url}: ${(error as Error).message}`);
  }
  if (answer.response.ok && answer.data !== undefined) return answer.data;
  const body = answer.error as { error?: { code?: string; message?: string } } | undefined;
  const code = body?.error?.code ?? "error";
  throw new CommandFailure(`${what}: ${answer.response.status} ${code}: ${body?.error?.message ?? "no error body"}`);
}
