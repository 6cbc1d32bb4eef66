/**
 * `toolhost calls cancel|compensate RUN CALL`: the business operations on one tool call of a running
 * server, over its API (`--url`, `--key` with runtime:write): ask for the business task's
 * cancellation, or start a compensating call (`--tool`, `--arguments` JSON) for a completed write
 * call. `--json` prints the API's answer. See docs/runs.md.
 */

import type { CommandContext, CommandDefinition } from "../command-context.js";
import { CommandFailure, runReported } from "../command-failure.js";
import { EXIT_STATUS, type ExitStatus } from "../exit-status.js";
import { addServerOptions, answerOf, clientOf, type ServerConnectionOptions } from "../server-connection.js";

/** The options of `calls compensate`. */
export interface CallsCompensateOptions extends ServerConnectionOptions {
  tool: string;
  arguments: string;
}

async function callsCancel(
  runId: string,
  callId: string,
  options: ServerConnectionOptions,
  context: CommandContext,
): Promise<ExitStatus> {
  const client = clientOf(options, context);
  const path = `/v1/runs/${runId}/tool-calls/${callId}/cancel`;
  const answer = await answerOf(
    `POST ${path}`,
    options.url,
    client.POST("/v1/runs/{run_id}/tool-calls/{call_id}/cancel", {
      params: { path: { run_id: runId, call_id: callId } },
      body: {},
    }),
  );
  await context.stdout.write(
    options.json === true ? `${JSON.stringify(answer)}\n` : `${answer.call_id}\t${answer.status}\tcancel requested\n`,
  );
  return EXIT_STATUS.ok;
}

async function callsCompensate(
  runId: string,
  callId: string,
  options: CallsCompensateOptions,
  context: CommandContext,
): Promise<ExitStatus> {
  let args: unknown;
  try {
    args = JSON.parse(options.arguments);
  } catch (error) {
    throw new CommandFailure(`--arguments: not JSON: ${(error as Error).message}`, EXIT_STATUS.usage);
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new CommandFailure("--arguments: must be a JSON object", EXIT_STATUS.usage);
  }
  const client = clientOf(options, context);
  const path = `/v1/runs/${runId}/tool-calls/${callId}/compensate`;
  const answer = await answerOf(
    `POST ${path}`,
    options.url,
    client.POST("/v1/runs/{run_id}/tool-calls/{call_id}/compensate", {
      params: { path: { run_id: runId, call_id: callId } },
      body: { tool_name: options.tool, arguments: args as Record<string, unknown> },
    }),
  );
  const created = answer as { call_id: string; tool_name: string; status: string };
  await context.stdout.write(
    options.json === true
      ? `${JSON.stringify(answer)}\n`
      : `${created.call_id}\t${created.tool_name}\t${created.status}\n`,
  );
  return EXIT_STATUS.ok;
}

/** Defines `toolhost calls` and its subcommands. */
export const defineCallsCommand: CommandDefinition = (program, context) => {
  const calls = program
    .command("calls")
    .summary("cancel or compensate a tool call")
    .description("Business operations on one tool call of a run.");
  addServerOptions(
    calls
      .command("cancel")
      .summary("ask for the business task behind a call to be cancelled")
      .argument("<run>", "the run's ID")
      .argument("<call>", "the call's ID"),
    context,
    "runtime:write",
  ).action(async (runId: string, callId: string, options: ServerConnectionOptions) => {
    context.setExitStatus(await runReported(context, () => callsCancel(runId, callId, options, context)));
  });
  addServerOptions(
    calls
      .command("compensate")
      .summary("start a compensating call for a completed write call")
      .argument("<run>", "the run's ID")
      .argument("<call>", "the completed call's ID")
      .requiredOption("--tool <name>", "the compensating tool, from the run's toolset version")
      .option("--arguments <json>", "its arguments, a JSON object", "{}"),
    context,
    "runtime:write",
  ).action(async (runId: string, callId: string, options: CallsCompensateOptions) => {
    context.setExitStatus(await runReported(context, () => callsCompensate(runId, callId, options, context)));
  });
  return calls;
};
