/**
 * `toolhost tools sync`: publishes the code-first tools a module exports (declared once with the
 * runner's `defineTool`) as a toolset version — a new toolset (`--name`) or the next version of
 * `--toolset`, unless its latest version already holds them. The tools are read, never run.
 */

import type { CommandContext, CommandDefinition } from "../command-context.js";
import { CommandFailure, runReported } from "../command-failure.js";
import { EXIT_STATUS, type ExitStatus } from "../exit-status.js";
import { DEFAULT_SERVER_URL } from "./dry-run.js";

/** The options of `toolhost tools sync`, as commander hands them over. */
export interface ToolsSyncOptions {
  url: string;
  key?: string;
  binding: string;
  toolset?: string;
  name?: string;
  export: string;
}

/** Publishes and prints `{toolset_id, version, published}`. */
export async function runToolsSync(
  modulePath: string,
  options: ToolsSyncOptions,
  context: CommandContext,
): Promise<ExitStatus> {
  const key = options.key ?? context.env.TOOLHOST_API_KEY;
  if (key === undefined || key === "") {
    throw new CommandFailure("an API key is required: --key KEY or TOOLHOST_API_KEY", EXIT_STATUS.usage);
  }
  if ((options.toolset === undefined) === (options.name === undefined)) {
    throw new CommandFailure("give exactly one of --toolset ID or --name NAME", EXIT_STATUS.usage);
  }
  // The runner loads only for this command (every other command, `measure` under a small descriptor
  // limit among them, starts without it); the runner's own `toolhost-tools sync` runs the same code.
  const { RunnerError, syncToolsModule } = await import("@toolhost/runner");
  try {
    const published = await syncToolsModule({
      modulePath,
      exportName: options.export,
      url: options.url,
      apiKey: key,
      bindingId: options.binding,
      target: options.toolset === undefined ? { name: options.name as string } : { toolsetId: options.toolset },
    });
    await context.stdout.write(
      `${JSON.stringify({ toolset_id: published.toolsetId, version: published.version, published: published.published })}\n`,
    );
    return EXIT_STATUS.ok;
  } catch (error) {
    if (error instanceof RunnerError) throw new CommandFailure(error.message);
    if (error instanceof TypeError) throw new CommandFailure(`cannot reach ${options.url}: ${error.message}`);
    throw error;
  }
}

/** Defines `toolhost tools` and its `sync` subcommand. */
export const defineToolsCommand: CommandDefinition = (program, context) => {
  const tools = program.command("tools").summary("publish code-first tools").description("Code-first tools.");
  tools
    .command("sync")
    .summary("publish the tools a module declares as a toolset version")
    .description(
      "Import MODULE (ESM) and publish the tools it exports (defineTool from @toolhost/runner) as a toolset " +
        "version: a new toolset with --name, or the next version of --toolset unless its latest version already " +
        'holds them. Prints {"toolset_id","version","published"}.',
    )
    .argument("<module>", "the module exporting the tools")
    .option(
      "--url <url>",
      "the server (default: $TOOLHOST_URL, else http://127.0.0.1:8080)",
      context.env.TOOLHOST_URL || DEFAULT_SERVER_URL,
    )
    .option("--key <key>", "API key with configuration:write (default: $TOOLHOST_API_KEY)")
    .requiredOption("--binding <id>", "the executor binding the tools run on")
    .option("--toolset <id>", "publish the next version of this toolset")
    .option("--name <name>", "create a toolset with this name")
    .option("--export <name>", "the module's export holding the tools", "tools")
    .action(async (modulePath: string, options: ToolsSyncOptions) => {
      context.setExitStatus(await runReported(context, () => runToolsSync(modulePath, options, context)));
    });
  return tools;
};
