/**
 * The MCP bridge: one MCP server served as one toolhost executor. It lists the server's tools, maps
 * them (tool-mapping.ts) and registers a handler per tool on a ToolRunner, so every call goes through
 * the runner's rules — operation key journaled before `accepted`, the MCP request sent only after
 * `confirmed: true`, receipts journaled and redelivered, unknown outcomes reconciled, never run twice.
 *
 * What a handler does with the MCP answer:
 * - a result → `completed` (result-mapping.ts); `isError: true` → `failed` with its text;
 * - a JSON-RPC refusal of the request (unknown tool, invalid params), or an MCP server that cannot be
 *   reached (no request sent) → `failed`: nothing ran;
 * - the connection lost, a timeout, any other error → a read tool is asked once more on a fresh
 *   connection (it has no effect), a write tool goes to `reconciliation_required`;
 * - a business cancel → `notifications/cancelled` to the server; a read reports `cancelled`, a write
 *   `reconciliation_required` (MCP cancellation is best effort: the write may have happened).
 */

import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { ToolDefinition } from "@toolhost/protocol";
import { BusinessError, CancelledError } from "../errors.js";
import { fromPino, isPinoLike, jsonLinesLogger, type RunnerLogger, silentLogger } from "../logger.js";
import type { ToolRunnerOptions } from "../options.js";
import type { ReconcileResolver } from "../registry.js";
import type { ToolCall } from "../tool-call.js";
import type { ToolContext } from "../tool-context.js";
import { ToolRunner } from "../tool-runner.js";
import { McpConnection, type McpServerSpec, McpUnavailableError } from "./mcp-connection.js";
import { type McpResolverSpec, mcpResolver } from "./reconcile-resolvers.js";
import { type McpCallResult, mapCallResult } from "./result-mapping.js";
import { type McpMappedTool, type McpToolMapping, type McpToolSelection, mapMcpTools } from "./tool-mapping.js";

/** The `_meta` key that carries the call's operation key to the MCP server. */
export const OPERATION_KEY_META = "toolhost/operation_key";

/** The error code of a `failed` receipt for a `tools/call` the MCP server refused as a request. */
export const MCP_REQUEST_REFUSED_CODE = "mcp_request_refused";

/** The error code of a `failed` receipt for a call whose MCP server could not be reached (nothing was sent). */
export const MCP_UNAVAILABLE_CODE = "mcp_server_unavailable";

/** JSON-RPC errors that say the request was refused before the tool ran. */
const REFUSED_BEFORE_RUNNING: ReadonlySet<number> = new Set([
  ErrorCode.InvalidParams,
  ErrorCode.MethodNotFound,
  ErrorCode.InvalidRequest,
  ErrorCode.ParseError,
]);

/** A tool list change the MCP server announced (never applied to the running bridge). */
export interface McpToolsChange {
  /** MCP names listed now and not at the previous listing. */
  readonly added: readonly string[];
  /** MCP names listed before and no longer. */
  readonly removed: readonly string[];
}

/** How to bridge one MCP server. */
export interface McpBridgeOptions {
  /** The MCP server: a command over stdio or a Streamable HTTP URL. */
  readonly server: McpServerSpec;
  /** The binding the mapped tools run on (the runner serves only it). */
  readonly bindingId: string;
  /** The ToolRunner's options (its `bindingIds` is `[bindingId]`). */
  readonly runner: Omit<ToolRunnerOptions, "bindingIds">;
  /** Which tools and how (allow/deny, prefix, effect and budget overrides). */
  readonly tools?: McpToolSelection;
  /** How unknown write outcomes are settled: `fail` (default), a command, a URL or a function. */
  readonly resolver?: McpResolverSpec;
  /** Called when the server announces a tool list change (after the default log line). */
  readonly onToolsChanged?: (change: McpToolsChange) => void;
}

/** An MCP server served through a ToolRunner. */
export class McpBridge {
  /** The runner serving the mapped tools (created by `attach`). */
  runner: ToolRunner | undefined;
  readonly #options: McpBridgeOptions;
  readonly #connection: McpConnection;
  readonly #logger: RunnerLogger;
  #mapping: McpToolMapping | undefined;
  /** The MCP names of the last listing (a change is reported against it). */
  #listed = new Set<string>();

  constructor(options: McpBridgeOptions) {
    this.#options = options;
    const logger = options.runner.logger ?? "info";
    this.#logger =
      typeof logger === "string"
        ? logger === "silent"
          ? silentLogger
          : jsonLinesLogger(logger)
        : isPinoLike(logger)
          ? fromPino(logger)
          : logger;
    this.#connection = new McpConnection(
      options.server,
      () => void this.#toolsChanged(),
      (reason) => this.#logger.warn("mcp connection lost; the next call reconnects", { reason }),
    );
  }

  /** The mapping of the server's tools (after `open`). */
  get mapping(): McpToolMapping {
    if (this.#mapping === undefined) throw new Error("call open() first");
    return this.#mapping;
  }

  /** The PID of the stdio MCP server process, when connected over stdio. */
  get mcpServerPid(): number | null {
    return this.#connection.pid;
  }

  /** The mapped tool definitions, as a toolset version lists them. */
  toolDefinitions(): ToolDefinition[] {
    return this.mapping.tools.map((tool) => tool.definition);
  }

  /** Connects to the MCP server, lists its tools and maps them (no toolhost server is contacted). */
  async open(): Promise<McpToolMapping> {
    const listed = await this.#connection.listTools();
    this.#listed = new Set([...listed.tools.map((tool) => tool.name), ...listed.unusable.map((tool) => tool.mcpName)]);
    const mapped = mapMcpTools(listed.tools, this.#options.bindingId, this.#options.tools);
    const { allow, deny } = this.#options.tools ?? {};
    const unusable = listed.unusable.filter(
      (tool) => (allow === undefined || allow.includes(tool.mcpName)) && !(deny ?? []).includes(tool.mcpName),
    );
    const mapping: McpToolMapping = { tools: mapped.tools, skipped: [...unusable, ...mapped.skipped] };
    this.#mapping = mapping;
    for (const skipped of mapping.skipped) {
      this.#logger.warn("mcp tool skipped", { mcp_tool: skipped.mcpName, reason: skipped.reason });
    }
    return mapping;
  }

  /** Creates the ToolRunner and registers the mapped tools on it (once; `open` first). */
  attach(): ToolRunner {
    if (this.runner !== undefined) return this.runner;
    const runner = new ToolRunner({ ...this.#options.runner, bindingIds: [this.#options.bindingId] });
    for (const tool of this.mapping.tools) {
      runner.register(tool.definition.name, (call, ctx) => this.#handle(tool, call, ctx), {
        effect: tool.definition.effect,
        resultType: tool.resultType,
      });
      if (tool.definition.effect === "write") {
        runner.onReconcile(tool.definition.name, this.#resolverFor(tool));
      }
    }
    this.runner = runner;
    return runner;
  }

  /** Opens and attaches (when not done yet) and starts the runner: journal recovery first, then calls. */
  async start(): Promise<void> {
    if (this.#mapping === undefined) await this.open();
    await this.attach().start();
  }

  /** Stops the runner (in-flight calls finish) and closes the MCP connection. */
  async stop(): Promise<void> {
    await this.runner?.stop();
    await this.#connection.close();
  }

  async #handle(tool: McpMappedTool, call: ToolCall, ctx: ToolContext): Promise<unknown> {
    const read = tool.definition.effect === "read";
    const args = (call.arguments ?? {}) as Record<string, unknown>;
    const timeoutMs = Math.max(1_000, Date.parse(call.deadline) - Date.now());
    const send = () =>
      this.#connection.callTool(
        tool.mcpName,
        args,
        { [OPERATION_KEY_META]: ctx.operationKey },
        {
          signal: ctx.signal,
          timeoutMs,
          onProgress: (progress) => {
            // Journaled at once, delivered in order before the final receipt; never blocks the call.
            ctx.progress({ ...progress }).catch(() => undefined);
          },
        },
      );
    let result: McpCallResult;
    try {
      result = await send();
    } catch (error) {
      if (ctx.signal.aborted) throw this.#cancelled(read, tool);
      const definite = definiteFailure(error);
      if (definite !== undefined) throw definite;
      // A read has no effect to lose: ask once more on a fresh connection.
      if (!read) throw error;
      ctx.log("mcp read failed; asking again", { error: String(error) });
      try {
        result = await send();
      } catch (again) {
        if (ctx.signal.aborted) throw this.#cancelled(read, tool);
        throw definiteFailure(again) ?? again;
      }
    }
    const outcome = mapCallResult(result, tool.resultType === "json" ? "json" : "multimodal");
    if (outcome.kind === "failed") throw new BusinessError(outcome.code, outcome.message);
    return outcome.result;
  }

  /** A business cancel of a read is confirmed; of a write, its outcome is unknown. */
  #cancelled(read: boolean, tool: McpMappedTool): Error {
    if (read) return new CancelledError("notifications/cancelled sent to the MCP server");
    return new Error(`cancel requested: notifications/cancelled sent, but ${tool.mcpName} may have finished its write`);
  }

  /** The resolver of a write tool: the configured one, its completed results typed like the tool's. */
  #resolverFor(tool: McpMappedTool): ReconcileResolver {
    const resolve = mcpResolver(this.#options.resolver ?? "fail", tool.mcpName);
    return async (call, operationKey) => {
      const outcome = await resolve(call, operationKey);
      if (outcome?.kind !== "completed" || outcome.resultType !== undefined) return outcome;
      const multimodal = isContentResult(outcome.result);
      return { ...outcome, resultType: tool.resultType === "multimodal" && !multimodal ? "json" : tool.resultType };
    };
  }

  async #toolsChanged(): Promise<void> {
    const before = this.#listed;
    let listed: string[];
    try {
      const list = await this.#connection.listTools();
      listed = [...list.tools.map((tool) => tool.name), ...list.unusable.map((tool) => tool.mcpName)];
    } catch (error) {
      this.#logger.warn("mcp tools changed; listing them failed", { error: String(error) });
      return;
    }
    const now = new Set(listed);
    this.#listed = now;
    const change: McpToolsChange = {
      added: listed.filter((name) => !before.has(name)),
      removed: [...before].filter((name) => !now.has(name)),
    };
    this.#logger.warn(
      "mcp server announced a tool list change; not applied: publish a new toolset version and restart the bridge",
      { added: change.added, removed: change.removed },
    );
    this.#options.onToolsChanged?.(change);
  }
}

/** A failure known to have run nothing (the server unreachable, the request refused), or undefined. */
function definiteFailure(error: unknown): BusinessError | undefined {
  if (error instanceof McpUnavailableError) return new BusinessError(MCP_UNAVAILABLE_CODE, error.message);
  if (error instanceof McpError && REFUSED_BEFORE_RUNNING.has(error.code)) {
    return new BusinessError(MCP_REQUEST_REFUSED_CODE, error.message);
  }
  return undefined;
}

/** True when `value` looks like a multimodal result (`{"content":[…]}`). */
function isContentResult(value: unknown): boolean {
  return typeof value === "object" && value !== null && Array.isArray((value as { content?: unknown }).content);
}
