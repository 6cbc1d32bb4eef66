/**
 * Child processes of the crash harness: the real `toolhost serve` (the CLI over its compiled dist, on
 * a SQLite file, always on the same port so executors find it again after a restart) and the crash
 * executor. Everything listens on 127.0.0.1 only; every child is killed when the harness ends.
 */

import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { createServer } from "node:net";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const TOOLHOST_BIN = fileURLToPath(new URL("../../../cli/bin/toolhost.js", import.meta.url));
const EXECUTOR_SCRIPT = fileURLToPath(new URL("./executor-process.mjs", import.meta.url));
const PYTHON_EXECUTOR_SCRIPT = fileURLToPath(new URL("./executor-process.py", import.meta.url));

/** The Python interpreter the Python crash executor runs on (TOOLHOST_PYTHON, else python3). */
export const PYTHON = process.env.TOOLHOST_PYTHON ?? "python3";

/** The runners the crash executor exists for: the command line of each. */
export const EXECUTOR_COMMANDS = {
  typescript: () => [process.execPath, EXECUTOR_SCRIPT],
  python: () => [PYTHON, PYTHON_EXECUTOR_SCRIPT],
};

const children = new Set();

/** Kills every child still running (the harness's last resort; also on process exit). */
export function killAllChildren() {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}
process.on("exit", killAllChildren);

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const STDERR_TAIL_CHARS = 2_000;

function track(child, logPath, label) {
  children.add(child);
  const log = createWriteStream(logPath, { flags: "a" });
  log.write(`--- ${label} started (pid ${child.pid}) ---\n`);
  child.stderr?.pipe(log, { end: false });
  // The last lines the child wrote, so a harness failure can say why a child exited (the log file is
  // in a temporary directory that is gone by the time anyone reads the failure).
  let stderrTail = "";
  child.stderr?.on("data", (chunk) => {
    stderrTail = (stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
  });
  const exited = new Promise((resolve) =>
    child.once("close", (code, signal) => {
      children.delete(child);
      log.end(`--- ${label} exited (code ${code}, signal ${signal}) ---\n`);
      resolve({ code, signal, stderrTail });
    }),
  );
  return exited;
}

/** `toolhost serve` on `dbPath` and `port`, restartable after a kill. */
export class ServerProcess {
  #child;
  #exited;

  constructor({ dbPath, port, adminKey, settings, logPath }) {
    this.dbPath = dbPath;
    this.port = port;
    this.adminKey = adminKey;
    this.settings = settings;
    this.logPath = logPath;
    this.url = `http://127.0.0.1:${port}`;
  }

  /** Starts the server; resolves once it listens (retries a few times if the port is still held). */
  async start() {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.#startOnce();
        return;
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }

  #startOnce() {
    const child = spawn(
      process.execPath,
      [TOOLHOST_BIN, "serve", "--db", `sqlite:${this.dbPath}`, "--host", "127.0.0.1", "--port", String(this.port)],
      {
        env: {
          PATH: process.env.PATH ?? "",
          TOOLHOST_BOOTSTRAP_KEY: this.adminKey,
          TOOLHOST_LOG_LEVEL: "warn",
          ...this.settings,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    this.#child = child;
    this.#exited = track(child, this.logPath, "toolhost serve");
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error("toolhost serve did not listen within 60 s"));
      }, 60_000);
      createInterface({ input: child.stdout }).once("line", () => {
        clearTimeout(timer);
        resolve();
      });
      this.#exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`toolhost serve exited (${code ?? signal}) before listening`));
      });
    });
  }

  /** SIGKILLs the server and waits for it to be gone. */
  async kill() {
    this.#child?.kill("SIGKILL");
    await this.#exited;
  }

  /** Stops the server gracefully (SIGTERM). */
  async stop() {
    this.#child?.kill("SIGTERM");
    await this.#exited;
  }
}

/** Starts one crash executor instance of `runner` (typescript or python) with `env`; answers its child and its exit. */
export function startExecutor(env, logPath, label = "executor", runner = "typescript") {
  const command = EXECUTOR_COMMANDS[runner];
  if (command === undefined) throw new Error(`unknown runner ${runner}`);
  const [file, ...args] = command();
  const child = spawn(file, args, {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return { child, exited: track(child, logPath, label) };
}
