/**
 * The task service's own database (SQLite): the product's business state, outside toolhost. The
 * operation key ToolRunner hands to every write handler is stored with the task under a UNIQUE
 * constraint, so creating a task is idempotent in the product's own table: a second attempt with the
 * same key returns the first task, and reconciliation can look the key up to learn what happened.
 */

import Database from "better-sqlite3";

/** Opens (creating if needed) the task database at `path`. */
export function openTaskStore(path) {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("busy_timeout = 5000");
  db.exec(`
    CREATE TABLE IF NOT EXISTS tasks (
      task_id INTEGER PRIMARY KEY AUTOINCREMENT,
      operation_key TEXT NOT NULL UNIQUE,
      subject TEXT NOT NULL,
      title TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'open',
      created_at TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS exports (
      handle_id TEXT PRIMARY KEY,
      subject TEXT NOT NULL,
      state TEXT NOT NULL DEFAULT 'queued',
      created_at TEXT NOT NULL
    );
  `);
  const insertTask = db.prepare(
    "INSERT INTO tasks (operation_key, subject, title, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (operation_key) DO NOTHING",
  );
  const taskByKey = db.prepare("SELECT * FROM tasks WHERE operation_key = ?");
  const page = db.prepare("SELECT * FROM tasks WHERE subject = ? AND task_id > ? ORDER BY task_id LIMIT ?");

  return {
    /** Creates the task of `operationKey` once; answers it and whether this call created it. */
    createTask({ operationKey, subject, title }) {
      const created = insertTask.run(operationKey, subject, title, new Date().toISOString()).changes === 1;
      return { task: taskByKey.get(operationKey), created };
    },
    /** The task created under `operationKey`, if any (what reconciliation asks). */
    taskByOperationKey(operationKey) {
      return taskByKey.get(operationKey);
    },
    /** One page of a subject's tasks after `cursor` (a task ID), and the next cursor. */
    listTasks({ subject, cursor, limit }) {
      const rows = page.all(subject, Number(cursor ?? 0), limit + 1);
      const tasks = rows.slice(0, limit);
      return { tasks, next_cursor: rows.length > limit ? String(tasks.at(-1).task_id) : null };
    },
    /** Queues an export job under a deferred handle ID. */
    queueExport({ handleId, subject }) {
      db.prepare("INSERT OR IGNORE INTO exports (handle_id, subject, created_at) VALUES (?, ?, ?)").run(
        handleId,
        subject,
        new Date().toISOString(),
      );
    },
    /** Export jobs still queued. */
    queuedExports() {
      return db.prepare("SELECT * FROM exports WHERE state = 'queued' ORDER BY created_at").all();
    },
    /** Marks an export done; answers the subject's task count (the export's "result"). */
    finishExport(handleId) {
      const job = db.prepare("SELECT * FROM exports WHERE handle_id = ?").get(handleId);
      db.prepare("UPDATE exports SET state = 'done' WHERE handle_id = ?").run(handleId);
      const { n } = db.prepare("SELECT COUNT(*) AS n FROM tasks WHERE subject = ?").get(job.subject);
      return { subject: job.subject, tasks: n };
    },
    close() {
      db.close();
    },
  };
}
