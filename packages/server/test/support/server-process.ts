/**
 * A real server process (the built dist, through `test/http/fixtures/serve-until-signal.mjs`) for
 * tests where the process itself is under test: it must survive what happens to its database. Its
 * options come from TOOLHOST_* variables; its JSON log lines (standard output) are kept, and how it
 * exited is known. Every process started here is killed after the test file.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";
import { type Answer, BOOTSTRAP_SECRET, type Call, request } from "../http/http-harness.js";

const SCRIPT = fileURLToPath(new URL("../http/fixtures/serve-until-signal.mjs", import.meta.url));

/** One JSON log line. */
export type LogLine = Record<string, unknown>;

/** A running server process. */
export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Every log line so far. */
  readonly lines: readonly LogLine[];
  /** Standard error so far (an uncaught exception is printed there). */
  stderr(): string;
  /** The exit code or signal once the process ended, undefined while it runs. */
  exited(): string | undefined;
  /** Resolves with the first log line (already written or to come) that `test` accepts. */
  waitForLine(test: (line: LogLine) => boolean): Promise<LogLine>;
  /** Sends one request. */
  call(method: string, path: string, call?: Call): Promise<Answer>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process ended. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<ChildProcess>();

afterAll(() => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** Starts the server with `env` (TOOLHOST_HOST and the bootstrap key preset); resolves once it listens. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [SCRIPT], {
    env: {
      PATH: process.env.PATH ?? "",
      TOOLHOST_HOST: "127.0.0.1",
      TOOLHOST_BOOTSTRAP_KEY: BOOTSTRAP_SECRET,
      TOOLHOST_LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  let exit: string | undefined;
  const ended = new Promise<void>((resolve) =>
    child.on("exit", (code, signal) => {
      exit = signal ?? String(code);
      running.delete(child);
      resolve();
    }),
  );
  const lines: LogLine[] = [];
  const waiters: Array<{ test: (line: LogLine) => boolean; resolve: (line: LogLine) => void }> = [];
  if (child.stdout === null) throw new Error("no stdout");
  createInterface({ input: child.stdout }).on("line", (text) => {
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      line = { msg: text };
    }
    lines.push(line);
    for (const waiter of [...waiters]) {
      if (!waiter.test(line)) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  });
  const waitForLine = (test: (line: LogLine) => boolean): Promise<LogLine> => {
    const seen = lines.find(test);
    return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ test, resolve }));
  };
  const listening = await Promise.race([
    waitForLine((line) => typeof line.url === "string"),
    ended.then(() => {
      throw new Error(`the server exited (${exit}) before listening: ${stderr}`);
    }),
  ]);
  const url = listening.url as string;
  return {
    url,
    child,
    lines,
    stderr: () => stderr,
    exited: () => exit,
    waitForLine,
    call: (method, path, call = {}) => request(url, method, path, call),
    stop: async (graceMs = 10_000) => {
      if (exit !== undefined) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await ended;
      clearTimeout(timer);
    },
  };
}
