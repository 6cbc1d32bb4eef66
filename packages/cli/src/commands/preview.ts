/**
 * `toolhost preview --budget N [--type T] [FILE]`: what the model would see of a tool result under a
 * byte budget — the context_preview object of docs/projection.md, written with the protocol's compact writer so
 * big integers, float spellings and key order come out exactly as the server stores them.
 */

import {
  type ContextPreview,
  compact,
  isResultType,
  type PlainJsonObject,
  parseJson,
  projectResult,
  RESULT_CONTEXT_BYTES,
  RESULT_TYPES,
  type ResultType,
} from "@toolhost/protocol";
import { Option } from "commander";
import { parseBudgetOption } from "../budget-option.js";
import type { CommandContext, CommandDefinition } from "../command-context.js";
import { EXIT_STATUS, type ExitStatus } from "../exit-status.js";
import { indentJson } from "../indent-json.js";
import { InputReader, type InputSource, inputSources } from "../read-input.js";
import { refusalLine } from "../refusal.js";

/** The options of `toolhost preview`, as commander hands them over. */
export interface PreviewOptions {
  /** max_result_context_bytes, already checked. */
  budget: number;
  /** The result type (commander has checked it is one of RESULT_TYPES). */
  type: string;
  /** Indent the output for reading. */
  pretty?: boolean;
}

/** The context preview as a JSON object, keys in the order of docs/projection.md. */
export function contextPreviewJson(preview: ContextPreview): PlainJsonObject {
  return {
    max_result_context_bytes: preview.max_result_context_bytes,
    original_bytes: preview.original_bytes,
    retained_bytes: preview.retained_bytes,
    truncated: preview.truncated,
    result: preview.result,
  };
}

/** The text `preview` prints for a result's JSON text (newline included); throws a ProtocolError for a refused result. */
export function previewText(resultText: string, budget: number, resultType: ResultType, pretty = false): string {
  const json = compact(contextPreviewJson(projectResult(parseJson(resultText), budget, resultType)));
  return `${pretty ? indentJson(json) : json}\n`;
}

/** Previews one input and writes the result or its refusal; answers the exit status. */
export async function runPreview(
  file: string | undefined,
  options: PreviewOptions,
  context: CommandContext,
): Promise<ExitStatus> {
  const source = inputSources(file === undefined ? [] : [file])[0] as InputSource;
  const resultType = options.type;
  if (!isResultType(resultType)) throw new Error(`unreachable: commander checks --type; got ${resultType}`);
  let output: string;
  try {
    const text = await new InputReader(context.io.stdin).text(source);
    output = previewText(text, options.budget, resultType, options.pretty);
  } catch (error) {
    const line = refusalLine(source.name, error);
    if (line === undefined) throw error;
    await context.stderr.write(line);
    return EXIT_STATUS.refused;
  }
  await context.stdout.write(output);
  return EXIT_STATUS.ok;
}

/** Defines `toolhost preview`. */
export const definePreviewCommand: CommandDefinition = (program, context) =>
  program
    .command("preview")
    .summary("print what the model sees of a tool result under a byte budget")
    .description(
      "Print the context preview of one tool result: the object {max_result_context_bytes, original_bytes, " +
        "retained_bytes, truncated, result}, where result is what the model sees — the whole result when it fits " +
        "the budget, else a head/tail preview with the status fields preserved.",
    )
    .argument("[file]", "the tool result as JSON; standard input when omitted or '-'")
    .option(
      "--budget <bytes>",
      `max_result_context_bytes: an integer from ${RESULT_CONTEXT_BYTES.min} to ${RESULT_CONTEXT_BYTES.max}`,
      parseBudgetOption,
      RESULT_CONTEXT_BYTES.default,
    )
    .addOption(
      new Option("--type <type>", "the result_type, which decides how the result may be cut")
        .choices(Object.keys(RESULT_TYPES))
        .default(RESULT_TYPES.json),
    )
    .option("--pretty", "indent the output for reading (default: compact JSON, one line)")
    .addHelpText(
      "after",
      `
Output:
  The preview as compact JSON on one line (numbers and key order exactly as
  the server stores them), then a newline. A refused input prints one line on
  standard error, as for 'toolhost measure':
  toolhost: FILE: <code> at <pointer>: <message>   (pointer (root): whole document)

Exit status: 0 the preview was printed, 1 the input was refused, 2 usage error
(unknown option, --budget outside ${RESULT_CONTEXT_BYTES.min}-${RESULT_CONTEXT_BYTES.max}, unknown --type).`,
    )
    .action(async (file: string | undefined, options: PreviewOptions) => {
      context.setExitStatus(await runPreview(file, options, context));
    });
