/**
 * `toolhost dry-run`: asks a running server what the model would see of a tool call
 * (`POST /v1/tools/dry-run`) and prints the answer. Arguments, mock receipts and results are spliced into
 * the request as the exact JSON text given, so big integers, float spellings and key order reach the
 * server as written — the preview is the one a real receipt with that text would get.
 */

import { parseJson, RESULT_TYPES } from "@toolhost/protocol";
import type { DryRunAnswer } from "@toolhost/protocol/wire";
import { Option } from "commander";
import type { CommandContext, CommandDefinition } from "../command-context.js";
import { CommandFailure, runReported } from "../command-failure.js";
import { EXIT_STATUS, type ExitStatus } from "../exit-status.js";
import { indentJson } from "../indent-json.js";
import { InputReader, inputSources } from "../read-input.js";
import { PROGRAM_NAME, refusalLine } from "../refusal.js";

/** The options of `toolhost dry-run`, as commander hands them over. */
export interface DryRunOptions {
  url: string;
  key?: string;
  agentVersion: string;
  tool: string;
  arguments?: string;
  receipt: string[];
  result?: string;
  resultType?: string;
  pretty?: boolean;
}

/** The server asked when neither --url nor TOOLHOST_URL says otherwise. */
export const DEFAULT_SERVER_URL = "http://127.0.0.1:8080";

/** The receipt ID of the completed mock receipt `--result` makes. */
export const RESULT_RECEIPT_ID = "cli-result";

/** Reads a `JSON|@file` option value as JSON text, checked by the lossless reader; `@-` is standard input. */
async function jsonText(value: string, label: string, reader: InputReader): Promise<string> {
  const source = value.startsWith("@")
    ? (inputSources([value.slice(1)])[0] ?? { name: label, path: undefined })
    : undefined;
  const name = source === undefined ? label : `${label} @${source.name}`;
  try {
    const text = source === undefined ? value : await reader.text(source);
    parseJson(text);
    return text.trim();
  } catch (error) {
    const line = refusalLine(name, error);
    if (line === undefined) throw error;
    throw new CommandFailure(line.slice(`${PROGRAM_NAME}: `.length).trimEnd());
  }
}

/** The request body text, with the given JSON texts spliced in verbatim. */
export function dryRunBodyText(
  agentVersion: string,
  toolName: string,
  argumentsText: string | undefined,
  receiptTexts: readonly string[],
): string {
  const args = argumentsText === undefined ? "" : `,"arguments":${argumentsText}`;
  return `{"agent_version":${JSON.stringify(agentVersion)},"tool_name":${JSON.stringify(toolName)}${args},"mock_receipts":[${receiptTexts.join(",")}]}`;
}

/** The lines saying what the answer found invalid (empty when everything is valid). */
export function invalidLines(answer: DryRunAnswer): string[] {
  const lines = answer.arguments.errors.map(
    (e) => `${PROGRAM_NAME}: arguments invalid at ${e.pointer || "(root)"}: ${e.message}\n`,
  );
  answer.receipts.forEach((receipt, index) => {
    const name = receipt.receipt_id ?? `#${index + 1}`;
    for (const e of receipt.errors)
      lines.push(`${PROGRAM_NAME}: receipt ${name} invalid at ${e.pointer || "(root)"}: ${e.message}\n`);
  });
  return lines;
}

/** Sends the dry-run and prints the answer; 1 when the server refused it or found something invalid. */
export async function runDryRun(options: DryRunOptions, context: CommandContext): Promise<ExitStatus> {
  const key = options.key ?? context.env.TOOLHOST_API_KEY;
  if (key === undefined || key === "") {
    throw new CommandFailure("an API key is required: --key KEY or TOOLHOST_API_KEY", EXIT_STATUS.usage);
  }
  const reader = new InputReader(context.io.stdin);
  const args = options.arguments === undefined ? undefined : await jsonText(options.arguments, "--arguments", reader);
  const receipts: string[] = [];
  if (options.result !== undefined) {
    const result = await jsonText(options.result, "--result", reader);
    const type = options.resultType === undefined ? "" : `,"result_type":${JSON.stringify(options.resultType)}`;
    receipts.push(`{"receipt_id":"${RESULT_RECEIPT_ID}","kind":"completed"${type},"result":${result}}`);
  }
  for (const [index, receipt] of options.receipt.entries()) {
    receipts.push(await jsonText(receipt, `--receipt[${index + 1}]`, reader));
  }
  // Raw fetch, not @toolhost/client: the user's JSON goes byte-exactly and the server's exact text is printed.
  const base = options.url.endsWith("/") ? options.url : `${options.url}/`;
  let response: Response;
  try {
    response = await fetch(new URL("v1/tools/dry-run", base), {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: dryRunBodyText(options.agentVersion, options.tool, args, receipts),
    });
  } catch (error) {
    throw new CommandFailure(`cannot reach ${options.url}: ${failureReason(error)}`);
  }
  const text = await response.text();
  if (response.status !== 200)
    throw new CommandFailure(`the server answered ${response.status}: ${errorSummary(text)}`);
  await context.stdout.write(`${options.pretty === true ? indentJson(text) : text}\n`);
  const invalid = invalidLines(JSON.parse(text) as DryRunAnswer);
  for (const line of invalid) await context.stderr.write(line);
  return invalid.length === 0 ? EXIT_STATUS.ok : EXIT_STATUS.refused;
}

function failureReason(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** `code at pointer: message` of an error body, or the text itself when it is not one. */
function errorSummary(text: string): string {
  try {
    const { error } = JSON.parse(text) as { error: { code: string; message: string; pointer?: string } };
    return `${error.code}${error.pointer === undefined ? "" : ` at ${error.pointer || "(root)"}`}: ${error.message}`;
  } catch {
    return text.slice(0, 200);
  }
}

/** Defines `toolhost dry-run`. */
export const defineDryRunCommand: CommandDefinition = (program, context) =>
  program
    .command("dry-run")
    .summary("check a tool call on a server and print what the model would see")
    .description(
      "Send POST /v1/tools/dry-run: check arguments against the tool's input schema and each mock receipt, " +
        "and print the answer with the context_preview of the first valid completed receipt. Nothing is executed.",
    )
    // One default, described once: commander would print the value again after a description naming it.
    .addOption(
      new Option("--url <url>", "the server").default(
        context.env.TOOLHOST_URL || DEFAULT_SERVER_URL,
        `$TOOLHOST_URL, else ${DEFAULT_SERVER_URL}`,
      ),
    )
    .option(
      "--key <key>",
      "API key with runtime:read, configuration:read or tools:execute (default: $TOOLHOST_API_KEY)",
    )
    .requiredOption("--agent-version <id>", "the published agent version")
    .requiredOption("--tool <name>", "the tool's name in that version's toolset")
    .option("--arguments <json>", "the arguments as JSON text, or @FILE (@- for standard input); default {}")
    .option(
      "--result <json>",
      `a result to preview: adds a completed mock receipt "${RESULT_RECEIPT_ID}" first; JSON or @FILE`,
    )
    .addOption(new Option("--result-type <type>", "the result_type of --result").choices(Object.keys(RESULT_TYPES)))
    .option(
      "--receipt <json>",
      "a mock receipt as JSON or @FILE; repeat for several, in order",
      collect,
      [] as string[],
    )
    .option("--pretty", "indent the answer for reading (default: the server's compact text, one line)")
    .addHelpText(
      "after",
      `
Output:
  The server's answer on standard output. Each invalid argument or receipt is
  also reported on standard error: toolhost: receipt <id> invalid at <pointer>: …

Exit status: 0 everything valid, 1 something invalid, an input file refused,
the server unreachable or answering an error, 2 usage error.`,
    )
    .action(async (options: DryRunOptions) => {
      context.setExitStatus(await runReported(context, () => runDryRun(options, context)));
    });

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
