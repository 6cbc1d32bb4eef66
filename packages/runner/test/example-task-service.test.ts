// The example product executor (examples/task-service) against a real server: a scripted run creates
// a task, reads the list and exports it (a deferred call finished by the service's job loop); the
// product's own table makes creation idempotent by operation key; its authorize hook refuses
// read-only subjects.
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error -- plain ESM example, no declarations.
import { runAndWait, setUpTaskService } from "../../../examples/task-service/setup.mjs";
// @ts-expect-error -- plain ESM example, no declarations.
import { createTaskService } from "../../../examples/task-service/task-service.mjs";
import { ADMIN_KEY, startTestServer, type TestServer } from "./support/server-world.js";
import { tempDir } from "./support/temp-dir.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});

async function serviceFor(bindingId: string, subject: string) {
  const made = await setUpTaskService(server.url, ADMIN_KEY, { bindingId, subject });
  const dir = tempDir();
  const service = createTaskService({
    baseUrl: server.url,
    apiKey: made.executorKey,
    executorId: `${bindingId}-exec`,
    bindingId,
    journalPath: join(dir, "journal.db"),
    tasksPath: join(dir, "tasks.db"),
    logger: "silent",
  });
  await service.start();
  return { made, service };
}

describe("examples/task-service", () => {
  it("creates, reads and exports through a scripted run", async () => {
    const { made, service } = await serviceFor("task-service-a", "user-42");
    const { run, history } = await runAndWait(server.url, ADMIN_KEY, made.sessionId);
    expect(run).toMatchObject({ status: "completed", output: "Created the task, read the list and exported it." });
    const results = history.data.filter((item: { type: string }) => item.type === "tool_result");
    expect(results.map((item: { context_preview: { result: unknown } }) => item.context_preview.result)).toEqual([
      { task_id: "1", title: "Buy milk", status: "open", created: true },
      { tasks: [{ task_id: "1", title: "Buy milk", status: "open" }], next_cursor: null },
      { export: "done", subject: "user-42", tasks: 1 },
    ]);
    // Idempotent in the product's own table: the same operation key never creates a second task.
    const again = service.store.createTask({ operationKey: `${run.run_id}:x`, subject: "user-42", title: "Once" });
    const twice = service.store.createTask({ operationKey: `${run.run_id}:x`, subject: "user-42", title: "Once" });
    expect([again.created, twice.created, twice.task.task_id]).toEqual([true, false, again.task.task_id]);
    await service.stop();
  });

  it("refuses read-only subjects through authorize, without running the handler", async () => {
    const { made, service } = await serviceFor("task-service-b", "readonly:auditor");
    const { run, history } = await runAndWait(server.url, ADMIN_KEY, made.sessionId);
    expect(run.status).toBe("completed");
    const [created] = history.data.filter((item: { type: string }) => item.type === "tool_result");
    expect(JSON.stringify(created.context_preview.result)).toContain("not_authorized");
    expect(service.store.listTasks({ subject: "readonly:auditor", cursor: undefined, limit: 10 }).tasks).toEqual([]);
    await service.stop();
  });
});
