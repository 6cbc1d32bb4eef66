/**
 * The `toolhost` program: commander wiring, and the mapping from what happened to an exit status.
 * `main` never calls process.exit: commander is told to throw instead (exitOverride) and to write
 * through the given streams (configureOutput), and `main` returns the status for bin/toolhost.js.
 */

import { Command, CommanderError } from "commander";
import { type CliIo, processIo } from "./cli-io.js";
import type { CommandContext, CommandDefinition } from "./command-context.js";
import { defineCallsCommand } from "./commands/calls.js";
import { defineCompletionCommand } from "./commands/completion.js";
import { defineDemoCommand } from "./commands/demo.js";
import { defineDryRunCommand } from "./commands/dry-run.js";
import { defineKeysCommand } from "./commands/keys.js";
import { defineMcpExecutorCommand } from "./commands/mcp-executor.js";
import { defineMeasureCommand } from "./commands/measure.js";
import { defineMigrateCommand } from "./commands/migrate.js";
import { definePreviewCommand } from "./commands/preview.js";
import { defineRunsCommand } from "./commands/runs.js";
import { defineServeCommand } from "./commands/serve.js";
import { defineToolsCommand } from "./commands/tools-sync.js";
import { EXIT_STATUS, type ExitStatus } from "./exit-status.js";
import { OutputFailure, OutputSink } from "./output-sink.js";
import { PROGRAM_NAME, refusalLine } from "./refusal.js";
import { cliVersion } from "./version.js";

/** Every subcommand, in the order `toolhost --help` lists them. */
export const COMMANDS: readonly CommandDefinition[] = [
  defineServeCommand,
  defineMigrateCommand,
  defineKeysCommand,
  defineDryRunCommand,
  defineMeasureCommand,
  definePreviewCommand,
  defineMcpExecutorCommand,
  defineDemoCommand,
  defineToolsCommand,
  defineRunsCommand,
  defineCallsCommand,
  defineCompletionCommand,
];

/** The commander program for one invocation (commander keeps parse state, so build one per run). */
export function buildProgram(context: CommandContext): Command {
  const program = new Command(PROGRAM_NAME)
    .description(
      "toolhost: a tool-execution runtime for AI agents. Run the server, manage its database and keys, " +
        "dry-run tool calls, measure and preview tool results, and serve MCP servers as executors.",
    )
    .version(cliVersion(), "-V, --version", "print the version")
    .helpOption("-h, --help", "show help for a command")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => context.io.stdout.write(text),
      writeErr: (text) => context.io.stderr.write(text),
      outputError: (text, write) => write(`${PROGRAM_NAME}: ${text}`),
    })
    .showHelpAfterError("(add --help for usage)")
    .addHelpText("after", "\nExit status: 0 success, 1 an input was refused or the command failed, 2 a usage error.");
  for (const define of COMMANDS) define(program, context);
  return program;
}

/**
 * The exit status for commander's own exits: help asked for (`--help`, `help measure`) and `--version`
 * succeed (commander suggests 0); every error, and help shown because no command was given, is a usage error.
 */
export function commanderExitStatus(error: CommanderError): ExitStatus {
  return error.exitCode === 0 ? EXIT_STATUS.ok : EXIT_STATUS.usage;
}

/** Runs `toolhost` with `argv` (the arguments after the program name) and `env`; resolves to the exit status. */
export async function main(
  argv: string[],
  io: CliIo = processIo(),
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  let status: ExitStatus = EXIT_STATUS.ok;
  const context: CommandContext = {
    io,
    stdout: new OutputSink(io.stdout, "standard output"),
    stderr: new OutputSink(io.stderr, "standard error"),
    env,
    setExitStatus: (next) => {
      status = next;
    },
  };
  try {
    await buildProgram(context).parseAsync(argv, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) return commanderExitStatus(error);
    if (error instanceof OutputFailure) return reportOutputFailure(error, context);
    throw error;
  }
  return status;
}

/**
 * Output that cannot be written ends the command with status 1. A reader that went away (EPIPE, as in
 * `toolhost measure * | head -1`) is normal and stays quiet; any other failure is reported on stderr.
 */
function reportOutputFailure(failure: OutputFailure, context: CommandContext): ExitStatus {
  const code = (failure.cause as NodeJS.ErrnoException).code;
  if (code !== "EPIPE" && failure.streamName !== "standard error" && !context.io.stderr.destroyed) {
    context.io.stderr.write(refusalLine(failure.streamName, failure.cause) ?? `${PROGRAM_NAME}: ${failure.message}\n`);
  }
  return EXIT_STATUS.refused;
}
