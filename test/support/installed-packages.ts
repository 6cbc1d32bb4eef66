// Packages laid out as `npm install` of their tarballs would lay them out, in a directory outside the
// workspace. `npm install --offline` of the tarballs needs the registry metadata of every dependency,
// which a machine set up with `npm ci` lacks (ENOTCACHED), so the tarballs are extracted here and each
// package's declared dependencies (their closure, resolved as Node resolves them from the workspace
// package) are copied from the workspace's node_modules to the same places below the app.
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The repository's root directory. */
export const REPOSITORY_ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** The root without its trailing separator, as `dirname` answers it. */
const ROOT_DIRECTORY = join(REPOSITORY_ROOT, ".");

/** One packed tarball, as `npm pack --json` describes it. */
export interface PackedTarball {
  readonly name: string;
  readonly filename: string;
  readonly files: ReadonlyArray<{ readonly path: string }>;
}

/** Packs the workspace packages `names` (`protocol`, `runner`, …) into `directory`. */
export async function packWorkspaces(names: readonly string[], directory: string): Promise<PackedTarball[]> {
  const { stdout } = await run(
    "npm",
    ["pack", "--json", "--pack-destination", directory, ...names.flatMap((name) => ["-w", `@toolhost/${name}`])],
    { cwd: REPOSITORY_ROOT, maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(stdout) as PackedTarball[];
}

function dependenciesOf(directory: string): string[] {
  const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8"));
  return Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies });
}

/** Where the workspace's `source` (a package directory) goes in the app: the same path below its root. */
function targetOf(source: string, app: string): string {
  const packages = join(REPOSITORY_ROOT, "packages");
  if (source.startsWith(`${packages}/`)) {
    const [workspace, ...rest] = relative(packages, source).split(sep);
    return join(app, "node_modules", "@toolhost", workspace as string, ...rest);
  }
  return join(app, relative(REPOSITORY_ROOT, source));
}

/** The directory Node's resolution finds `name` in from `from`: the nearest node_modules up to the root. */
function resolveFrom(name: string, from: string): string | undefined {
  for (let directory = from; directory.startsWith(ROOT_DIRECTORY); directory = dirname(directory)) {
    const candidate = join(directory, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (directory === ROOT_DIRECTORY) break;
  }
  return undefined;
}

/**
 * Installs `name` as the package in `from` resolves it, each package directory copied once to the
 * same place below the app (its own nested node_modules resolved in turn), then its dependencies;
 * `names` collects every package name installed. Optional dependencies missing from the workspace are
 * skipped, as npm does.
 */
function install(name: string, from: string, app: string, names: Set<string>, seen: Set<string>): void {
  const source = resolveFrom(name, from);
  if (source === undefined || seen.has(source)) return;
  seen.add(source);
  names.add(name);
  cpSync(source, targetOf(source, app), {
    recursive: true,
    dereference: true,
    filter: (path) => !relative(source, path).split(sep).includes("node_modules"),
  });
  for (const dependency of dependenciesOf(source)) install(dependency, source, app, names, seen);
}

/**
 * Extracts `tarballs` (from `directory`) into `app/node_modules` with their dependencies; answers the
 * names of the third-party packages installed. The workspace package of each tarball is where its
 * nested dependencies are found.
 */
export async function installTarballs(
  tarballs: readonly PackedTarball[],
  directory: string,
  app: string,
): Promise<Set<string>> {
  const modules = join(app, "node_modules");
  mkdirSync(modules, { recursive: true });
  if (!existsSync(join(app, "package.json"))) {
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  }
  const names = new Set<string>();
  const seen = new Set<string>();
  for (const tarball of tarballs) {
    const target = join(modules, tarball.name);
    mkdirSync(target, { recursive: true });
    await run("tar", ["-xzf", join(directory, tarball.filename), "-C", target, "--strip-components=1"]);
  }
  for (const tarball of tarballs) {
    const workspace = join(REPOSITORY_ROOT, "packages", tarball.name.replace("@toolhost/", ""));
    for (const dependency of dependenciesOf(join(modules, tarball.name))) {
      if (!dependency.startsWith("@toolhost/")) install(dependency, workspace, app, names, seen);
    }
  }
  return names;
}

/** The paths in `tarball` beyond README.md, LICENSE, package.json and dist's JS and declarations, minus `allowed`. */
export function unexpectedFiles(tarball: PackedTarball, allowed?: RegExp): string[] {
  return tarball.files
    .map((file) => file.path)
    .filter(
      (path) =>
        !["README.md", "LICENSE", "package.json"].includes(path) &&
        !/^dist\/.+\.(js|d\.ts)$/.test(path) &&
        !(allowed?.test(path) ?? false),
    );
}
