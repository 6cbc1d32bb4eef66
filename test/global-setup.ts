// Tests that run the real `toolhost` binary need the compiled output to match the sources:
// build once (incremental, so cheap when nothing changed) before any test file runs.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Compiles every package with `tsc -b` before the test run. */
export default function setup(): void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-b"], { cwd: root, stdio: "inherit" });
}
