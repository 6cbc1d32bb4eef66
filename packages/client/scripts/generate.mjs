/**
 * `npm run generate -w @toolhost/client`: starts `toolhost serve` (the compiled build: run
 * `npm run build` first) on a throwaway SQLite database, reads `GET /v1/openapi.json`, and writes
 * `openapi.json` and `src/generated/openapi.ts`. Commit both; a test fails when they are stale.
 */

import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { withScratchServer } from "../../server/scripts/scratch-server.mjs";
import { openapiTypes } from "./openapi-types.mjs";

const here = dirname(fileURLToPath(import.meta.url));
// The committed document names the default address, not the scratch server's port.
await withScratchServer({ TOOLHOST_PUBLIC_URL: "http://127.0.0.1:8080" }, async (baseUrl) => {
  const document = await (await fetch(`${baseUrl}/v1/openapi.json`)).json();
  writeFileSync(join(here, "..", "openapi.json"), `${JSON.stringify(document, null, 2)}\n`);
  writeFileSync(join(here, "..", "src", "generated", "openapi.ts"), await openapiTypes(document));
  console.log("wrote openapi.json and src/generated/openapi.ts");
});
