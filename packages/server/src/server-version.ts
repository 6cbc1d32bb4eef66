/** The server package's version, read once from its package.json (the same path from src/ and dist/). */

import { readFileSync } from "node:fs";

/** The `version` of @toolhost/server. */
export const SERVER_VERSION: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;
