/**
 * The standard streams a command runs against. `main` takes them as a parameter so the program can
 * be run in-process (tests, embedding) without touching the real process streams.
 */

import type { Readable, Writable } from "node:stream";

/** Standard input, output and error of one `toolhost` invocation. */
export interface CliIo {
  /** Where input comes from when no FILE (or `-`) is named. */
  readonly stdin: Readable;
  /** Results: one line per measured input, or the preview JSON. */
  readonly stdout: Writable;
  /** Refusals, usage errors and help requested by mistake. */
  readonly stderr: Writable;
}

/** The real process streams. */
export function processIo(): CliIo {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
}
