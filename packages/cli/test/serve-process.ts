// `toolhost serve` as a child process (the real binary over dist/): started on a free port (--port 0),
// its URL read from the first line of standard output, stopped with a signal.
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll } from "vitest";
import { TOOLHOST_BIN } from "./run-toolhost.js";

/** A running `toolhost serve`. */
export interface ServeProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything written on standard error so far (JSON log lines). */
  stderr(): string;
  /** Sends `signal` and resolves with the exit status. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) if (child.exitCode === null) child.kill("SIGKILL");
});

/** Starts `toolhost serve ...args` with `env` added to a minimal environment; rejects if it exits first. */
export function startServe(args: readonly string[], env: Record<string, string>, cwd: string): Promise<ServeProcess> {
  const child = spawn(process.execPath, [TOOLHOST_BIN, "serve", ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", TOOLHOST_LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once("line", (url) =>
      resolve({
        url,
        child,
        stderr: () => stderr,
        stop: (signal = "SIGTERM") => {
          child.kill(signal);
          return exited;
        },
      }),
    );
    exited.then((code) => reject(new Error(`toolhost serve exited with ${code} before listening: ${stderr}`)));
  });
}
