/**
 * The console's build: the copy an installed package ships in its `console/` folder (made by its
 * `prepack`), else the console package's build output in the repository (src/options/ and
 * dist/options/ sit at the same depth, so both resolve from either).
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const SHIPPED_CONSOLE_DIRECTORY = fileURLToPath(new URL("../../console", import.meta.url));
const CHECKOUT_CONSOLE_DIRECTORY = fileURLToPath(new URL("../../../console/dist", import.meta.url));

/** The console served at `/` unless `consoleDirectory` names another (or null, none). */
export const BUNDLED_CONSOLE_DIRECTORY = existsSync(join(SHIPPED_CONSOLE_DIRECTORY, "index.html"))
  ? SHIPPED_CONSOLE_DIRECTORY
  : CHECKOUT_CONSOLE_DIRECTORY;
