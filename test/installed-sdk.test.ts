// The SDK as users install it: `npm pack` of @toolhost/protocol, @toolhost/runner and
// @toolhost/client holds only dist (JS and declarations), README and LICENSE; installed into an
// empty directory outside the workspace, it type-checks and runs an executor against a real server.
//
// `npm install --offline` of the tarballs needs the registry metadata of every dependency, which a
// machine set up with `npm ci` lacks (ENOTCACHED), so the test lays the tarballs out itself and copies
// each package's declared dependencies (their closure) from the workspace's node_modules.
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOOTSTRAP_SECRET, startTestServer } from "../packages/server/test/http/http-harness.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));
const fixtures = join(root, "test", "fixtures", "installed-sdk");
const PACKAGES = ["protocol", "runner", "client"] as const;
const directory = mkdtempSync(join(tmpdir(), "toolhost-installed-sdk-"));

afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Copies `name` (a dependency of the package in `from`) and its own dependencies into `modules`. */
function copyDependency(name: string, from: string, modules: string, copied: Set<string>): void {
  const nested = join(from, "node_modules", name);
  // A dependency npm nested inside its dependent came along with the dependent's copy.
  if (existsSync(nested) && from !== root) return;
  const source = join(root, "node_modules", name);
  if (copied.has(name)) return;
  copied.add(name);
  cpSync(source, join(modules, name), { recursive: true, dereference: true });
  const manifest = JSON.parse(readFileSync(join(source, "package.json"), "utf8"));
  for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
    if (existsSync(join(source, "node_modules", dependency)) || existsSync(join(root, "node_modules", dependency))) {
      copyDependency(dependency, source, modules, copied);
    }
  }
}

describe("the installed SDK", () => {
  const packed: Array<{ name: string; filename: string; files: Array<{ path: string }> }> = [];
  beforeAll(async () => {
    const { stdout } = await run(
      "npm",
      ["pack", "--json", "--pack-destination", directory, ...PACKAGES.flatMap((name) => ["-w", `@toolhost/${name}`])],
      { cwd: root, maxBuffer: 16 * 1024 * 1024 },
    );
    packed.push(...JSON.parse(stdout));
    const app = join(directory, "app");
    const modules = join(app, "node_modules");
    mkdirSync(modules, { recursive: true });
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
    const copied = new Set<string>();
    for (const tarball of packed) {
      const target = join(modules, tarball.name);
      mkdirSync(target, { recursive: true });
      await run("tar", ["-xzf", join(directory, tarball.filename), "-C", target, "--strip-components=1"]);
      const manifest = JSON.parse(readFileSync(join(target, "package.json"), "utf8"));
      for (const dependency of Object.keys(manifest.dependencies ?? {})) {
        if (!dependency.startsWith("@toolhost/")) copyDependency(dependency, root, modules, copied);
      }
    }
    cpSync(fixtures, app, { recursive: true });
  }, 180_000);

  it("packs only dist JS and declarations, README and LICENSE", () => {
    expect(packed.map((tarball) => tarball.name).sort()).toEqual([
      "@toolhost/client",
      "@toolhost/protocol",
      "@toolhost/runner",
    ]);
    for (const tarball of packed) {
      const paths = tarball.files.map((file) => file.path);
      expect(paths, tarball.name).toEqual(
        expect.arrayContaining(["README.md", "LICENSE", "package.json", "dist/index.js", "dist/index.d.ts"]),
      );
      const unexpected = paths.filter(
        (path) => !["README.md", "LICENSE", "package.json"].includes(path) && !/^dist\/.+\.(js|d\.ts)$/.test(path),
      );
      expect(unexpected, tarball.name).toEqual([]);
    }
  });

  it("type-checks against the installed declarations", async () => {
    const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
    const app = join(directory, "app");
    const options = [
      "--noEmit",
      "--strict",
      "--module",
      "nodenext",
      "--moduleResolution",
      "nodenext",
      "--target",
      "es2022",
    ];
    const result = await run(
      process.execPath,
      [tsc, ...options, "--lib", "es2023,dom", "--skipLibCheck", "check-types.ts"],
      {
        cwd: app,
      },
    ).catch((error: { stdout: string }) => ({ stdout: error.stdout, failed: true }));
    expect(result.stdout).toBe("");
  }, 180_000);

  it("runs an executor outside the workspace against a real server", async () => {
    const server = await startTestServer("sqlite");
    const app = join(directory, "app");
    const { stdout } = await run(
      process.execPath,
      ["executor.mjs", server.url, BOOTSTRAP_SECRET, join(app, "journal.db")],
      {
        cwd: app,
        env: { PATH: process.env.PATH ?? "" },
      },
    );
    expect(JSON.parse(stdout)).toEqual({ status: "completed", result: { greeting: "Hello, Ada!" } });
  }, 120_000);
});
