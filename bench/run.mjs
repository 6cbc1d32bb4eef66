/**
 * `npm run bench`: runs every suite in bench/ (each directory with an index.mjs) and rewrites each
 * suite's own section of bench/RESULTS.md.
 *
 *   node --expose-gc bench/run.mjs [--quick] [SUITE…]
 *
 * SUITE filters by name (`projection`); `--quick` uses smoke-run repetitions and leaves RESULTS.md
 * untouched, so rough numbers never replace measured ones. A suite that finds a correctness mismatch
 * makes the run exit non-zero; a missed performance target does not (it is reported, not asserted).
 */

import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describeMachine } from "./lib/machine.mjs";
import { writeSection } from "./lib/results-file.mjs";
import { gcExposed } from "./lib/timing.mjs";

const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));
const RESULTS_FILE = fileURLToPath(new URL("RESULTS.md", import.meta.url));
const PROTOCOL_DIST = fileURLToPath(new URL("../packages/protocol/dist/index.js", import.meta.url));

/** Suite names: the directories of bench/ holding an index.mjs. */
function findSuites() {
  return readdirSync(BENCH_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== "lib" && existsSync(`${BENCH_DIR}${entry.name}/index.mjs`))
    .map((entry) => entry.name)
    .sort();
}

async function main(argv) {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log("usage: node --expose-gc bench/run.mjs [--quick] [SUITE…]");
    console.log(`suites: ${findSuites().join(", ")}`);
    return 0;
  }
  const quick = argv.includes("--quick");
  const unknownFlags = argv.filter((arg) => arg.startsWith("-") && arg !== "--quick");
  if (unknownFlags.length > 0) {
    console.error(`unknown option ${unknownFlags.join(" ")} (try --help)`);
    return 2;
  }
  const available = findSuites();
  const wanted = argv.filter((arg) => !arg.startsWith("-"));
  const unknown = wanted.filter((name) => !available.includes(name));
  if (unknown.length > 0) {
    console.error(`unknown suite ${unknown.join(", ")}; suites: ${available.join(", ")}`);
    return 2;
  }
  if (!existsSync(PROTOCOL_DIST)) {
    console.error(`${PROTOCOL_DIST} is missing: build first (npx tsc -b, or npm run bench which builds)`);
    return 2;
  }
  if (!gcExposed) console.warn("note: run node with --expose-gc so garbage is collected between cases");

  const machine = describeMachine();
  console.log(`node ${machine.node}, ${machine.cpu} × ${machine.cores}, python3 ${machine.python ?? "absent"}`);
  const suites = wanted.length > 0 ? available.filter((name) => wanted.includes(name)) : available;
  const started = performance.now();
  let failed = false;
  for (const name of suites) {
    const suiteStart = performance.now();
    console.log(`\n== ${name}${quick ? " (quick)" : ""} ==`);
    const suite = await import(`./${name}/index.mjs`);
    const log = (line) => console.log(line === "" ? "" : `[${name}] ${line}`);
    const { markdown, failures } = await suite.run({ quick, machine, log });
    if (failures.length > 0) failed = true;
    if (quick) console.log(`[${name}] quick run: ${RESULTS_FILE} left unchanged`);
    else {
      writeSection(RESULTS_FILE, name, markdown);
      console.log(`[${name}] wrote its section of ${RESULTS_FILE}`);
    }
    console.log(`[${name}] done in ${((performance.now() - suiteStart) / 1000).toFixed(1)} s`);
  }
  console.log(`\nall suites done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (failed) console.error("FAILED: a suite found a correctness mismatch (see above)");
  return failed ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
