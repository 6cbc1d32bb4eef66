/**
 * A throwaway `toolhost serve` (the compiled build: run `npm run build` first) on a fresh SQLite
 * database in a temporary directory, for the scripts that read or record the API: started, handed to
 * `work` as its base URL, then stopped and its directory removed, whatever `work` did.
 */

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const TOOLHOST_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "cli", "bin", "toolhost.js");

/**
 * Runs `work(baseUrl)` against a scratch server started with `env` added to this process's.
 * @template T
 * @param {Record<string, string>} env
 * @param {(baseUrl: string) => Promise<T>} work
 * @returns {Promise<T>}
 */
export async function withScratchServer(env, work) {
  const directory = mkdtempSync(join(tmpdir(), "toolhost-scratch-"));
  const server = spawn(
    process.execPath,
    [TOOLHOST_BIN, "serve", "--db", `sqlite:${join(directory, "db.sqlite")}`, "--port", "0"],
    { env: { ...process.env, TOOLHOST_LOG_LEVEL: "warn", ...env }, stdio: ["ignore", "pipe", "inherit"] },
  );
  try {
    const baseUrl = await new Promise((resolve, reject) => {
      let output = "";
      server.stdout.on("data", (chunk) => {
        output += chunk;
        const url = /http:\/\/\S+/.exec(output);
        if (url !== null) resolve(url[0]);
      });
      server.once("exit", (code) => reject(new Error(`toolhost serve exited with ${code}`)));
    });
    return await work(baseUrl);
  } finally {
    if (server.exitCode === null) {
      server.kill("SIGTERM");
      await new Promise((resolve) => server.once("exit", resolve));
    }
    rmSync(directory, { recursive: true, force: true });
  }
}
