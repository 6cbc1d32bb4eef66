// Code-first tools against a real server: `runner.tool()` declares a tool once (its TypeBox schema
// types the handler's arguments), `publishToolset()` publishes the definitions as a toolset (and
// publishes nothing when the latest version already says the same), and a run calls the tool.
import { join } from "node:path";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { RunnerError, ToolRunner } from "../src/index.js";
import { ADMIN_KEY, api, expectStatus, startTestServer } from "./support/server-world.js";
import { tempDir } from "./support/temp-dir.js";

describe("code-first tools", () => {
  it("declares, publishes and serves a tool from code", async () => {
    const server = await startTestServer();
    expectStatus(await api(server, "POST", "/v1/executor-bindings", { binding_id: "notes", name: "Notes" }), 201);
    const key = expectStatus(
      await api(server, "POST", "/v1/keys", { name: "notes", scopes: ["executors:connect", "tools:execute"] }),
      201,
    );
    const runner = new ToolRunner({
      baseUrl: server.url,
      apiKey: key.key,
      executorId: "notes-1",
      bindingIds: ["notes"],
      journalPath: join(tempDir(), "journal.db"),
      logger: "silent",
    });
    const seen: string[] = [];
    runner.tool(
      {
        name: "notes.add",
        description: "Adds a note.",
        inputSchema: Type.Object({ text: Type.String(), pinned: Type.Optional(Type.Boolean()) }),
        effect: "write",
        timeoutMs: 30_000,
        maxResultContextBytes: 2_048,
      },
      (call) => {
        // Typed from the schema: `text` is a string, `pinned` an optional boolean.
        const text: string = call.arguments.text;
        const pinned: boolean | undefined = call.arguments.pinned;
        seen.push(text);
        return { note: text, pinned: pinned ?? false };
      },
    );
    expect(runner.toolsetDefinition()).toEqual([
      {
        name: "notes.add",
        description: "Adds a note.",
        binding_id: "notes",
        input_schema: {
          type: "object",
          properties: { text: { type: "string" }, pinned: { type: "boolean" } },
          required: ["text"],
        },
        effect: "write",
        timeout_ms: 30_000,
        max_result_context_bytes: 2_048,
      },
    ]);

    // The executor key may not publish; an admin key may.
    await expect(runner.publishToolset({ name: "notes" })).rejects.toSatisfy(
      (error) => error instanceof RunnerError && error.code === "publish_refused",
    );
    const first = await runner.publishToolset({ name: "notes", apiKey: ADMIN_KEY });
    expect(first).toMatchObject({ version: 1, published: true });
    const again = await runner.publishToolset({ toolsetId: first.toolsetId, apiKey: ADMIN_KEY });
    expect(again).toEqual({ toolsetId: first.toolsetId, version: 1, published: false });

    const agent = expectStatus(await api(server, "POST", "/v1/agents", { name: "notes" }), 201);
    const version = expectStatus(
      await api(server, "POST", `/v1/agents/${agent.agent_id}/versions`, {
        toolset_id: first.toolsetId,
        toolset_version: first.version,
        model: {
          provider: "scripted",
          script: [{ tool_calls: [{ name: "notes.add", arguments: { text: "hello" } }] }, { message: "Added." }],
        },
      }),
      201,
    );
    const session = expectStatus(
      await api(server, "POST", "/v1/sessions", { agent_version: version.agent_version, subject: "u-1" }),
      201,
    );
    await runner.start();
    const run = expectStatus(await api(server, "POST", `/v1/sessions/${session.session_id}/runs`, { input: "x" }), 201);
    let status = run.status;
    for (let attempt = 0; attempt < 400 && status !== "completed" && status !== "failed"; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      status = expectStatus(await api(server, "GET", `/v1/runs/${run.run_id}`), 200).status;
    }
    expect(status).toBe("completed");
    expect(seen).toEqual(["hello"]);
    await runner.stop();

    // A changed definition publishes the next version.
    const changed = new ToolRunner({
      baseUrl: server.url,
      apiKey: key.key,
      executorId: "notes-2",
      bindingIds: ["notes"],
      journalPath: join(tempDir(), "journal.db"),
      logger: "silent",
    });
    changed.tool(
      { name: "notes.add", inputSchema: Type.Object({ text: Type.String() }), effect: "write" },
      (call) => call.arguments.text,
    );
    expect(await changed.publishToolset({ toolsetId: first.toolsetId, apiKey: ADMIN_KEY })).toEqual({
      toolsetId: first.toolsetId,
      version: 2,
      published: true,
    });
  });

  it("requires a bindingId when the runner serves several bindings", () => {
    const runner = new ToolRunner({
      baseUrl: "http://127.0.0.1:9",
      apiKey: "th_x",
      executorId: "x",
      bindingIds: ["a", "b"],
      journalPath: join(tempDir(), "journal.db"),
      logger: "silent",
    });
    runner.tool({ name: "t", inputSchema: Type.Object({}), effect: "read" }, () => null);
    expect(() => runner.toolsetDefinition()).toThrow(/bindingId is required/);
  });
});
