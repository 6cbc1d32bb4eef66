/**
 * `toolhost measure [FILE…]`: the byte measure of each JSON input (docs/projection.md), like `wc -c` — one line
 * per accepted input, the count alone for a single input, `COUNT NAME` when several were named.
 * Files are read a few at a time (never all open at once) and lines are written in argument order
 * as soon as each is known, so thousands of files stream through in bounded memory.
 */

import { measureText } from "@toolhost/protocol";
import type { CommandContext, CommandDefinition } from "../command-context.js";
import { EXIT_STATUS, type ExitStatus } from "../exit-status.js";
import { mapInOrder } from "../map-in-order.js";
import { InputReader, type InputSource, inputSources } from "../read-input.js";
import { refusalLine } from "../refusal.js";

/** How many files are read ahead of the one being reported; bounds open files and memory. */
export const MEASURE_READ_AHEAD = 8;

/** What became of one input: its measure, or why it was refused. */
export type MeasureOutcome =
  | { readonly source: InputSource; readonly bytes: number }
  | { readonly source: InputSource; readonly error: unknown };

/** The stdout line for an accepted input: `COUNT` alone, or `COUNT NAME` when several inputs were named. */
export function measureLine(bytes: number, name: string, withName: boolean): string {
  return withName ? `${bytes} ${name}\n` : `${bytes}\n`;
}

/** Reads and measures one input; never rejects, so a bad file does not stop the others. */
export async function measureInput(source: InputSource, reader: InputReader): Promise<MeasureOutcome> {
  try {
    return { source, bytes: measureText(await reader.text(source)) };
  } catch (error) {
    return { source, error };
  }
}

/** Measures every input in order, writing lines and refusals as it goes; answers the exit status. */
export async function runMeasure(files: readonly string[], context: CommandContext): Promise<ExitStatus> {
  const sources = inputSources(files);
  const withNames = sources.length > 1;
  const reader = new InputReader(context.io.stdin);
  let status: ExitStatus = EXIT_STATUS.ok;
  for await (const outcome of mapInOrder(sources, MEASURE_READ_AHEAD, (source) => measureInput(source, reader))) {
    if ("bytes" in outcome) {
      await context.stdout.write(measureLine(outcome.bytes, outcome.source.name, withNames));
      continue;
    }
    const line = refusalLine(outcome.source.name, outcome.error);
    if (line === undefined) throw outcome.error;
    await context.stderr.write(line);
    status = EXIT_STATUS.refused;
  }
  return status;
}

/** Defines `toolhost measure`. */
export const defineMeasureCommand: CommandDefinition = (program, context) =>
  program
    .command("measure")
    .summary("print the byte measure of JSON inputs, like wc -c")
    .description(
      "Print the byte measure of each JSON input: the UTF-8 bytes of its compact JSON, exactly as the Python " +
        "reference counts them — the number a tool's max_result_context_bytes budget is checked against.",
    )
    .argument("[file...]", "JSON files to measure; standard input when none is given, and wherever '-' appears")
    .addHelpText(
      "after",
      `
Output:
  One line per accepted input, in argument order: the byte count alone when
  one input was given, "COUNT NAME" when several were. Standard input is
  named '-'. There is no total line.

Refusals (standard error, one line each; the other inputs are still measured):
  toolhost: FILE: <code> at <pointer>: <message>
      the input is not JSON the reference accepts (invalid_json,
      lone_surrogate, number_out_of_range, integer_too_long, nesting_too_deep);
      <pointer> is a JSON pointer, shown as (root) for the whole document
  toolhost: FILE: <errno>: <message>
      the file could not be read (ENOENT, EISDIR, EACCES, ...)

Input is read as strict UTF-8, as the API reads a body: a leading byte-order
mark or any other bytes are refused as invalid_json at (root).

Exit status: 0 every input was measured, 1 some input was refused,
2 usage error.`,
    )
    .action(async (files: string[]) => {
      context.setExitStatus(await runMeasure(files, context));
    });
