/**
 * A command that cannot do its job (database unreachable, server error, unknown key) ends with one line
 * on standard error, `toolhost: <message>`, and an exit status — never a stack trace.
 */

import type { CommandContext } from "./command-context.js";
import { EXIT_STATUS, type ExitStatus } from "./exit-status.js";
import { PROGRAM_NAME } from "./refusal.js";

/** Why a command stopped, with the exit status it ends with (default 1). */
export class CommandFailure extends Error {
  constructor(
    message: string,
    readonly status: ExitStatus = EXIT_STATUS.refused,
  ) {
    super(message);
    this.name = "CommandFailure";
  }
}

/** The one line reporting `error` (newline included): its message, or the message of what it wraps. */
export function failureLine(error: unknown): string {
  const message = error instanceof Error ? error.message || error.name : String(error);
  // Node's fetch says only "fetch failed"; the reason is in its cause.
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${PROGRAM_NAME}: ${message.replaceAll("\n", " ")}${cause}\n`;
}

/** Runs a command's work; an Error it throws is reported as one line and ends it with status 1 (or the failure's). */
export async function runReported(context: CommandContext, work: () => Promise<ExitStatus>): Promise<ExitStatus> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    await context.stderr.write(failureLine(error));
    return error instanceof CommandFailure ? error.status : EXIT_STATUS.refused;
  }
}
