/**
 * `toolhost runs list|show|cancel|watch`: the runs of a running server, over its API (`--url`,
 * `--key`): list them newest first (`--status`, `--agent`, `--limit`, `--cursor`), show one with its
 * tool calls, cancel one, or follow one's event stream until it ends, printing each event. `--json`
 * prints the API's answers as JSON, one object per line. See docs/runs.md.
 */

import { InvalidArgumentError } from "commander";
import type { CommandContext, CommandDefinition } from "../command-context.js";
import { CommandFailure, runReported } from "../command-failure.js";
import { EXIT_STATUS, type ExitStatus } from "../exit-status.js";
import { addServerOptions, answerOf, clientOf, type ServerConnectionOptions } from "../server-connection.js";

/** The run statuses `--status` accepts (the wire's RUN_STATUSES; a test checks they agree). */
export const SHOWN_RUN_STATUSES = [
  "queued",
  "running",
  "waiting_for_tools",
  "completed",
  "failed",
  "cancelled",
  "expired",
] as const;

/** The options of `runs list`. */
export interface RunsListOptions extends ServerConnectionOptions {
  status?: string;
  agent?: string;
  limit?: number;
  cursor?: string;
}

/** The options of `runs watch`. */
export interface RunsWatchOptions extends ServerConnectionOptions {
  lastEventId?: string;
}

/** Parses `--limit`: 1 to 200. */
export function parseLimitOption(value: string): number {
  const limit = /^[0-9]{1,3}$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= 1 && limit <= 200)) throw new InvalidArgumentError(`must be an integer from 1 to 200, got ${value}`);
  return limit;
}

/** A run as the list and show print it. */
type RunLike = { run_id: string; status: string; agent_id: string; created_at: string; ended_at?: string };

/** One tab-separated line of a run. */
export function runLine(run: RunLike): string {
  return [run.run_id, run.status, run.agent_id, run.created_at, run.ended_at ?? "-"].join("\t");
}

async function runsList(options: RunsListOptions, context: CommandContext): Promise<ExitStatus> {
  if (options.status !== undefined && !(SHOWN_RUN_STATUSES as readonly string[]).includes(options.status)) {
    throw new CommandFailure(`--status: must be one of ${SHOWN_RUN_STATUSES.join(", ")}`, EXIT_STATUS.usage);
  }
  const client = clientOf(options, context);
  const query = {
    ...(options.status === undefined ? {} : { status: options.status as (typeof SHOWN_RUN_STATUSES)[number] }),
    ...(options.agent === undefined ? {} : { agent_id: options.agent }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
    ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
  };
  const page = await answerOf("GET /v1/runs", options.url, client.GET("/v1/runs", { params: { query } }));
  if (options.json === true) {
    await context.stdout.write(`${JSON.stringify(page)}\n`);
    return EXIT_STATUS.ok;
  }
  for (const run of page.data) await context.stdout.write(`${runLine(run)}\n`);
  if (page.next_cursor !== null) await context.stderr.write(`toolhost: more runs: --cursor ${page.next_cursor}\n`);
  return EXIT_STATUS.ok;
}

async function runsShow(runId: string, options: ServerConnectionOptions, context: CommandContext): Promise<ExitStatus> {
  const client = clientOf(options, context);
  const path = { params: { path: { run_id: runId } } };
  const [run, calls] = await Promise.all([
    answerOf(`GET /v1/runs/${runId}`, options.url, client.GET("/v1/runs/{run_id}", path)),
    answerOf(
      `GET /v1/runs/${runId}/tool-calls`,
      options.url,
      client.GET("/v1/runs/{run_id}/tool-calls", { params: { path: { run_id: runId }, query: { limit: 200 } } }),
    ),
  ]);
  if (options.json === true) {
    await context.stdout.write(`${JSON.stringify({ run, tool_calls: calls.data })}\n`);
    return EXIT_STATUS.ok;
  }
  await context.stdout.write(`${runLine(run)}\n`);
  if (run.output !== undefined) await context.stdout.write(`output\t${JSON.stringify(run.output)}\n`);
  if (run.error !== undefined) await context.stdout.write(`error\t${run.error.code}\t${run.error.message}\n`);
  for (const call of calls.data) {
    await context.stdout.write(`call\t${call.call_id}\t${call.tool_name}\t${call.status}\n`);
  }
  return EXIT_STATUS.ok;
}

async function runsCancel(
  runId: string,
  options: ServerConnectionOptions,
  context: CommandContext,
): Promise<ExitStatus> {
  const client = clientOf(options, context);
  const answer = await answerOf(
    `POST /v1/runs/${runId}/cancel`,
    options.url,
    client.POST("/v1/runs/{run_id}/cancel", { params: { path: { run_id: runId } }, body: {} }),
  );
  await context.stdout.write(
    options.json === true ? `${JSON.stringify(answer)}\n` : `${answer.run_id}\t${answer.status}\n`,
  );
  return EXIT_STATUS.ok;
}

async function runsWatch(runId: string, options: RunsWatchOptions, context: CommandContext): Promise<ExitStatus> {
  const client = clientOf(options, context);
  try {
    const events = client.runEvents(
      runId,
      options.lastEventId === undefined ? {} : { lastEventId: options.lastEventId },
    );
    for await (const event of events) {
      const line =
        options.json === true ? JSON.stringify(event) : [event.id, event.event, summaryOf(event.data)].join("\t");
      await context.stdout.write(`${line}\n`);
    }
  } catch (error) {
    if (error instanceof CommandFailure) throw error;
    throw new CommandFailure(`GET /v1/runs/${runId}/events: ${(error as Error).message}`);
  }
  return EXIT_STATUS.ok;
}

/** A short text of an event's data: the status of a run or call, else its JSON. */
function summaryOf(data: unknown): string {
  const object = (data ?? {}) as { status?: unknown; call_id?: unknown; tool_name?: unknown; seq?: unknown };
  if (typeof object.call_id === "string")
    return `${object.call_id} ${String(object.tool_name)} ${String(object.status)}`;
  if (typeof object.status === "string") return object.status;
  const text = JSON.stringify(data);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Defines `toolhost runs` and its subcommands. */
export const defineRunsCommand: CommandDefinition = (program, context) => {
  const runs = program.command("runs").summary("list, show, cancel and watch runs").description("Runs of a server.");
  addServerOptions(
    runs
      .command("list")
      .summary("list runs, newest first")
      .option("--status <status>", `only runs in this status (${SHOWN_RUN_STATUSES.join(", ")})`)
      .option("--agent <id>", "only runs of this agent")
      .option("--limit <n>", "at most this many (1 to 200, default 50)", parseLimitOption)
      .option("--cursor <cursor>", "the next page (printed on standard error after a full page)"),
    context,
    "runtime:read",
  ).action(async (options: RunsListOptions) => {
    context.setExitStatus(await runReported(context, () => runsList(options, context)));
  });
  addServerOptions(
    runs.command("show").summary("show a run and its tool calls").argument("<run>", "the run's ID"),
    context,
    "runtime:read",
  ).action(async (runId: string, options: ServerConnectionOptions) => {
    context.setExitStatus(await runReported(context, () => runsShow(runId, options, context)));
  });
  addServerOptions(
    runs.command("cancel").summary("cancel a run (its open calls are cancelled)").argument("<run>", "the run's ID"),
    context,
    "runtime:write",
  ).action(async (runId: string, options: ServerConnectionOptions) => {
    context.setExitStatus(await runReported(context, () => runsCancel(runId, options, context)));
  });
  addServerOptions(
    runs
      .command("watch")
      .summary("print a run's events as they happen, until it ends")
      .argument("<run>", "the run's ID")
      .option("--last-event-id <id>", "start after this event"),
    context,
    "runtime:read",
  ).action(async (runId: string, options: RunsWatchOptions) => {
    context.setExitStatus(await runReported(context, () => runsWatch(runId, options, context)));
  });
  return runs;
};
