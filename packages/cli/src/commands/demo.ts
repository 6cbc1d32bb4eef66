/**
 * `toolhost demo`: the first run in a terminal. A server on a temporary SQLite database (a free port
 * unless --port), the demo seeded through the API, the example executor started, one run of the
 * scripted agent to completion — each step with its time — then everything stops and the command
 * exits 0 (1 when a step failed). `npm start` does the same and keeps serving, with the console.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningServer } from "@toolhost/server";
import type { CommandContext, CommandDefinition } from "../command-context.js";
import { CommandFailure, runReported } from "../command-failure.js";
import { DEMO, type DemoStart, startDemo } from "../demo/demo-setup.js";
import { StepProgress } from "../demo/step-progress.js";
import { EXIT_STATUS, type ExitStatus } from "../exit-status.js";
import { loadServer } from "../server-module.js";
import { parsePortOption } from "./serve.js";

/** The options of `toolhost demo`. */
export interface DemoCommandOptions {
  port?: number;
}

/** Runs the demo once; resolves with the exit status once everything stopped. */
export async function runDemo(options: DemoCommandOptions, context: CommandContext): Promise<ExitStatus> {
  const { startServer } = await loadServer();
  const directory = mkdtempSync(join(tmpdir(), "toolhost-demo-"));
  const progress = new StepProgress(context.io.stdout);
  const started = performance.now();
  progress.line("toolhost demo: a server, the example executor and one run of a scripted agent");
  let server: RunningServer | undefined;
  let demo: DemoStart | undefined;
  try {
    server = await progress.step(
      "starting the server",
      () =>
        startServer(
          {
            databaseUrl: `sqlite:${join(directory, "demo.db")}`,
            port: options.port ?? 0,
            logLevel: context.env.TOOLHOST_LOG_LEVEL ? undefined : "warn",
            logDestination: context.io.stderr,
            bootstrapKey: null,
          },
          context.env,
        ),
      (running) => `server listening at ${running.url} (a temporary SQLite database)`,
    );
    const running = server;
    demo = await startDemo(running, {
      progress,
      stateDirectory: directory,
      bootstrapKey: null,
      alwaysRun: true,
      forward: (text) => context.io.stderr.write(text),
    });
    const run = demo.firstRun;
    if (run === undefined) throw new CommandFailure("the demo did not run");
    await progress.step(
      "stopping the executor and the server",
      async () => {
        await demo?.stop();
        await running.close();
      },
      () => "executor and server stopped",
    );
    server = undefined;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    await context.stdout.write(
      [
        "",
        `  The run called ${(demo.firstRunTools ?? []).join(", then ")} through the executor of binding ${DEMO.bindingId}`,
        `  and answered: "${run.output ?? ""}"`,
        `  Done in ${seconds} s. npm start keeps such a demo running, with the console to look at it.`,
        "",
      ].join("\n"),
    );
    return EXIT_STATUS.ok;
  } finally {
    await demo?.stop().catch(() => undefined);
    await server?.close().catch(() => undefined);
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Defines `toolhost demo`. */
export const defineDemoCommand: CommandDefinition = (program, context) =>
  program
    .command("demo")
    .summary("run the demo once in the terminal: server, example executor, one completed run")
    .description(
      "Start a server on a temporary SQLite database, seed the demo (a binding, a toolset with tasks.read and " +
        "tasks.create, a scripted agent version, a session) through the API, start the example executor " +
        "(examples/task-service), run the agent until the run completes, then stop everything. Needs a " +
        "checkout of the toolhost repository (the example lives there).",
    )
    .option("--port <port>", "TCP port of the temporary server (default: a free one)", parsePortOption)
    .addHelpText("after", "\nExit status: 0 the run completed, 1 a step failed, 2 usage error.")
    .action(async (options: DemoCommandOptions) => {
      context.setExitStatus(await runReported(context, () => runDemo(options, context)));
    });
