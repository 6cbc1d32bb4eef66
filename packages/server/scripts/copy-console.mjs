// `prepack`: copies the console's build (packages/console/dist) into this package's console/ folder,
// so `npm install @toolhost/server` (or @toolhost/cli) serves the console at `/` with nothing to build.
import { cpSync, existsSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const source = fileURLToPath(new URL("../../console/dist", import.meta.url));
const target = fileURLToPath(new URL("../console", import.meta.url));
if (!existsSync(`${source}/index.html`)) {
  console.error(`${source}/index.html is missing: build the console first (npm run build -w @toolhost/console)`);
  process.exit(1);
}
rmSync(target, { recursive: true, force: true });
cpSync(source, target, { recursive: true });
console.error(`copied the console's build into ${target}`);
