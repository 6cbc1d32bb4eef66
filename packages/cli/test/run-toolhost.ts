// Runs the real `toolhost` binary (bin/toolhost.js over the compiled dist/) as a child process, the way
// a user or a script does; the vitest global setup has rebuilt dist/ with `tsc -b` before any test runs.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The CLI's bin script. */
export const TOOLHOST_BIN = fileURLToPath(new URL("../bin/toolhost.js", import.meta.url));

/** The monorepo root (where node_modules/.bin/toolhost is linked). */
export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** What a finished child process left behind. */
export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Options of a run: the working directory, what to feed standard input, and the environment (default: this process's). */
export interface RunOptions {
  cwd: string;
  input?: string | Uint8Array;
  env?: NodeJS.ProcessEnv;
}

/** Runs any command to completion, collecting its output as UTF-8. */
export function runCommand(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", reject);
    child.on("close", (status) =>
      resolve({
        status,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
      }),
    );
    child.stdin.end(options.input ?? "");
  });
}

/** Runs `node bin/toolhost.js ...args`. */
export function runToolhost(args: readonly string[], options: RunOptions): Promise<RunResult> {
  return runCommand(process.execPath, [TOOLHOST_BIN, ...args], options);
}

/** A fresh temporary directory with `write` and `remove` helpers. */
export function tempDir(prefix: string): {
  path: string;
  write(name: string, content: string | Uint8Array): string;
  remove(): void;
} {
  const path = mkdtempSync(join(tmpdir(), `toolhost-cli-${prefix}-`));
  return {
    path,
    write(name, content) {
      writeFileSync(join(path, name), content);
      return name;
    },
    remove() {
      rmSync(path, { recursive: true, force: true });
    },
  };
}

/**
 * The byte measure computed independently of the protocol package. For JSON without floats, big
 * integers or duplicate keys, Python's compact dumps and JSON.stringify agree byte for byte (both
 * write non-ASCII as itself and escape only `"`, `\` and control characters the same way).
 */
export function referenceBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(JSON.parse(text)), "utf8");
}
