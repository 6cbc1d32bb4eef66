// Tests that run the real `toolhost` binary need the compiled output to match the sources, and the
// console's browser tests need its build: compile (incremental, so cheap when nothing changed) and
// rebuild the console when a source is newer than its build, before any test file runs.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const consoleDir = join(root, "packages", "console");

/** The newest modification time under `path` (a file or a directory), in milliseconds. */
function newestMs(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMs(join(path, name))));
}

/** True when the console's build is missing or older than its sources. */
function consoleStale(): boolean {
  const built = join(consoleDir, "dist", "index.html");
  if (!existsSync(built)) return true;
  const sources = ["src", "index.html", "vite.config.ts", "package.json"].map((name) => join(consoleDir, name));
  return Math.max(...sources.map(newestMs)) > statSync(built).mtimeMs;
}

/** Compiles every package with `tsc -b`, then builds the console if it is stale. */
export default function setup(): void {
  execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-b"], { cwd: root, stdio: "inherit" });
  if (consoleStale()) {
    execFileSync(
      process.execPath,
      [join(root, "node_modules", "vite", "bin", "vite.js"), "build", "--logLevel", "warn"],
      {
        cwd: consoleDir,
        stdio: "inherit",
      },
    );
  }
}
