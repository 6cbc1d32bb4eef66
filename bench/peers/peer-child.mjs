/** Forks peer-process.mjs for one peer and talks to it over IPC. */

import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";

const PEER_PROCESS = fileURLToPath(new URL("peer-process.mjs", import.meta.url));
/** Restate starts a server and an endpoint and registers it: up to 90 s on a loaded machine. */
const READY_TIMEOUT_MS = 120_000;
/** Longest any one command may take (a throughput case, a series of wake-ups). */
const COMMAND_TIMEOUT_MS = 180_000;

/**
 * Starts the peer `system` (`pg-boss` or `graphile-worker` in schema `schema`, `BullMQ`, `Restate`);
 * resolves once it is set up, with the PID of its load process and the other processes it runs on.
 * @returns {Promise<{ pid: number, processes: Array<{ role: string, pid: number }>, ask: (message: object, answerType: string) => Promise<any>, statements: () => Promise<{ postgres: number, sqlite: number, redis: number }>, stop: () => Promise<void> }>}
 */
export async function startPeer(system, databaseUrl, schema) {
  const child = fork(PEER_PROCESS, [system, databaseUrl, schema], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  const next = (type, timeoutMs) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${system}: no ${type} answer in ${timeoutMs} ms`)), timeoutMs);
      const onMessage = (message) => {
        if (message?.type !== type) return;
        clearTimeout(timer);
        child.off("message", onMessage);
        if (message.error !== undefined) reject(new Error(`${system}: ${message.error}`));
        else resolve(message);
      };
      child.on("message", onMessage);
      exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`${system}: the peer process exited with ${code}`));
      });
    });
  const ready = await next("ready", READY_TIMEOUT_MS);
  return {
    pid: child.pid,
    processes: ready.processes ?? [],
    async ask(message, answerType) {
      const answer = next(answerType, COMMAND_TIMEOUT_MS);
      child.send(message);
      return (await answer).result;
    },
    async statements() {
      const answer = next("statements", COMMAND_TIMEOUT_MS);
      child.send({ type: "statements" });
      return (await answer).counts;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const stopped = next("stopped", 30_000).catch(() => undefined);
      child.send({ type: "stop" });
      await stopped;
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
