/**
 * A server in a child process for bench/http: started with a command line, its URL read from the first
 * line of its standard output, stopped with SIGTERM (SIGKILL when it has not exited after a while).
 */

import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** How long a child gets to start listening, and to exit after SIGTERM. */
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

/**
 * Starts `node ...args`; resolves once it printed its URL.
 * @param {string} label  how the child is named in messages
 * @param {string[]} args  node arguments (script and its arguments)
 * @param {Record<string, string>} env  added to a minimal environment
 * @returns {Promise<{ url: string, pid: number, stop: () => Promise<number | null> }>}
 */
export function startChildServer(label, args, env = {}) {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4000);
  });
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode !== null) return child.exitCode;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${label} did not listen within ${START_TIMEOUT_MS} ms: ${stderr}`));
    }, START_TIMEOUT_MS);
    createInterface({ input: child.stdout }).once("line", (url) => {
      clearTimeout(timer);
      resolve({ url, pid: child.pid, stop });
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited with ${code} before listening: ${stderr}`));
    });
  });
}
