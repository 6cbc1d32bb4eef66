/**
 * `toolhost serve --demo` (`npm start`): the server with the console, and on an empty database a demo
 * seeded, its executor started and run once, the console's URL and an admin key printed once. Steps
 * and the banner go to standard output; logs (warnings by default) to standard error.
 */

import type { RunningServer } from "@toolhost/server";
import type { CommandContext } from "../command-context.js";
import { CommandFailure } from "../command-failure.js";
import { type DemoStart, startDemo } from "../demo/demo-setup.js";
import { demoStateDirectory } from "../demo/demo-state-directory.js";
import { demoBanner, firstKeyHint } from "../demo/first-run-text.js";
import { StepProgress } from "../demo/step-progress.js";
import type { ExitStatus } from "../exit-status.js";
import { closedBySignal, type ServerCommandOptions, serverOptionsOf } from "../server-lifecycle.js";
import { loadServer } from "../server-module.js";

/** Runs the server with the demo until a signal stops both. */
export async function runServeDemo(options: ServerCommandOptions, context: CommandContext): Promise<ExitStatus> {
  const { OPERATOR_REACH, redactDatabaseUrl, startServer } = await loadServer();
  const serverOptions = await serverOptionsOf(options, context);
  // People read this terminal: JSON info lines would bury the banner (TOOLHOST_LOG_LEVEL still wins).
  if (!context.env.TOOLHOST_LOG_LEVEL) serverOptions.logLevel = "warn";
  const databaseUrl = serverOptions.databaseUrl as string;
  const progress = new StepProgress(context.io.stdout);
  progress.line("toolhost: starting the server with the console and the demo");
  let server: RunningServer;
  try {
    server = await progress.step(
      "starting the server",
      () => startServer(serverOptions, context.env),
      (started) => `server listening at ${started.url} (${redactDatabaseUrl(databaseUrl)})`,
    );
  } catch (error) {
    throw new CommandFailure(`cannot start the server: ${(error as Error).message}`);
  }
  const state = demoStateDirectory(databaseUrl);
  let demo: DemoStart;
  try {
    demo = await startDemo(server, {
      progress,
      stateDirectory: state.path,
      bootstrapKey: server.options.bootstrapKey,
      alwaysRun: false,
      forward: (text) => context.io.stderr.write(text),
    });
  } catch (error) {
    await server.close().catch(() => undefined);
    state.remove();
    throw new CommandFailure(`cannot start the demo: ${(error as Error).message}`);
  }
  const { stopped } = await closedBySignal(server, async () => {
    await demo.stop();
    state.remove();
  });
  const consoleUrl = `${server.url}/`;
  await context.stdout.write(demoBanner(consoleUrl, demo, server.options.bootstrapKey !== null, options.db));
  if (
    demo.plan.action === "leave" &&
    (await server.storage.keys.list({ limit: 1 }, OPERATOR_REACH)).items.length === 0
  ) {
    await context.stderr.write(firstKeyHint(consoleUrl, options.db));
  }
  return stopped;
}
