/**
 * `toolhost serve [--db URL] [--host H] [--port P] [--demo]`: runs the HTTP server (the API under /v1,
 * the console at /) until SIGTERM or SIGINT, then shuts down gracefully (in-flight requests finish,
 * storage closes) and exits 0. Once listening it prints the server's URL — the real port when
 * `--port 0` asked for a free one — as the only line on standard output, so scripts can read it; log
 * lines (JSON) go to standard error, and so does, on a database without keys, how to make the first.
 * With `--demo` (what `npm start` runs) it is a first run for people instead: see demo/.
 */

import type { RunningServer } from "@toolhost/server";
import { InvalidArgumentError } from "commander";
import type { CommandContext, CommandDefinition } from "../command-context.js";
import { CommandFailure, runReported } from "../command-failure.js";
import { addDatabaseOption, type DatabaseOptions } from "../database-option.js";
import { firstKeyHint } from "../demo/first-run-text.js";
import type { ExitStatus } from "../exit-status.js";
import { closedBySignal, serverOptionsOf } from "../server-lifecycle.js";
import { loadServer, SHOWN_SERVER_DEFAULTS } from "../server-module.js";
import { cliVersion } from "../version.js";
import { runServeDemo } from "./serve-demo.js";

/** The options of `toolhost serve`, as commander hands them over. */
export interface ServeOptions extends DatabaseOptions {
  host?: string;
  port?: number;
  demo?: boolean;
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
  if (options.demo === true) return runServeDemo(options, context);
  const { OPERATOR_REACH, startServer } = await loadServer();
  const serverOptions = await serverOptionsOf(options, context);
  // The OTEL_* variables start the trace SDK before the server (nothing is loaded without them; the
  // module itself loads only here, so other commands start without it).
  const { startTracingFromEnv } = await import("@toolhost/runner/otel");
  const tracing = await startTracingFromEnv({
    serviceName: "toolhost",
    serviceVersion: cliVersion(),
    env: context.env,
    warn: (message) => void context.stderr.write(`toolhost serve: ${message}\n`),
  });
  let server: RunningServer;
  try {
    server = await startServer(serverOptions, context.env);
  } catch (error) {
    await tracing?.shutdown();
    throw new CommandFailure(`cannot start the server: ${(error as Error).message}`);
  }
  // The spans of the last requests leave after the server closed.
  const { stopped } = await closedBySignal(
    server,
    async () => undefined,
    async () => {
      await tracing?.shutdown();
    },
  );
  await context.stdout.write(`${server.url}\n`);
  if ((await server.storage.keys.list({ limit: 1 }, OPERATOR_REACH)).items.length === 0) {
    await context.stderr.write(firstKeyHint(`${server.url}/`, options.db));
  }
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
    .option(
      "--demo",
      "a first run: on an empty database seed a demo, run the example executor, print a key (npm start)",
    )
    .addHelpText(
      "after",
      `
With --demo (what npm start runs): on an empty database it seeds a demo (a binding,
a toolset with tasks.read and tasks.create, a scripted agent version, a session),
starts the example executor (examples/task-service) as a child process, runs the
agent once and prints the console's URL and an admin key, once. A later start
reuses the demo. Logs default to warnings (TOOLHOST_LOG_LEVEL changes that).

Output:
  The server's URL (http://HOST:PORT, the real port for --port 0) on standard
  output once it listens; log lines as JSON on standard error. Every other
  setting comes from its TOOLHOST_* variable: TOOLHOST_BOOTSTRAP_KEY,
  TOOLHOST_LOG_LEVEL, … (all listed in docs/operations.md#server-settings).

Exit status: 0 stopped by SIGTERM/SIGINT, 1 could not start (or shut down
cleanly), 2 usage error. A second signal while shutting down exits 1 at once.`,
    )
    .action(async (options: ServeOptions) => {
      context.setExitStatus(await runReported(context, () => runServe(options, context)));
    });
