/**
 * What every subcommand gets from the program, and the shape of a subcommand's definition: adding a
 * command is one file exporting a `CommandDefinition` and one entry in `COMMANDS` (main.ts).
 */

import type { Command } from "commander";
import type { CliIo } from "./cli-io.js";
import type { ExitStatus } from "./exit-status.js";
import type { OutputSink } from "./output-sink.js";

/** The streams of one invocation and where a command leaves its exit status. */
export interface CommandContext {
  /** The raw standard streams (standard input is read through InputReader). */
  readonly io: CliIo;
  /** Standard output, with backpressure. */
  readonly stdout: OutputSink;
  /** Standard error, with backpressure. */
  readonly stderr: OutputSink;
  /** The environment (`TOOLHOST_*` settings), the process's unless `main` was given another. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Records the exit status `main` returns once the command's action has finished. */
  setExitStatus(status: ExitStatus): void;
}

/** Adds one subcommand to `program` (through `program.command()`, so it inherits the program's error handling). */
export type CommandDefinition = (program: Command, context: CommandContext) => Command;
