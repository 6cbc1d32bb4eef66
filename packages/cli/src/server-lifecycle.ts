/**
 * Starting and stopping the server for `toolhost serve` and `toolhost demo`: the server options of
 * the command line, and a shutdown on SIGTERM/SIGINT that stops what runs beside the server (the
 * demo's executor) before the server itself.
 */

import type { RunningServer, ServerOptions } from "@toolhost/server";
import type { CommandContext } from "./command-context.js";
import { databaseUrlOf } from "./database-option.js";
import { EXIT_STATUS, type ExitStatus } from "./exit-status.js";
import { loadServer } from "./server-module.js";

/** What `--db`, `--host` and `--port` ask for. */
export interface ServerCommandOptions {
  db?: string;
  host?: string;
  port?: number;
}

/** The server options of a command: `--db`/`--host`/`--port`, logs to standard error. */
export async function serverOptionsOf(options: ServerCommandOptions, context: CommandContext): Promise<ServerOptions> {
  const serverOptions: ServerOptions = {
    databaseUrl: await databaseUrlOf(options, context),
    logDestination: context.io.stderr,
  };
  if (options.host !== undefined) serverOptions.host = options.host;
  if (options.port !== undefined) serverOptions.port = options.port;
  return serverOptions;
}

/**
 * Installs the shutdown on SIGTERM/SIGINT and resolves once it is installed (so a caller prints the
 * server's URL only when a signal can already stop it). `stopped` resolves with the exit status once
 * a signal has stopped `before()` (the demo's executor, so it detaches while the server still
 * answers), then the server (1 when closing failed), then `after()` (the trace exporter's last spans).
 */
export async function closedBySignal(
  server: RunningServer,
  before: () => Promise<void>,
  after: () => Promise<void> = async () => undefined,
): Promise<{ readonly stopped: Promise<ExitStatus> }> {
  const { closeOnSignals } = await loadServer();
  const stopped = new Promise<ExitStatus>((resolve) => {
    const closable = {
      close: () =>
        before()
          .catch(() => undefined)
          .then(() => server.close())
          .then(() => after().catch(() => undefined))
          .then(
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
  return { stopped };
}
