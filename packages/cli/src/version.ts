/**
 * The version `toolhost --version` prints: the CLI package's own, so it never drifts from package.json.
 */

import { readFileSync } from "node:fs";

/** The version field of @toolhost/cli's package.json (one directory up from both `src` and `dist`). */
export function cliVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
  return manifest.version;
}
