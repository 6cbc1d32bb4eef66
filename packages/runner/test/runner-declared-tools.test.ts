// A runner connects declaring the tools it registered: the server's binding diagnostics (both
// dialects) show them with the executor, and the tools_served check names a tool of the binding that
// no online executor serves.

import { expect, it } from "vitest";
import { describeEachDialect, testDatabaseUrl } from "../../server/test/support/test-databases.js";
import { api, buildWorld, expectStatus, newRunner, startTestServer } from "./support/server-world.js";

describeEachDialect("a runner declares its tools", (dialect) => {
  it("diagnostics show the registered tool names and name the tool nobody serves", async () => {
    const database = await testDatabaseUrl(dialect);
    const server = await startTestServer({ databaseUrl: database.url });
    try {
      const world = await buildWorld(server, [{ message: "done" }]);
      const runner = newRunner(world);
      runner.register("tasks.create", () => ({}), { effect: "write" });
      runner.register("tasks.read", () => ({}), { effect: "read" });
      await runner.start();
      const body = expectStatus(
        await api(server, "GET", `/v1/agents/${world.agentId}/executor-bindings/${world.bindingId}/diagnostics`),
        200,
      );
      expect(body.executors.online).toEqual([
        expect.objectContaining({ executor_id: "exec-1", tool_names: ["tasks.create", "tasks.read"] }),
      ]);
      const check = body.checks.find((c: { name: string }) => c.name === "tools_served");
      expect(check).toMatchObject({ ok: false });
      expect(check.message).toContain(`no online executor serves tool "tasks.slow" on binding "${world.bindingId}"`);
      await runner.stop();
    } finally {
      await server.close();
    }
  });
});
