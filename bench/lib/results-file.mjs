/**
 * bench/RESULTS.md: every suite owns the section between `<!-- bench:NAME:start -->` and
 * `<!-- bench:NAME:end -->` and rewrites only that, so suites run separately do not clobber each other.
 */

import { existsSync, readFileSync, writeFileSync } from "node:fs";

const HEADER = [
  "# Benchmark results",
  "",
  "Written by `npm run bench` (`node --expose-gc bench/run.mjs`); each suite rewrites only its own section.",
  "Each section records when and on what it was measured; compare ratios, not absolute speeds, across machines.",
  "",
].join("\n");

/** Replaces (or appends) the section of `suite` in the results file with `markdown`. */
export function writeSection(file, suite, markdown) {
  const start = `<!-- bench:${suite}:start -->`;
  const end = `<!-- bench:${suite}:end -->`;
  const section = `${start}\n${markdown.trim()}\n${end}`;
  const current = existsSync(file) ? readFileSync(file, "utf8") : `${HEADER}\n`;
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  let next;
  if (from !== -1 && to > from) {
    next = current.slice(0, from) + section + current.slice(to + end.length);
  } else {
    if (from !== -1 || to !== -1) throw new Error(`${file}: the markers of section "${suite}" are broken`);
    next = `${current.trimEnd()}\n\n${section}\n`;
  }
  writeFileSync(file, next);
}
