/**
 * `npm run docs:options`: rewrites the server options table of docs/operations.md (between its marker
 * comments) from the option declarations, through the compiled build (the root script runs `tsc -b`
 * first). Review the diff and commit it; `options-docs.test.ts` fails while the page is stale.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { withServerOptionsTable } from "../dist/options/options-markdown.js";

const page = fileURLToPath(new URL("../../../docs/operations.md", import.meta.url));
const before = readFileSync(page, "utf8");
const after = withServerOptionsTable(before);
if (after === before) {
  console.error(`${page}: the options table is up to date`);
} else {
  writeFileSync(page, after);
  console.error(`${page}: rewrote the options table`);
}
