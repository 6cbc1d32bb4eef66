/**
 * `npm run crash -- --calls N [--executors K] [--seed S] [--server-kills M] [--runner python] [--record]`:
 * runs the crash harness at scale and prints the counts. `--runner python` runs the Python runner's
 * crash executor (sdk/python) instead of ToolRunner's. `--record` writes the result into the runner's
 * page, docs/runner.md or docs/runner-python.md (between the crash-harness markers). Exits 1 when any
 * invariant was violated, 2 on a usage error.
 */

import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runCrashHarness } from "./harness.mjs";
import { DOC_MARKERS, markdownBlock, summaryLines } from "./report.mjs";

/** The page each runner's record is kept in. */
const DOCS = {
  typescript: fileURLToPath(new URL("../../../../docs/runner.md", import.meta.url)),
  python: fileURLToPath(new URL("../../../../docs/runner-python.md", import.meta.url)),
};

function parseArgs(argv) {
  const options = { calls: 1_000, executors: 2, record: false, runner: "typescript" };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined || !/^[0-9]+$/.test(next)) throw new Error(`${arg} needs a number`);
      return Number(next);
    };
    if (arg === "--calls") options.calls = value();
    else if (arg === "--executors") options.executors = value();
    else if (arg === "--seed") options.seed = value();
    else if (arg === "--server-kills") options.serverKills = value();
    else if (arg === "--record") options.record = true;
    else if (arg === "--runner") {
      options.runner = argv[++i];
      if (!(options.runner in DOCS)) throw new Error("--runner must be typescript or python");
    } else throw new Error(`unknown option ${arg}`);
  }
  if (options.calls < 10) throw new Error("--calls must be at least 10");
  return options;
}

let options;
try {
  options = parseArgs(process.argv.slice(2));
} catch (error) {
  console.error(
    `${error.message}\nusage: npm run crash -- --calls N [--executors K] [--seed S] [--server-kills M] [--runner python] [--record]`,
  );
  process.exit(2);
}

const calls = options.calls;
const result = await runCrashHarness({
  calls,
  executors: options.executors,
  seed: options.seed,
  runner: options.runner,
  activeRuns: Math.max(6, Math.min(20, Math.ceil(calls / 60))),
  killAfterMax: 12,
  serverKills: options.serverKills ?? Math.max(2, Math.round(calls / 100)),
  serverKillEveryMs: [3_000, 8_000],
  timeoutMs: 120_000 + calls * 1_500,
  log: (line) => console.log(line),
});
for (const line of summaryLines(result)) console.log(line);
if (options.record) {
  const runnerFlag = options.runner === "typescript" ? "" : ` --runner ${options.runner}`;
  const command = `npm run crash -- --calls ${calls}${options.executors === 2 ? "" : ` --executors ${options.executors}`}${runnerFlag}`;
  const DOC = DOCS[options.runner];
  const text = readFileSync(DOC, "utf8");
  const [begin, end] = DOC_MARKERS;
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${DOC} has no ${begin} … ${end} block`);
  writeFileSync(DOC, `${text.slice(0, from)}${markdownBlock(result, command)}${text.slice(to + end.length)}`);
  console.log(`recorded in ${DOC}`);
}
// The files are evidence: kept when something failed, removed otherwise.
if (result.violations.length === 0) rmSync(result.dir, { recursive: true, force: true });
else console.log(`stores and logs kept in ${result.dir}`);
process.exit(result.violations.length === 0 ? 0 : 1);
