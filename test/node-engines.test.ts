// The Node versions the README names are the ones every locked dependency supports, so a fresh
// `npm ci` prints no EBADENGINE on any of them: what the published packages need at run time
// (`engines` of each package.json) holds for every runtime dependency, and what developing this
// repository needs (the root's `engines`, the README's quickstart) holds for the dev tools too.
import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

const root = new URL("..", import.meta.url);
const read = (path: string) => JSON.parse(readFileSync(new URL(path, root), "utf8"));
const lock = read("package-lock.json") as {
  packages: Record<string, { version?: string; dev?: boolean; optional?: boolean; engines?: { node?: string } }>;
};
const PUBLISHED = ["protocol", "runner", "client", "server", "cli"] as const;

/** The lowest version of each of Node's lines 20, 22 and 24 that a range admits. */
function lineMinimums(range: string): string[] {
  const alternatives = new semver.Range(range).set.map((comparators) => comparators.map((c) => c.value).join(" "));
  return [20, 22, 24].flatMap((major) => {
    const lows = alternatives
      .map((alternative) => semver.minVersion(`${alternative} >=${major}.0.0 <${major + 1}.0.0-0`.trim()))
      .filter((version): version is semver.SemVer => version !== null);
    return lows.length === 0 ? [] : [lows.sort(semver.compare)[0]?.version as string];
  });
}

/** The locked packages whose `engines.node` refuses one of `versions`. */
function refusing(versions: readonly string[], include: (entry: { dev?: boolean }) => boolean): string[] {
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path !== "" && include(entry) && entry.engines?.node !== undefined)
    .flatMap(([path, entry]) =>
      versions
        .filter((version) => !semver.satisfies(version, entry.engines?.node as string))
        .map((version) => `${path}@${entry.version} wants ${entry.engines?.node}, not ${version}`),
    );
}

describe("Node versions", () => {
  it("every published package admits Node 20.10, 22 and 24, and so does each of its runtime dependencies", () => {
    const ranges = PUBLISHED.map((name) => read(`packages/${name}/package.json`).engines.node as string);
    expect(new Set(ranges).size).toBe(1);
    const minimums = lineMinimums(ranges[0] as string);
    expect(minimums).toEqual(["20.10.0", "22.0.0", "24.0.0"]);
    expect(refusing(minimums, (entry) => entry.dev !== true)).toEqual([]);
  });

  it("developing needs what the root's engines and the README say, and every dev tool admits it", () => {
    const range = read("package.json").engines.node as string;
    const minimums = lineMinimums(range);
    expect(minimums).toEqual(["20.19.0", "22.13.0", "24.0.0"]);
    const readme = readFileSync(new URL("README.md", root), "utf8");
    expect(readme).toContain("Node.js 20 (≥ 20.19), 22 (≥ 22.13) or 24");
    expect(refusing(minimums, () => true)).toEqual([]);
  });
});
