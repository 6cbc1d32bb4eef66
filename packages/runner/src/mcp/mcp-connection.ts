/**
 * The bridge's connection to one MCP server through the official SDK client: a child process over
 * stdio, or Streamable HTTP. A lost connection (the child exited, the HTTP session ended) is noticed
 * and the next call connects again — the calls that were in flight when it broke have already failed
 * with the loss, and the bridge decides what their outcome means.
 */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type CallToolResult,
  CallToolResultSchema,
  ProgressNotificationSchema,
  ResultSchema,
  ToolListChangedNotificationSchema,
  ToolSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpSkippedTool, McpToolDescription } from "./tool-mapping.js";

/** What `tools/list` answered: the tools the SDK's schema accepts, and the entries it does not. */
export interface McpToolList {
  readonly tools: readonly McpToolDescription[];
  readonly unusable: readonly McpSkippedTool[];
}

/** The name of an unusable entry, or its position when it has none. */
function nameOf(raw: unknown, index: number): string {
  const name = typeof raw === "object" && raw !== null ? (raw as { name?: unknown }).name : undefined;
  return typeof name === "string" ? name : `(tool at index ${index} of its page, without a name)`;
}

/** The first problem the schema found, with its path. */
function reasonOf(error: { issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> }): string {
  const issue = error.issues[0];
  if (issue === undefined) return "not a valid MCP tool";
  const path = issue.path.map(String).join(".");
  return `not a valid MCP tool${path === "" ? "" : ` at ${path}`}: ${issue.message}`;
}

/** Where the MCP server is. */
export type McpServerSpec =
  /** Start `command` with `args` and speak MCP over its standard input and output. */
  | {
      readonly kind: "stdio";
      readonly command: string;
      readonly args?: readonly string[];
      /** Added to the SDK's default environment (PATH, HOME, …: not the whole parent environment). */
      readonly env?: Readonly<Record<string, string>>;
      readonly cwd?: string;
      /** The child's standard error: `inherit` (default) or `ignore`. */
      readonly stderr?: "inherit" | "ignore";
    }
  /** Speak MCP over Streamable HTTP to `url`. */
  | { readonly kind: "http"; readonly url: string; readonly headers?: Readonly<Record<string, string>> };

/** The bridge's name and version in `initialize`. */
export const MCP_CLIENT_INFO = { name: "toolhost-mcp-bridge", version: "0.1.0" } as const;

/** What a call may ask of the connection besides the request. */
export interface McpCallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs: number;
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** The MCP server could not be reached: no request was sent, so nothing ran. */
export class McpUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "McpUnavailableError";
  }
}

/** A connection that reconnects on demand after a loss. */
export class McpConnection {
  #client: Client | undefined;
  #transport: Transport | undefined;
  #connecting: Promise<Client> | undefined;
  #closed = false;
  /** Progress listeners by progress token (the bridge's own tokens, see `callTool`). */
  readonly #progress = new Map<string, NonNullable<McpCallOptions["onProgress"]>>();
  #tokens = 0;
  /** Child PID of the current stdio connection (tests kill it to simulate a crash). */
  pid: number | null = null;

  constructor(
    private readonly spec: McpServerSpec,
    private readonly onToolsChanged: () => void,
    private readonly onLost: (reason: string) => void,
  ) {}

  /** The connected client (connecting when there is none). */
  async client(): Promise<Client> {
    if (this.#closed) throw new Error("the MCP connection is closed");
    if (this.#client !== undefined) return this.#client;
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #connect(): Promise<Client> {
    const transport = this.#transportFor();
    const client = new Client(MCP_CLIENT_INFO, { capabilities: {} });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.onToolsChanged());
    // Progress is routed here rather than through the SDK's `onprogress`: the SDK drops a progress
    // notification that is still queued when the response arrives (the last step's, typically).
    client.setNotificationHandler(ProgressNotificationSchema, (notification) => {
      const { progressToken, ...progress } = notification.params;
      this.#progress.get(String(progressToken))?.(progress as { progress: number; total?: number; message?: string });
    });
    client.onclose = () => {
      if (this.#client !== client) return;
      this.#client = undefined;
      this.#transport = undefined;
      this.pid = null;
      if (!this.#closed) this.onLost("the MCP connection closed");
    };
    await client.connect(transport);
    this.#client = client;
    this.#transport = transport;
    this.pid = transport instanceof StdioClientTransport ? transport.pid : null;
    return client;
  }

  #transportFor(): Transport {
    const spec = this.spec;
    if (spec.kind === "http") {
      return new StreamableHTTPClientTransport(new URL(spec.url), {
        requestInit: { headers: { ...(spec.headers ?? {}) } },
      });
    }
    return new StdioClientTransport({
      command: spec.command,
      args: [...(spec.args ?? [])],
      env: { ...getDefaultEnvironment(), ...(spec.env ?? {}) },
      ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
      stderr: spec.stderr ?? "inherit",
    });
  }

  /**
   * Every tool the server lists (following `nextCursor`). Each tool is checked on its own against the
   * SDK's tool schema, so one unusable entry (an `inputSchema` that is not an object, a missing name)
   * is reported in `unusable` instead of failing the whole list, as the SDK's `listTools` would.
   */
  async listTools(): Promise<McpToolList> {
    const client = await this.client();
    const tools: McpToolDescription[] = [];
    const unusable: McpSkippedTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.request(
        { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
        ResultSchema,
      );
      const listed: unknown[] = Array.isArray(page.tools) ? page.tools : [];
      for (const [index, raw] of listed.entries()) {
        const checked = ToolSchema.safeParse(raw);
        if (checked.success) tools.push(checked.data as McpToolDescription);
        else unusable.push({ mcpName: nameOf(raw, index), reason: reasonOf(checked.error) });
      }
      cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
    } while (cursor !== undefined);
    return { tools, unusable };
  }

  /**
   * Sends `tools/call` (the raw request: the bridge maps the result itself, the SDK's output-schema
   * check would throw after the tool ran). Aborting `signal` sends `notifications/cancelled`.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    meta: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<CallToolResult> {
    let client: Client;
    try {
      client = await this.client();
    } catch (error) {
      throw new McpUnavailableError(`cannot connect to the MCP server: ${(error as Error).message}`, { cause: error });
    }
    const token = `toolhost-${++this.#tokens}`;
    if (options.onProgress !== undefined) this.#progress.set(token, options.onProgress);
    const progressMeta = options.onProgress === undefined ? {} : { progressToken: token };
    try {
      return await client.request(
        { method: "tools/call", params: { name, arguments: args, _meta: { ...meta, ...progressMeta } } },
        CallToolResultSchema,
        { timeout: options.timeoutMs, ...(options.signal === undefined ? {} : { signal: options.signal }) },
      );
    } finally {
      this.#progress.delete(token);
    }
  }

  /** Closes the connection for good (a stdio child is ended). */
  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    if (this.#transport instanceof StreamableHTTPClientTransport) {
      await this.#transport.terminateSession().catch(() => undefined);
    }
    this.#transport = undefined;
    await client?.close().catch(() => undefined);
  }
}
