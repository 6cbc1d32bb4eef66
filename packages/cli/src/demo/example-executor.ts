/**
 * The repository's example product, `examples/task-service`: its setup functions (configure the
 * server through the HTTP API, start a run and wait for it) and its executor (`main.mjs`) started as
 * a child process. The demo reuses them rather than keeping a copy; outside a checkout of the
 * repository (an installed package) there is no example, and the demo says so.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The example's directory (src/demo and dist/demo sit at the same depth in packages/cli). */
export const EXAMPLE_DIRECTORY = fileURLToPath(new URL("../../../../examples/task-service/", import.meta.url));

/** What `configureTaskService` created. */
export interface ConfiguredTaskService {
  readonly bindingId: string;
  readonly toolsetId: string;
  readonly agentId: string;
  readonly agentVersion: string;
  readonly sessionId: string;
}

/** A run as the API answers it (the members the demo reads). */
export interface DemoRun {
  readonly run_id: string;
  readonly status: string;
  readonly output?: string;
  readonly error?: { code: string; message: string };
}

/** The functions of `examples/task-service/setup.mjs` the demo uses. */
export interface TaskServiceSetup {
  configureTaskService(
    baseUrl: string,
    adminKey: string,
    options: { bindingId?: string; subject?: string; toolNames?: readonly string[]; agentName?: string },
  ): Promise<ConfiguredTaskService>;
  runAndWait(
    baseUrl: string,
    adminKey: string,
    sessionId: string,
    timeoutMs?: number,
    input?: string,
  ): Promise<{ run: DemoRun; history: { data: Array<{ type: string }> } }>;
}

/** Loads `setup.mjs`; throws an Error saying what is missing outside a repository checkout. */
export async function loadTaskServiceSetup(): Promise<TaskServiceSetup> {
  const path = join(EXAMPLE_DIRECTORY, "setup.mjs");
  if (!existsSync(path)) {
    throw new Error(`the demo needs the toolhost repository's examples/task-service (looked for ${path})`);
  }
  return (await import(pathToFileURL(path).href)) as TaskServiceSetup;
}

/** What the executor child needs. */
export interface ExampleExecutorOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly executorId: string;
  readonly bindingId: string;
  /** Where its journal and its product database live. */
  readonly stateDirectory: string;
  /** Its log level (pino); warnings and errors reach this process's standard error. */
  readonly logLevel: string;
}

/** The running executor child. */
export interface ExampleExecutor {
  readonly pid: number | undefined;
  /** Resolves with its exit code once it exited. */
  readonly exited: Promise<number | null>;
  /** What it wrote on standard error so far (the last 8 KiB). */
  output(): string;
  /** Asks it to stop (SIGTERM: it detaches from the server and exits); resolves once it exited. */
  stop(timeoutMs?: number): Promise<void>;
}

const OUTPUT_KEPT_CHARS = 8192;

/**
 * Starts `main.mjs` with the key in its environment (never on a command line). It runs in its own
 * process group, so a Ctrl-C reaches only this process, which stops it before the server; its IPC
 * channel makes it stop on its own if this process dies.
 */
export function startExampleExecutor(
  options: ExampleExecutorOptions,
  forward: (text: string) => void,
): ExampleExecutor {
  const child: ChildProcess = spawn(process.execPath, [join(EXAMPLE_DIRECTORY, "main.mjs")], {
    cwd: EXAMPLE_DIRECTORY,
    detached: true,
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    env: {
      ...process.env,
      TOOLHOST_URL: options.baseUrl,
      TOOLHOST_API_KEY: options.apiKey,
      EXECUTOR_ID: options.executorId,
      BINDING_ID: options.bindingId,
      JOURNAL_PATH: join(options.stateDirectory, "task-service.journal.db"),
      TASKS_PATH: join(options.stateDirectory, "tasks.db"),
      LOG_LEVEL: options.logLevel,
    },
  });
  let output = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (text: string) => {
    output = (output + text).slice(-OUTPUT_KEPT_CHARS);
    forward(text);
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on("exit", (code) => resolve(code));
    child.on("error", () => resolve(null));
  });
  return {
    pid: child.pid,
    exited,
    output: () => output,
    stop: async (timeoutMs = 10_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
