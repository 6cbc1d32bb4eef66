/**
 * `toolhost serve` in a child process for bench/peers: like bench/protocol's, plus statement-counter.mjs
 * preloaded (`node --import`) and an IPC channel to ask it for the counts. The channel is closed
 * before SIGTERM, so the graceful shutdown (and a CPU profile, with `--cpu-prof`) ends as usual.
 */

import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const TOOLHOST_BIN = fileURLToPath(new URL("../../packages/cli/bin/toolhost.js", import.meta.url));
const COUNTER = new URL("statement-counter.mjs", import.meta.url).href;
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 20_000;
const ASK_TIMEOUT_MS = 10_000;

/**
 * Starts the server on `databaseUrl`; resolves once it listens.
 * @returns {Promise<{ url: string, pid: number, statements: () => Promise<{ postgres: number, sqlite: number }>, stop: () => Promise<number | null> }>}
 */
export function startCountedToolhost({ databaseUrl, env, logFile, nodeArgs = [] }) {
  const log = openSync(logFile, "a");
  const child = spawn(
    process.execPath,
    [
      "--import",
      COUNTER,
      ...nodeArgs,
      TOOLHOST_BIN,
      "serve",
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--db",
      databaseUrl,
    ],
    { env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "pipe", log, "ipc"] },
  );
  closeSync(log);
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  const tail = () => readFileSync(logFile, "utf8").slice(-2000);
  const statements = () =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error("the server did not answer its statement counts")),
        ASK_TIMEOUT_MS,
      );
      const onMessage = (message) => {
        if (message?.type !== "statements") return;
        clearTimeout(timer);
        child.off("message", onMessage);
        resolve(message.counts);
      };
      child.on("message", onMessage);
      child.send({ type: "statements" });
    });
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
      reject(new Error(`toolhost serve did not listen within ${START_TIMEOUT_MS} ms: ${tail()}`));
    }, START_TIMEOUT_MS);
    createInterface({ input: child.stdout }).once("line", (url) => {
      clearTimeout(timer);
      resolve({ url, pid: child.pid, statements, stop });
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`toolhost serve exited with ${code} before listening: ${tail()}`));
    });
  });
}
