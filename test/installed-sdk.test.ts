// The SDK as users install it: `npm pack` of @toolhost/protocol, @toolhost/runner and
// @toolhost/client holds only dist (JS and declarations), README and LICENSE (and the runner's bin);
// installed into an empty directory outside the workspace (test/support/installed-packages.ts), it
// type-checks, runs an executor against a real server, and publishes tools with the runner's own
// `toolhost-tools` — none of it bringing the server's dependencies along.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOOTSTRAP_SECRET, startTestServer } from "../packages/server/test/http/http-harness.js";
import {
  installTarballs,
  type PackedTarball,
  packWorkspaces,
  REPOSITORY_ROOT,
  unexpectedFiles,
} from "./support/installed-packages.js";

const run = promisify(execFile);
const root = REPOSITORY_ROOT;
const fixtures = join(root, "test", "fixtures", "installed-sdk");
const PACKAGES = ["protocol", "runner", "client"] as const;
const directory = mkdtempSync(join(tmpdir(), "toolhost-installed-sdk-"));
/** What a package may ship beside README.md, LICENSE, package.json and dist's JS and declarations. */
const EXTRA_FILES: Record<string, RegExp> = {
  "@toolhost/runner": /^bin\/toolhost-tools\.js$/,
  "@toolhost/client": /^openapi\.json$/,
};
/** What the server, the model SDKs and the MCP bridge bring; an SDK install needs none of them. */
const SERVER_SIDE = ["fastify", "kysely", "pg", "openai", "@anthropic-ai/sdk", "@modelcontextprotocol/sdk", "pino"];

afterAll(() => rmSync(directory, { recursive: true, force: true }), 180_000);

describe("the installed SDK", () => {
  const packed: PackedTarball[] = [];
  let installed = new Set<string>();
  beforeAll(async () => {
    packed.push(...(await packWorkspaces(PACKAGES, directory)));
    const app = join(directory, "app");
    installed = await installTarballs(packed, directory, app);
    cpSync(fixtures, app, { recursive: true });
  }, 180_000);

  it("packs only dist JS and declarations, README and LICENSE (and the runner's bin, the client's OpenAPI document)", () => {
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
      expect(unexpectedFiles(tarball, EXTRA_FILES[tarball.name]), tarball.name).toEqual([]);
    }
  });

  it("installs without the server's dependencies", () => {
    expect(installed.has("better-sqlite3")).toBe(true);
    expect(SERVER_SIDE.filter((name) => installed.has(name))).toEqual([]);
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

  it("publishes code-first tools with the runner's own toolhost-tools", async () => {
    const server = await startTestServer("sqlite");
    const app = join(directory, "app");
    const headers = { authorization: `Bearer ${BOOTSTRAP_SECRET}`, "content-type": "application/json" };
    const binding = await fetch(`${server.url}/v1/executor-bindings`, {
      method: "POST",
      headers,
      body: JSON.stringify({ binding_id: "notes", name: "Notes" }),
    });
    expect(binding.status).toBe(201);
    const bin = join(app, "node_modules", "@toolhost", "runner", "bin", "toolhost-tools.js");
    const { stdout } = await run(
      process.execPath,
      [bin, "sync", "tools.mjs", "--url", server.url, "--key", BOOTSTRAP_SECRET, "--binding", "notes", "--name", "n"],
      { cwd: app, env: { PATH: process.env.PATH ?? "" } },
    );
    expect(JSON.parse(stdout)).toMatchObject({ version: 1, published: true });
  }, 120_000);
});
