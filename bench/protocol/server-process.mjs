/**
 * `toolhost serve` in a child process for bench/protocol: the real CLI on 127.0.0.1 and a free port,
 * its URL read from the one line it prints on standard output, its log lines (standard error) written
 * to a file so reading them costs the load process nothing. Optional node flags (`--cpu-prof`) go
 * before the script. With `ipc`, the child also gets an IPC channel (bench/peers asks it for its
 * statement counts); it is closed before the SIGTERM. Stopped with SIGTERM (a graceful shutdown, which
 * also writes a CPU profile). `bin` starts another checkout's `packages/cli/bin/toolhost.js` the same way.
 */

import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const TOOLHOST_BIN = fileURLToPath(new URL("../../packages/cli/bin/toolhost.js", import.meta.url));
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 20_000;

/**
 * Starts the server on `databaseUrl`; resolves once it listens.
 * @param {{ databaseUrl: string, env: Record<string, string>, logFile: string, nodeArgs?: string[], ipc?: boolean, bin?: string }} options
 * @returns {Promise<{ url: string, pid: number, child: import("node:child_process").ChildProcess, stop: () => Promise<number | null> }>}
 */
export function startToolhost({ databaseUrl, bin = TOOLHOST_BIN, ...options }) {
  return startNodeServer({
    ...options,
    label: "toolhost serve",
    script: bin,
    args: ["serve", "--host", "127.0.0.1", "--port", "0", "--db", databaseUrl],
  });
}

/**
 * Starts `node [nodeArgs] script [args]` (a server printing its URL as its first line of standard
 * output, as `toolhost serve` does; bench/floor's floor server too); resolves once it printed it.
 * @param {{ label: string, script: string, args: string[], env: Record<string, string>, logFile: string, nodeArgs?: string[], ipc?: boolean }} options
 * @returns {Promise<{ url: string, pid: number, child: import("node:child_process").ChildProcess, stop: () => Promise<number | null> }>}
 */
export function startNodeServer({ label, script, args, env, logFile, nodeArgs = [], ipc = false }) {
  const log = openSync(logFile, "a");
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", log, ...(ipc ? ["ipc"] : [])],
  });
  closeSync(log);
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  const tail = () => readFileSync(logFile, "utf8").slice(-2000);
  const stop = async () => {
    if (child.exitCode !== null) return child.exitCode;
    if (child.connected) child.disconnect();
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${label} did not listen within ${START_TIMEOUT_MS} ms: ${tail()}`));
    }, START_TIMEOUT_MS);
    createInterface({ input: child.stdout }).once("line", (url) => {
      clearTimeout(timer);
      resolve({ url, pid: child.pid, child, stop });
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited with ${code} before listening: ${tail()}`));
    });
  });
}
