/**
 * `npm run generate -w @toolhost/client`: starts `toolhost serve` (the compiled build: run
 * `npm run build` first) on a throwaway SQLite database, reads `GET /v1/openapi.json`, and writes
 * `openapi.json` and `src/generated/openapi.ts`. Commit both; a test fails when they are stale.
 */

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { openapiTypes } from "./openapi-types.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..", "..");
const directory = mkdtempSync(join(tmpdir(), "toolhost-client-generate-"));
const server = spawn(
  process.execPath,
  [
    join(root, "packages/cli/bin/toolhost.js"),
    "serve",
    "--db",
    `sqlite:${join(directory, "db.sqlite")}`,
    "--port",
    "0",
  ],
  { env: { ...process.env, TOOLHOST_LOG_LEVEL: "warn" }, stdio: ["ignore", "pipe", "inherit"] },
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
  const document = await (await fetch(`${baseUrl}/v1/openapi.json`)).json();
  writeFileSync(join(here, "..", "openapi.json"), `${JSON.stringify(document, null, 2)}\n`);
  writeFileSync(join(here, "..", "src", "generated", "openapi.ts"), await openapiTypes(document));
  console.log("wrote openapi.json and src/generated/openapi.ts");
} finally {
  server.kill("SIGTERM");
  await new Promise((resolve) => server.once("exit", resolve));
  rmSync(directory, { recursive: true, force: true });
}
