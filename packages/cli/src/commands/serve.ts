/**
 * `toolhost serve [--db URL] [--host H] [--port P]`: runs the HTTP server until SIGTERM or SIGINT, then
 * shuts down gracefully (in-flight requests finish, storage closes) and exits 0. Once listening it
 * prints the server's URL — the real port when `--port 0` asked for a free one — as the only line on
 * standard output, so scripts can read it; log lines (JSON) go to standard error.
 */

import type { RunningServer, ServerOptions } from "@toolhost/server";
import { InvalidArgumentError } from "commander";
import type { CommandContext, CommandDefinition } from "../command-context.js";
import { CommandFailure, runReported } from "../command-failure.js";
import { addDatabaseOption, type DatabaseOptions, databaseUrlOf } from "../database-option.js";
import { EXIT_STATUS, type ExitStatus } from "../exit-status.js";
import { loadServer, SHOWN_SERVER_DEFAULTS } from "../server-module.js";

/** The options of `toolhost serve`, as commander hands them over. */
export interface ServeOptions extends DatabaseOptions {
  host?: string;
  port?: number;
}

/** Parses `--port`: decimal digits, 0 to 65535 (0 picks a free port). */
export function parsePortOption(value: string): number {
  const port = /^[0-9]{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 0 && port <= 65_535))
    throw new InvalidArgumentError(`must be an integer from 0 to 65535, got ${JSON.stringify(value)}`);
  return port;
}

/** Starts the server, prints its URL, and resolves once a signal has shut it down (1 when closing failed). */
export async function runServe(options: ServeOptions, context: CommandContext): Promise<ExitStatus> {
  const { closeOnSignals, startServer } = await loadServer();
  const serverOptions: ServerOptions = {
    databaseUrl: await databaseUrlOf(options, context),
    logDestination: context.io.stderr,
  };
  if (options.host !== undefined) serverOptions.host = options.host;
  if (options.port !== undefined) serverOptions.port = options.port;
  let server: RunningServer;
  try {
    server = await startServer(serverOptions, context.env);
  } catch (error) {
    throw new CommandFailure(`cannot start the server: ${(error as Error).message}`);
  }
  const stopped = new Promise<ExitStatus>((resolve) => {
    const closable = {
      close: () =>
        server.close().then(
          () => resolve(EXIT_STATUS.ok),
          (error: unknown) => {
            resolve(EXIT_STATUS.refused);
            throw error;
          },
        ),
    };
    closeOnSignals(closable, {
      info: (message) => server.app.log.info(message),
      error: (details, message) => server.app.log.error(details, message),
    });
  });
  await context.stdout.write(`${server.url}\n`);
  return stopped;
}

/** Defines `toolhost serve`. */
export const defineServeCommand: CommandDefinition = (program, context) =>
  addDatabaseOption(
    program
      .command("serve")
      .summary("run the HTTP server (the API under /v1)")
      .description(
        "Run the toolhost HTTP server until SIGTERM or SIGINT. The database is migrated on start; " +
          "TOOLHOST_BOOTSTRAP_KEY makes its value an admin key. Prints the URL once listening.",
      ),
  )
    .option("--host <host>", `interface to listen on (default: $TOOLHOST_HOST, else ${SHOWN_SERVER_DEFAULTS.host})`)
    .option(
      "--port <port>",
      `TCP port, 0 for a free one (default: $TOOLHOST_PORT, else ${SHOWN_SERVER_DEFAULTS.port})`,
      parsePortOption,
    )
    .addHelpText(
      "after",
      `
Output:
  The server's URL (http://HOST:PORT, the real port for --port 0) on standard
  output once it listens; log lines as JSON on standard error. Other settings
  come from the environment: TOOLHOST_BOOTSTRAP_KEY, TOOLHOST_BODY_LIMIT_BYTES,
  TOOLHOST_LOG_LEVEL, TOOLHOST_SHUTDOWN_TIMEOUT_MS (see docs/http-api.md).

Exit status: 0 stopped by SIGTERM/SIGINT, 1 could not start (or shut down
cleanly), 2 usage error. A second signal while shutting down exits 1 at once.`,
    )
    .action(async (options: ServeOptions) => {
      context.setExitStatus(await runReported(context, () => runServe(options, context)));
    });
