/**
 * `toolhost serve` in a child process for bench/peers: bench/protocol's (server-process.mjs), plus
 * statement-counter.mjs preloaded (`node --import`) and an IPC channel to ask it for the counts.
 * `bin` runs another checkout's `toolhost` (its own node_modules resolve pg and better-sqlite3 to
 * this checkout's, so the counter patches the modules that server loads). bench/floor's floor server
 * is started and counted the same way (`startCountedServer`).
 */

import { startNodeServer, startToolhost } from "../protocol/server-process.mjs";

const COUNTER = new URL("statement-counter.mjs", import.meta.url).href;
const ASK_TIMEOUT_MS = 10_000;

/**
 * Starts the server on `databaseUrl`; resolves once it listens.
 * @returns {Promise<{ url: string, pid: number, statements: () => Promise<{ postgres: number, sqlite: number }>, stop: () => Promise<number | null> }>}
 */
export async function startCountedToolhost({ databaseUrl, env, logFile, nodeArgs = [], bin }) {
  return counted(
    await startToolhost({ databaseUrl, env, logFile, nodeArgs: ["--import", COUNTER, ...nodeArgs], ipc: true, bin }),
  );
}

/**
 * Starts a server script as server-process.mjs's startNodeServer does, counted like toolhost.
 * @param {{ label: string, script: string, args: string[], env: Record<string, string>, logFile: string, nodeArgs?: string[] }} options
 */
export async function startCountedServer({ nodeArgs = [], ...options }) {
  return counted(await startNodeServer({ ...options, nodeArgs: ["--import", COUNTER, ...nodeArgs], ipc: true }));
}

/**
 * The server with `statements()`, which asks the preloaded counter over IPC, and `statementTimes(reset)`
 * (a server started with TOOLHOST_BENCH_STATEMENT_TIMES=1: its statements' times by SQL text).
 */
function counted(server) {
  const { child } = server;
  const ask = (request, what) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not answer its ${what}`)), ASK_TIMEOUT_MS);
      const onMessage = (message) => {
        if (message?.type !== request.type) return;
        clearTimeout(timer);
        child.off("message", onMessage);
        resolve(message);
      };
      child.on("message", onMessage);
      child.send(request);
    });
  const statements = async () => (await ask({ type: "statements" }, "statement counts")).counts;
  const statementTimes = async (reset = false) =>
    (await ask({ type: "statement-times", reset }, "statement times")).times;
  return { url: server.url, pid: server.pid, statements, statementTimes, stop: server.stop };
}
