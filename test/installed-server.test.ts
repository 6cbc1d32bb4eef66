// The server as operators install it: `npm pack` of @toolhost/server and @toolhost/cli (with the
// protocol, runner and client they depend on) holds dist's JS and declarations, README, LICENSE, the
// CLI's bin and the server's built console — no sources or source maps; installed into an empty
// directory outside the workspace, `toolhost serve` answers `/` with the console and `/v1` with the API.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installTarballs, type PackedTarball, packWorkspaces, unexpectedFiles } from "./support/installed-packages.js";

const PACKAGES = ["protocol", "runner", "client", "server", "cli"] as const;
const directory = mkdtempSync(join(tmpdir(), "toolhost-installed-server-"));
const app = join(directory, "app");

afterAll(() => rmSync(directory, { recursive: true, force: true }), 180_000);

/** What each package may ship beside README.md, LICENSE, package.json and dist's JS and declarations. */
const EXTRA_FILES: Record<string, RegExp> = {
  "@toolhost/runner": /^bin\/toolhost-tools\.js$/,
  "@toolhost/client": /^openapi\.json$/,
  "@toolhost/cli": /^bin\/toolhost\.js$/,
  "@toolhost/server": /^console\/(index\.html|assets\/[^/]+\.(js|css))$/,
};

describe("the installed server and CLI", () => {
  const packed: PackedTarball[] = [];
  beforeAll(async () => {
    packed.push(...(await packWorkspaces(PACKAGES, directory)));
    await installTarballs(packed, directory, app);
  }, 240_000);

  it("packs dist, README, LICENSE and a manifest with repository and engines; the server carries the console", () => {
    expect(packed.map((tarball) => tarball.name).sort()).toEqual(PACKAGES.map((name) => `@toolhost/${name}`).sort());
    for (const tarball of packed) {
      const paths = tarball.files.map((file) => file.path);
      expect(paths, tarball.name).toEqual(expect.arrayContaining(["README.md", "LICENSE", "package.json"]));
      expect(unexpectedFiles(tarball, EXTRA_FILES[tarball.name]), tarball.name).toEqual([]);
      const manifest = JSON.parse(
        readFileSync(join(app, "node_modules", tarball.name, "package.json"), "utf8"),
      ) as Record<string, unknown>;
      expect(manifest.repository, tarball.name).toMatchObject({ type: "git", directory: expect.any(String) });
      expect(manifest.engines, tarball.name).toEqual({ node: expect.stringContaining("20.10") });
      expect(readFileSync(join(app, "node_modules", tarball.name, "README.md"), "utf8"), tarball.name).toContain(
        "ESM only",
      );
    }
    const server = packed.find((tarball) => tarball.name === "@toolhost/server");
    expect(server?.files.map((file) => file.path)).toContain("console/index.html");
  });

  it("serves the console at / and the API under /v1 from the installed packages", async () => {
    const bin = join(app, "node_modules", "@toolhost", "cli", "bin", "toolhost.js");
    const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--db", "sqlite:installed.db"], {
      cwd: app,
      env: { PATH: process.env.PATH ?? "", TOOLHOST_BOOTSTRAP_KEY: "installed-server-bootstrap-secret" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once("line", resolve);
        child.once("exit", (code) => reject(new Error(`toolhost serve exited with ${code}: ${stderr}`)));
      });
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toContain("text/html");
      const html = await page.text();
      expect(html).not.toContain("console is not built");
      const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      expect((await fetch(`${url}${script}`)).status).toBe(200);
      const health = await fetch(`${url}/v1/health`);
      expect(await health.json()).toEqual({ status: "ok" });
    } finally {
      child.kill("SIGTERM");
    }
  }, 60_000);
});
