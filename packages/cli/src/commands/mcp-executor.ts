/**
 * `toolhost mcp-executor`: serves any MCP server's tools as a toolhost executor, without code. It
 * starts the MCP server (`--command`, stdio) or connects to it (`--url`, Streamable HTTP), lists and
 * maps its tools, optionally publishes them as a toolset version (`--publish`; `--dry-run` only
 * prints it), then runs a ToolRunner on the binding until SIGTERM or SIGINT. See docs/mcp.md.
 */

import type { ToolDefinition } from "@toolhost/protocol";
import type { RunnerLogLevel } from "@toolhost/runner";
import type { McpBridge } from "@toolhost/runner/mcp";
import { Option } from "commander";
import type { CommandContext, CommandDefinition } from "../command-context.js";
import { CommandFailure, runReported } from "../command-failure.js";
import { EXIT_STATUS, type ExitStatus } from "../exit-status.js";
import {
  collectNames,
  collectValues,
  executorIdOf,
  journalPathOf,
  type McpExecutorOptions,
  mcpServerOf,
  resolverOf,
  toolSelectionOf,
} from "../mcp/mcp-executor-options.js";
import { DEFAULT_SERVER_URL } from "./dry-run.js";

/** The log levels of `--log-level` (the runner's; listed here so help does not load the runner). */
export const MCP_EXECUTOR_LOG_LEVELS: readonly RunnerLogLevel[] = ["error", "warn", "info", "debug", "silent"];

/** Publishes `tools`: a new version of `toolsetId`, or a new toolset named `name`; answers the server's answer. */
export async function publishToolset(
  baseUrl: string,
  key: string,
  tools: readonly ToolDefinition[],
  target: { readonly toolsetId?: string | undefined; readonly name: string },
): Promise<{ toolset_id: string; version: number }> {
  // Loaded here, like the runner, so the commands that do not publish do not load it.
  const { createToolhostClient } = await import("@toolhost/client");
  const toolhost = createToolhostClient({ baseUrl, apiKey: key });
  const body = { tools: [...tools] };
  let answer: Awaited<ReturnType<typeof toolhost.POST>>;
  try {
    answer =
      target.toolsetId === undefined
        ? await toolhost.POST("/v1/toolsets", { body: { name: target.name, ...body } })
        : await toolhost.POST("/v1/toolsets/{toolset_id}/versions", {
            params: { path: { toolset_id: target.toolsetId } },
            body,
          });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    throw new CommandFailure(`cannot reach ${baseUrl}: ${cause}`);
  }
  const { data, error, response } = answer;
  if (response.status !== 201 || data === undefined) {
    const text = typeof error === "string" ? error : JSON.stringify(error);
    throw new CommandFailure(`publishing the toolset: the server answered ${response.status}: ${text.slice(0, 500)}`);
  }
  return data;
}

/** Resolves on the first SIGTERM or SIGINT (the handlers are removed then). */
function nextSignal(): { readonly signal: Promise<NodeJS.Signals>; cancel(): void } {
  let handler: (signal: NodeJS.Signals) => void = () => undefined;
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    handler = (name) => resolve(name);
  });
  const remove = () => {
    process.off("SIGTERM", handler);
    process.off("SIGINT", handler);
  };
  process.once("SIGTERM", handler);
  process.once("SIGINT", handler);
  return { signal: signal.finally(remove), cancel: remove };
}

/** Runs the command: map, maybe publish, then serve until a signal; 1 when the runner fails. */
export async function runMcpExecutor(options: McpExecutorOptions, context: CommandContext): Promise<ExitStatus> {
  const server = mcpServerOf(options, context.env);
  const tools = toolSelectionOf(options);
  const resolver = resolverOf(options);
  const level = options.logLevel as RunnerLogLevel;
  const key = options.key ?? context.env.TOOLHOST_API_KEY;
  if (options.dryRun !== true && (key === undefined || key === "")) {
    throw new CommandFailure("an API key is required: --key KEY or TOOLHOST_API_KEY", EXIT_STATUS.usage);
  }
  const { jsonLinesLogger } = await import("@toolhost/runner");
  const { McpBridge } = await import("@toolhost/runner/mcp");
  const logger = jsonLinesLogger(level, (line) => context.io.stderr.write(line), { binding: options.binding });
  const bridge: McpBridge = new McpBridge({
    server,
    bindingId: options.binding,
    tools,
    resolver,
    runner: {
      baseUrl: options.toolhostUrl,
      apiKey: key ?? "",
      executorId: executorIdOf(options),
      journalPath: journalPathOf(options),
      logger,
    },
  });
  const stopping = nextSignal();
  try {
    let mapping: Awaited<ReturnType<McpBridge["open"]>>;
    try {
      mapping = await bridge.open();
    } catch (error) {
      throw new CommandFailure(`cannot list the MCP server's tools: ${(error as Error).message}`);
    }
    for (const skipped of mapping.skipped) {
      await context.stderr.write(`toolhost: skipped MCP tool ${skipped.mcpName}: ${skipped.reason}\n`);
    }
    const definitions = bridge.toolDefinitions();
    const name = options.toolsetName ?? `mcp ${options.binding}`;
    if (options.dryRun === true) {
      const body = options.toolset === undefined ? { name, tools: definitions } : { tools: definitions };
      await context.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
      return EXIT_STATUS.ok;
    }
    if (options.publish === true) {
      const publishKey = options.publishKey ?? context.env.TOOLHOST_ADMIN_KEY ?? (key as string);
      const published = await publishToolset(options.toolhostUrl, publishKey, definitions, {
        toolsetId: options.toolset,
        name,
      });
      await context.stdout.write(
        `${JSON.stringify({ toolset_id: published.toolset_id, version: published.version, tools: definitions.length })}\n`,
      );
    }
    // A signal while the runner still connects (toolhost unreachable, say) stops it there.
    let signalled = false;
    void stopping.signal.then(() => {
      signalled = true;
    });
    try {
      const starting = bridge.start().then(() => true);
      starting.catch(() => undefined); // after a signal its rejection (stopped while starting) is expected
      const started = await Promise.race([starting, stopping.signal.then(() => false)]);
      if (!started) return EXIT_STATUS.ok;
    } catch (error) {
      if (signalled) return EXIT_STATUS.ok;
      throw new CommandFailure(`the executor did not start: ${(error as Error).message}`);
    }
    const runner = bridge.runner;
    logger.info("mcp executor serving", {
      executor_id: executorIdOf(options),
      tools: definitions.map((tool) => tool.name),
    });
    const failed = runner?.done().then(
      () => EXIT_STATUS.ok,
      (error: unknown) => {
        logger.error("the executor failed", { error: String(error) });
        return EXIT_STATUS.refused;
      },
    );
    const status = await Promise.race([stopping.signal.then(() => EXIT_STATUS.ok), failed ?? EXIT_STATUS.ok]);
    return status;
  } finally {
    stopping.cancel();
    await bridge.stop().catch(() => undefined);
  }
}

/** Defines `toolhost mcp-executor`. */
export const defineMcpExecutorCommand: CommandDefinition = (program, context) =>
  program
    .command("mcp-executor")
    .summary("serve an MCP server's tools as a toolhost executor")
    .description(
      "Start an MCP server (--command, stdio) or connect to one (--url, Streamable HTTP), map its tools " +
        "(input schema, description, effect from readOnlyHint, a context budget) and serve them on a binding " +
        "through ToolRunner: operation keys journaled before accepting, results journaled and redelivered, " +
        "unknown write outcomes reconciled. --publish first publishes the mapped tools as a toolset version.",
    )
    .option("--command <command line>", "start this MCP server and speak MCP over its stdio (no shell)")
    .option("--url <url>", "an MCP server speaking Streamable HTTP")
    .option("--header <name: value>", "an HTTP header for --url (repeat)", collectValues, [] as string[])
    .option(
      "--env <NAME[=VALUE]>",
      "an environment variable for the --command server (repeat; NAME alone passes this process's value on)",
      collectValues,
      [] as string[],
    )
    .option(
      "--toolhost-url <url>",
      "the toolhost server (default: $TOOLHOST_URL, else http://127.0.0.1:8080)",
      context.env.TOOLHOST_URL || DEFAULT_SERVER_URL,
    )
    .option("--key <key>", "API key with executors:connect and tools:execute (default: $TOOLHOST_API_KEY)")
    .requiredOption("--binding <id>", "the executor binding the tools run on")
    .option("--executor-id <id>", "stable executor ID (default: mcp-<binding>)")
    .option("--journal <path>", "the journal file (default: <executor ID>.journal.db)")
    .option("--allow <names>", "serve only these MCP tools (comma list, repeatable)", collectNames, [] as string[])
    .option("--deny <names>", "never serve these MCP tools (comma list, repeatable)", collectNames, [] as string[])
    .option("--prefix <prefix>", "put before every MCP tool name (e.g. fs.)")
    .option("--read <names>", "treat these MCP tools as read, whatever readOnlyHint says", collectNames, [] as string[])
    .option(
      "--write <names>",
      "treat these MCP tools as write, whatever readOnlyHint says",
      collectNames,
      [] as string[],
    )
    .option("--budget <bytes>", "max_result_context_bytes of every tool (default 16384)")
    .option(
      "--tool-budget <name=bytes>",
      "max_result_context_bytes of one MCP tool (repeat)",
      collectValues,
      [] as string[],
    )
    .option("--timeout-ms <ms>", "timeout_ms of the published tools (default: the server's)")
    .option("--resolver-command <command line>", "settles unknown write outcomes: gets the question as JSON on stdin")
    .option("--resolver-url <url>", "settles unknown write outcomes: the question is POSTed as JSON")
    .option("--publish", "publish the mapped tools as a toolset version before serving")
    .option("--toolset <id>", "with --publish: add a version to this toolset (default: create a new toolset)")
    .option("--toolset-name <name>", "with --publish: the new toolset's name (default: mcp <binding>)")
    .option(
      "--publish-key <key>",
      "with --publish: a key with configuration:write (default: $TOOLHOST_ADMIN_KEY, else --key)",
    )
    .option("--dry-run", "print the mapped toolset as JSON and exit (nothing is published or served)")
    .addOption(
      new Option("--log-level <level>", "the executor's JSON-lines log on standard error")
        .choices(MCP_EXECUTOR_LOG_LEVELS)
        .default("info"),
    )
    .addHelpText(
      "after",
      `
Unknown outcomes: a write tool whose MCP answer never arrived (the MCP server
or this process died, the connection broke, the call timed out) goes to
reconciliation_required; by default it is then settled failed with code
mcp_outcome_unknown, never run again. See docs/mcp.md.

Exit status: 0 stopped by SIGTERM/SIGINT (or --dry-run), 1 the MCP server or
toolhost refused or failed, 2 usage error.`,
    )
    .action(async (options: McpExecutorOptions) => {
      context.setExitStatus(await runReported(context, () => runMcpExecutor(options, context)));
    });
