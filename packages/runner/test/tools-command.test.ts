// `toolhost-tools sync`, the runner's own command (the compiled bin, as an installed package runs it):
// it publishes a module's code-first tools with only @toolhost/runner installed.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_KEY, api, expectStatus, startTestServer, type TestServer } from "./support/server-world.js";

const BIN = fileURLToPath(new URL("../bin/toolhost-tools.js", import.meta.url));
const MODULE = fileURLToPath(new URL("./fixtures/code-first-tools.mjs", import.meta.url));

interface Finished {
  status: number | null;
  stdout: string;
  stderr: string;
}

function runBin(args: string[], env: Record<string, string> = {}): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("toolhost-tools sync", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    expectStatus(await api(server, "POST", "/v1/executor-bindings", { binding_id: "notes", name: "Notes" }), 201);
  });
  afterAll(async () => server?.close());

  it("publishes a new toolset, then nothing while the code is unchanged (key and URL from the environment)", async () => {
    const env = { TOOLHOST_URL: server.url, TOOLHOST_API_KEY: ADMIN_KEY };
    const created = await runBin(["sync", MODULE, "--binding", "notes", "--name", "notes"], env);
    expect(created.stderr).toBe("");
    expect(created.status).toBe(0);
    const first = JSON.parse(created.stdout);
    expect(first).toMatchObject({ version: 1, published: true });
    const again = await runBin(["sync", MODULE, "--binding", "notes", "--toolset", first.toolset_id], env);
    expect(JSON.parse(again.stdout)).toEqual({ toolset_id: first.toolset_id, version: 1, published: false });
    const version = expectStatus(await api(server, "GET", `/v1/toolsets/${first.toolset_id}/versions/1`), 200);
    expect(version.tools.map((tool: { name: string; effect: string }) => [tool.name, tool.effect])).toEqual([
      ["notes.add", "write"],
    ]);
  });

  it("says what is wrong: usage (2), a refused key (1), an unreachable server (1)", async () => {
    const usage = await runBin(["sync", MODULE, "--binding", "notes"], { TOOLHOST_API_KEY: ADMIN_KEY });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("--toolset ID or --name NAME");
    const unknownFlag = await runBin(["sync", MODULE, "--bindings", "x"]);
    expect(unknownFlag.status).toBe(2);
    expect(unknownFlag.stderr).toContain("usage: toolhost-tools sync");
    const refused = await runBin(
      ["sync", MODULE, "--url", server.url, "--key", "th_wrong", "--binding", "notes", "--name", "x"],
      {},
    );
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^toolhost-tools: .*401/);
    const unreachable = await runBin(
      ["sync", MODULE, "--url", "http://127.0.0.1:9", "--key", ADMIN_KEY, "--binding", "notes", "--name", "x"],
      {},
    );
    expect(unreachable.status).toBe(1);
    expect(unreachable.stderr).toContain("cannot reach http://127.0.0.1:9");
  });
});
