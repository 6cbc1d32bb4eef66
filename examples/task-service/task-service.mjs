/**
 * The task service's executor: a ToolRunner serving three tools of the `task-service` binding.
 *
 * - `tasks.create` (write): creates a task, idempotent by the operation key in the product's table.
 *   `authorize` is the product's own per-call check (here: read-only subjects may not create tasks);
 *   an empty title is a confirmed business failure (BusinessError → `failed`). Its resolver answers
 *   reconciliation by looking the operation key up.
 * - `tasks.read` (read): one page of the subject's tasks; may simply run again after a crash.
 * - `tasks.export` (write, long-running): defers the call; a job loop finishes it later with
 *   `runner.complete(handleId, result)` — any process sharing the journal could.
 */

import { BusinessError, ToolRunner } from "@toolhost/runner";
import { openTaskStore } from "./task-store.mjs";

/** Builds the runner and the store; nothing connects until `runner.start()`. */
export function createTaskService({ baseUrl, apiKey, executorId, bindingId, journalPath, tasksPath, logger = "info" }) {
  const store = openTaskStore(tasksPath);
  const runner = new ToolRunner({ baseUrl, apiKey, executorId, bindingIds: [bindingId], journalPath, logger });

  runner.register(
    "tasks.create",
    (call, ctx) => {
      const title = String(call.arguments.title ?? "").trim();
      if (title === "") throw new BusinessError("invalid_title", "a task needs a non-empty title");
      const { task, created } = store.createTask({ operationKey: ctx.operationKey, subject: call.subject, title });
      return { task_id: String(task.task_id), title: task.title, status: task.status, created };
    },
    { effect: "write", authorize: (call) => !call.subject.startsWith("readonly:") },
  );

  runner.onReconcile("tasks.create", (_call, operationKey) => {
    const task = store.taskByOperationKey(operationKey);
    if (task === undefined) return { kind: "failed", error: { code: "not_applied", message: "no task was created" } };
    return { kind: "completed", result: { task_id: String(task.task_id), title: task.title, status: task.status } };
  });

  runner.register(
    "tasks.read",
    (call) => {
      const limit = Math.min(Math.max(Number(call.arguments.limit ?? 20), 1), 100);
      const page = store.listTasks({ subject: call.subject, cursor: call.arguments.cursor, limit });
      return {
        tasks: page.tasks.map((task) => ({ task_id: String(task.task_id), title: task.title, status: task.status })),
        next_cursor: page.next_cursor,
      };
    },
    { effect: "read" },
  );

  runner.register(
    "tasks.export",
    (call, ctx) => {
      const handle = ctx.defer();
      store.queueExport({ handleId: handle.id, subject: call.subject });
      return handle;
    },
    { effect: "write" },
  );

  // The export worker: finishes queued exports (here every 200 ms; a real one would be a job queue).
  let timer;
  const work = async () => {
    for (const job of store.queuedExports()) {
      const result = store.finishExport(job.handle_id);
      await runner.complete(job.handle_id, { export: "done", ...result }).catch(() => undefined);
    }
  };
  const startWorker = () => {
    timer = setInterval(() => void work(), 200);
  };
  const stopWorker = () => clearInterval(timer);

  return {
    runner,
    store,
    /** Starts the runner and the export worker. */
    async start() {
      await runner.start();
      startWorker();
    },
    /** Stops the worker, drains the runner (detaching) and closes the store. */
    async stop() {
      stopWorker();
      await runner.stop();
      store.close();
    },
  };
}
