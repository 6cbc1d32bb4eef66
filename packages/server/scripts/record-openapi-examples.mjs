/**
 * `npm run openapi:examples`: starts `toolhost serve` (the compiled build) on a fresh SQLite database,
 * runs the tour of `openapi-exchanges.mjs` against it and writes the exchanges to
 * `src/http/openapi-examples.ts`, where the OpenAPI document takes its examples from. Run
 * `npm run build` first; review the diff and commit it.
 */

import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tourExchanges } from "./openapi-exchanges.mjs";
import { withScratchServer } from "./scratch-server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const target = join(here, "..", "src", "http", "openapi-examples.ts");
const adminKey = "openapi-examples-bootstrap-key-4b8e2d";

await withScratchServer({ TOOLHOST_BOOTSTRAP_KEY: adminKey }, async (baseUrl) => {
  const exchanges = await tourExchanges(baseUrl, adminKey);
  const text = `/**
 * Request and answer examples of the OpenAPI document, recorded from real exchanges with a started
 * server by \`npm run openapi:examples\` (do not edit by hand); \`openapi-examples.test.ts\` replays them.
 */

/** One recorded exchange of an operation. */
export interface RecordedExchange {
  readonly operationId: string;
  readonly method: string;
  /** The concrete path requested. */
  readonly path: string;
  /** The request body sent (absent for none). */
  readonly request?: unknown;
  readonly status: number;
  /** The answer: parsed JSON, or the text of another media type. */
  readonly response: unknown;
}

/** The exchanges of the tour, in order. */
export const RECORDED_EXCHANGES: readonly RecordedExchange[] = ${JSON.stringify(exchanges, null, 2)};
`;
  writeFileSync(target, text);
  console.log(`recorded ${exchanges.length} exchanges into ${target}`);
});
