/**
 * bench/scale: cost that does not grow with the work (issue #19). Each case module in `cases/`
 * (imported in name order) measures one curve on both dialects and exports
 * `async function run({ quick, log })` answering `{ markdown, failures }`; this suite concatenates
 * their sections. Target of every curve: its largest case within 2× of its smallest (ratios printed).
 */

import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { machineLines } from "../lib/machine.mjs";

/** The suite's name: its directory and its RESULTS.md section. */
export const name = "scale";

const CASES_DIR = fileURLToPath(new URL("cases/", import.meta.url));

/** Runs every case module; answers the suite's markdown and every case's failures. */
export async function run({ quick, machine, log }) {
  const files = readdirSync(CASES_DIR)
    .filter((file) => file.endsWith(".mjs"))
    .sort();
  const sections = [];
  const failures = [];
  for (const file of files) {
    const label = file.replace(/\.mjs$/, "");
    log(`case ${label}`);
    const module = await import(new URL(`cases/${file}`, import.meta.url).href);
    const outcome = await module.run({ quick, log: (line) => log(line === "" ? "" : `${label}: ${line}`) });
    sections.push(outcome.markdown);
    failures.push(...outcome.failures);
  }
  const head = [
    "## scale: cost that does not grow with the work",
    "",
    "Cost that does not grow with the work: each curve's largest case should stay within 2× of its smallest.",
    "",
    ...machineLines(machine),
    quick ? "\n(quick run: smoke-test sizes)" : "",
  ];
  return { markdown: [...head, "", sections.map((section) => section.trim()).join("\n\n")].join("\n"), failures };
}
