// Connect declares the tools an executor runs (`tool_names`): stored with the connection, shown with
// each online executor in binding diagnostics, and checked there — `tools_served` names every tool on
// the binding that no online executor serves. An executor that declares nothing (an older one) is
// assumed to serve every tool. Bad declarations are refused with 422 and change nothing.
import { EXECUTOR_TOOL_NAMES_MAX } from "@toolhost/protocol/wire";
import { expect, it } from "vitest";
import { BOOTSTRAP_SECRET } from "../http/http-harness.js";
import { describeEachDialect } from "../support/test-databases.js";
import { type ExecutorServer, startExecutorServer } from "./executor-harness.js";

async function connectDeclaring(server: ExecutorServer, executorId: string, toolNames?: unknown) {
  return server.call("POST", "/v1/executors/connect", {
    key: server.key,
    body: {
      executor_id: executorId,
      binding_ids: ["b1"],
      ...(toolNames === undefined ? {} : { tool_names: toolNames }),
    },
  });
}

async function diagnostics(server: ExecutorServer) {
  const answer = await server.call("GET", "/v1/agents/a1/executor-bindings/b1/diagnostics", { key: BOOTSTRAP_SECRET });
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

function toolsServed(body: { checks: Array<{ name: string; ok: boolean; message: string }> }) {
  return body.checks.find((check) => check.name === "tools_served");
}

describeEachDialect("executors declare their tools", (dialect) => {
  it("diagnostics show each online executor's tools and name a tool no online executor serves", async () => {
    const server = await startExecutorServer(dialect);
    try {
      // Binding b1 carries tool_0 (the fixture's toolset).
      expect((await diagnostics(server)).tools.map((tool: { name: string }) => tool.name)).toEqual(["tool_0"]);
      expect(toolsServed(await diagnostics(server))).toEqual({
        name: "tools_served",
        ok: false,
        message: expect.stringMatching(
          /^no online executor serves tool "tool_0" on binding "b1" \(no executor is online\)/,
        ),
      });

      const first = await connectDeclaring(server, "e-declared", ["tool_0", "reports.export"]);
      expect(first.status, first.text).toBe(200);
      let body = await diagnostics(server);
      expect(body.executors.online).toEqual([
        expect.objectContaining({ executor_id: "e-declared", tool_names: ["tool_0", "reports.export"] }),
      ]);
      expect(toolsServed(body)).toEqual({
        name: "tools_served",
        ok: true,
        message: 'every tool on binding "b1" has an online executor: tool_0 (e-declared)',
      });

      // A reconnect declares again: its new list replaces the old one.
      expect((await connectDeclaring(server, "e-declared", ["reports.export"])).status).toBe(200);
      body = await diagnostics(server);
      expect(body.executors.online[0].tool_names).toEqual(["reports.export"]);
      expect(toolsServed(body)).toMatchObject({
        ok: false,
        message: expect.stringContaining(
          'no online executor serves tool "tool_0" on binding "b1" (e-declared serves reports.export)',
        ),
      });

      // An executor that declares nothing is shown with null and assumed to serve every tool.
      expect((await connectDeclaring(server, "e-older")).status).toBe(200);
      body = await diagnostics(server);
      const older = body.executors.online.find((e: { executor_id: string }) => e.executor_id === "e-older");
      expect(older.tool_names).toBeNull();
      expect(toolsServed(body)).toMatchObject({
        ok: true,
        message: expect.stringContaining("e-older declared no tools and are assumed to serve every tool"),
      });
      expect((await server.server.storage.executors.get("e-older"))?.tool_names).toBeNull();
      expect((await server.server.storage.executors.get("e-declared"))?.tool_names).toEqual(["reports.export"]);
    } finally {
      await server.close();
    }
  });

  it("refuses a bad declaration with 422 at its pointer and keeps the stored connection", async () => {
    const server = await startExecutorServer(dialect);
    try {
      expect((await connectDeclaring(server, "e1", ["tool_0"])).status).toBe(200);
      const before = await server.server.storage.executors.get("e1");
      const tooMany = Array.from({ length: EXECUTOR_TOOL_NAMES_MAX + 1 }, (_, i) => `tool_${i}`);
      for (const [toolNames, pointer] of [
        [["tool 0"], "/tool_names/0"],
        [["tool_0", ""], "/tool_names/1"],
        [["tool_0", "tool_0"], "/tool_names"],
        [tooMany, "/tool_names"],
        ["tool_0", "/tool_names"],
      ] as const) {
        const answer = await connectDeclaring(server, "e1", toolNames);
        expect(answer.status, answer.text).toBe(422);
        expect(answer.body.error).toMatchObject({ code: "validation_failed", pointer });
      }
      expect(await server.server.storage.executors.get("e1")).toEqual(before);
    } finally {
      await server.close();
    }
  });
});
