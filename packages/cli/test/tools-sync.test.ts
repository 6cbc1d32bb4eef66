// `toolhost tools sync`: publishes the tools a module declares in code as a toolset version, once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolhost, tempDir } from "./run-toolhost.js";
import { type ServeProcess, startServe } from "./serve-process.js";

const dir = tempDir("tools-sync");
afterAll(() => dir.remove());
const BOOTSTRAP = "tools-sync-cli-bootstrap-secret-9";
const MODULE = new URL("./fixtures/code-first-tools.mjs", import.meta.url).pathname;

describe("toolhost tools sync", () => {
  let serve: ServeProcess;
  beforeAll(async () => {
    serve = await startServe(
      ["--port", "0", "--db", "sqlite:sync.db"],
      { TOOLHOST_BOOTSTRAP_KEY: BOOTSTRAP },
      dir.path,
    );
    const response = await fetch(`${serve.url}/v1/executor-bindings`, {
      method: "POST",
      headers: { authorization: `Bearer ${BOOTSTRAP}`, "content-type": "application/json" },
      body: JSON.stringify({ binding_id: "notes", name: "Notes" }),
    });
    expect(response.status).toBe(201);
  });
  afterAll(async () => serve?.stop());

  const sync = (...args: string[]) =>
    runToolhost(["tools", "sync", MODULE, "--url", serve.url, "--key", BOOTSTRAP, "--binding", "notes", ...args], {
      cwd: dir.path,
    });

  it("creates a toolset, then publishes nothing while the code is unchanged", async () => {
    const created = await sync("--name", "notes");
    expect(created.stderr).toBe("");
    expect(created.status).toBe(0);
    const first = JSON.parse(created.stdout);
    expect(first).toMatchObject({ version: 1, published: true });
    const again = await sync("--toolset", first.toolset_id);
    expect(JSON.parse(again.stdout)).toEqual({ toolset_id: first.toolset_id, version: 1, published: false });
    const version = await fetch(`${serve.url}/v1/toolsets/${first.toolset_id}/versions/1`, {
      headers: { authorization: `Bearer ${BOOTSTRAP}` },
    });
    const tools = ((await version.json()) as { tools: Array<Record<string, unknown>> }).tools;
    expect(tools.map((tool) => [tool.name, tool.effect])).toEqual([
      ["notes.add", "write"],
      ["notes.list", "read"],
    ]);
    expect(tools[0]).toMatchObject({ timeout_ms: 30000, input_schema: { required: ["text"] } });
  });

  it("refuses without a toolset or a name, and reports the server's refusal", async () => {
    const neither = await sync();
    expect(neither.status).toBe(2);
    expect(neither.stderr).toContain("--toolset ID or --name NAME");
    const refused = await runToolhost(
      ["tools", "sync", MODULE, "--url", serve.url, "--key", "th_wrong", "--binding", "notes", "--name", "x"],
      { cwd: dir.path },
    );
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("401");
  });
});
