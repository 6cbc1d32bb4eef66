/**
 * Runs the task service's executor until SIGINT/SIGTERM:
 *
 *   TOOLHOST_URL=http://127.0.0.1:8080 TOOLHOST_API_KEY=th_… node examples/task-service/main.mjs
 *
 * Optional: EXECUTOR_ID (task-service-1), BINDING_ID (task-service), JOURNAL_PATH
 * (./task-service.journal.db), TASKS_PATH (./tasks.db), LOG_LEVEL (info). `setup.mjs` prints them.
 */

import { createTaskService } from "./task-service.mjs";

const env = process.env;
if (!env.TOOLHOST_API_KEY) {
  console.error("set TOOLHOST_API_KEY (a key with executors:connect and tools:execute; setup.mjs creates one)");
  process.exit(2);
}
const service = createTaskService({
  baseUrl: env.TOOLHOST_URL ?? "http://127.0.0.1:8080",
  apiKey: env.TOOLHOST_API_KEY,
  executorId: env.EXECUTOR_ID ?? "task-service-1",
  bindingId: env.BINDING_ID ?? "task-service",
  journalPath: env.JOURNAL_PATH ?? "task-service.journal.db",
  tasksPath: env.TASKS_PATH ?? "tasks.db",
  logger: env.LOG_LEVEL ?? "info",
});

let stopping = false;
const stop = () => {
  if (stopping) process.exit(1);
  stopping = true;
  service.stop().then(() => process.exit(0));
};
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, stop);
// Started by `npm start` / `toolhost demo` with an IPC channel: stop when that parent goes away.
if (process.channel) process.on("disconnect", () => stopping || stop());
await service.start();
if (!process.channel) console.error("task service executor running; Ctrl-C to stop");
