/**
 * bench/floor's baseline: an older commit of this repository (BENCH_BASELINE_REF) checked out into a
 * temporary directory (`git worktree add --detach`), built there (`tsc -b`) on this checkout's
 * node_modules — linked, never installed: no network — so its `toolhost serve` can be measured in the
 * same run as today's. The ref's package-lock.json must resolve every package it names to the version
 * installed here (packages added since do not matter: the ref never loads them); otherwise the
 * baseline is skipped with the differences as the reason. `remove()` deletes the directory and the
 * worktree's entry again (the suite calls it in a `finally`; SIGINT and SIGTERM call it too).
 */

import { execFileSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const TSC = join(REPO, "node_modules/typescript/bin/tsc");
const BUILD_TIMEOUT_MS = 600_000;

/**
 * The packages `refLock` (a package-lock.json, v2/v3) installs that `currentLock` does not install at
 * the same path and version, or installs otherwise (a workspace link instead of a package): one line
 * each, empty when this checkout's node_modules serves the ref as it is.
 * @param {{ packages?: Record<string, { version?: string, link?: boolean, resolved?: string }> }} refLock
 * @param {{ packages?: Record<string, { version?: string, link?: boolean, resolved?: string }> }} currentLock
 * @returns {string[]}
 */
export function lockDifferences(refLock, currentLock) {
  if (refLock.packages === undefined) return ["the ref's package-lock.json has no `packages` (lockfile v1)"];
  const current = currentLock.packages ?? {};
  const differences = [];
  for (const [path, wanted] of Object.entries(refLock.packages)) {
    if (!path.includes("node_modules/")) continue;
    const installed = current[path];
    if (installed === undefined) differences.push(`${path} ${wanted.version ?? wanted.resolved}: not installed here`);
    else if (wanted.link === true || installed.link === true) {
      if (wanted.link !== installed.link || wanted.resolved !== installed.resolved) {
        differences.push(`${path}: ${describe(wanted)} there, ${describe(installed)} here`);
      }
    } else if (wanted.version !== installed.version) {
      differences.push(`${path}: ${wanted.version} there, ${installed.version} here`);
    }
  }
  return differences;
}

const describe = (entry) => (entry.link === true ? `a link to ${entry.resolved}` : (entry.version ?? "?"));

/**
 * Checks `ref` out and builds it. Answers `{ sha, bin, dir, buildMs, remove }` when it is ready, or
 * `{ sha?, problem }` (nothing left behind) when it cannot be measured here.
 * @param {string} ref @param {(line: string) => void} log
 */
export async function prepareBaseline(ref, log) {
  let sha;
  try {
    sha = git(["rev-parse", "--verify", "--end-of-options", `${ref}^{commit}`]).trim();
  } catch (error) {
    return { problem: `${ref} is not a commit here (${firstLine(error)})` };
  }
  let refLock;
  try {
    refLock = JSON.parse(git(["show", `${sha}:package-lock.json`]));
  } catch (error) {
    return { sha, problem: `${ref} has no readable package-lock.json (${firstLine(error)})` };
  }
  const differences = lockDifferences(refLock, JSON.parse(readFileSync(join(REPO, "package-lock.json"), "utf8")));
  if (differences.length > 0) {
    const shown = differences.slice(0, 5).join("; ");
    return {
      sha,
      problem: `its package-lock.json needs packages this node_modules does not hold (${differences.length}: ${shown}${differences.length > 5 ? "; …" : ""}); install them in a checkout of ${ref} instead`,
    };
  }
  const dir = mkdtempSync(join(tmpdir(), "toolhost-baseline-"));
  let added = false;
  // Interrupted (Ctrl-C), the suite's `finally` never runs: remove the checkout before exiting.
  const interrupted = (signal) => {
    remove();
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("SIGINT", interrupted).once("SIGTERM", interrupted);
  const remove = () => {
    process.off("SIGINT", interrupted).off("SIGTERM", interrupted);
    // node_modules first (links only; rmSync never follows them), then the worktree and its entry.
    rmSync(join(dir, "node_modules"), { recursive: true, force: true });
    if (added) {
      try {
        git(["worktree", "remove", "--force", dir]);
      } catch (error) {
        log(`git worktree remove ${dir} failed (${firstLine(error)}); removing the directory`);
      }
    }
    rmSync(dir, { recursive: true, force: true });
    if (added) git(["worktree", "prune"]);
  };
  try {
    git(["worktree", "add", "--detach", dir, sha]);
    added = true;
    linkNodeModules(REPO, dir);
    log(`baseline ${ref} (${sha.slice(0, 10)}) checked out in ${dir}; building it (tsc -b)`);
    const started = performance.now();
    execFileSync(process.execPath, [TSC, "-b"], { cwd: dir, stdio: "pipe", timeout: BUILD_TIMEOUT_MS });
    const buildMs = performance.now() - started;
    const bin = join(dir, "packages/cli/bin/toolhost.js");
    if (!existsSync(bin)) throw new Error(`${ref} has no packages/cli/bin/toolhost.js`);
    return { sha, bin, dir, buildMs, remove };
  } catch (error) {
    remove();
    const output = error?.stdout?.toString?.().trim().split("\n").slice(-5).join(" ") ?? "";
    return { sha, problem: `could not build it: ${firstLine(error)}${output === "" ? "" : ` (${output})`}` };
  }
}

function git(args) {
  return execFileSync("git", args, { cwd: REPO, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

function firstLine(error) {
  const text = error?.stderr?.toString?.().trim() || (error instanceof Error ? error.message : String(error));
  return text.split("\n")[0];
}

/**
 * Gives the checkout in `target` this checkout's node_modules: a directory of links to each installed
 * package, the workspace links (`@toolhost/server` → `../../packages/server`) made again relative, so
 * they name the baseline's own packages; and each workspace's own node_modules linked as it is.
 */
function linkNodeModules(repo, target) {
  const from = join(repo, "node_modules");
  const to = join(target, "node_modules");
  mkdirSync(to);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const scoped = entry.name.startsWith("@") && entry.isDirectory();
    if (scoped && readdirSync(source).some((name) => workspaceLink(repo, join(source, name)) !== undefined)) {
      mkdirSync(join(to, entry.name));
      for (const name of readdirSync(source)) linkPackage(repo, join(source, name), join(to, entry.name, name));
    } else linkPackage(repo, source, join(to, entry.name));
  }
  for (const workspace of readdirSync(join(repo, "packages"))) {
    const own = join(repo, "packages", workspace, "node_modules");
    if (existsSync(own) && existsSync(join(target, "packages", workspace))) {
      symlinkSync(own, join(target, "packages", workspace, "node_modules"));
    }
  }
}

/** A link to `source`, or the same relative link when `source` is a workspace link. */
function linkPackage(repo, source, destination) {
  const relativeTarget = workspaceLink(repo, source);
  symlinkSync(relativeTarget ?? source, destination);
}

/** The relative target of `path` when it is a link into the checkout outside node_modules, else undefined. */
function workspaceLink(repo, path) {
  if (!lstatSync(path).isSymbolicLink()) return undefined;
  const target = readlinkSync(path);
  if (isAbsolute(target)) return undefined;
  const inside = relative(repo, resolve(dirname(path), target));
  return inside.startsWith("..") || inside.startsWith("node_modules") ? undefined : target;
}
