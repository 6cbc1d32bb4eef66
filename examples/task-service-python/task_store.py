"""The task service's own database (SQLite): the product's business state, outside toolhost. The
operation key the runner hands to every write handler is stored with the task under a UNIQUE
constraint, so creating a task is idempotent in the product's own table: a second attempt with the
same key returns the first task, and reconciliation can look the key up to learn what happened."""

from __future__ import annotations

import sqlite3
import threading
from datetime import datetime, timezone
from typing import Any, Dict, List, Optional, Tuple


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


class TaskStore:
    """The ``tasks`` and ``exports`` tables (one connection shared by the runner's threads)."""

    def __init__(self, path: str) -> None:
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=5.0)
        self._db.row_factory = sqlite3.Row
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = FULL")
        self._db.executescript(
            """
            CREATE TABLE IF NOT EXISTS tasks (
              task_id INTEGER PRIMARY KEY AUTOINCREMENT, operation_key TEXT NOT NULL UNIQUE,
              subject TEXT NOT NULL, title TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'open', created_at TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS exports (
              handle_id TEXT PRIMARY KEY, subject TEXT NOT NULL, state TEXT NOT NULL DEFAULT 'queued',
              created_at TEXT NOT NULL);
            """
        )

    def create_task(self, operation_key: str, subject: str, title: str) -> Tuple[Dict[str, Any], bool]:
        """Creates the task of ``operation_key`` once; answers it and whether this call created it."""
        with self._lock:
            created = self._db.execute(
                "INSERT INTO tasks (operation_key, subject, title, created_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (operation_key) DO NOTHING",
                (operation_key, subject, title, _now()),
            ).rowcount == 1
            row = self._db.execute("SELECT * FROM tasks WHERE operation_key = ?", (operation_key,)).fetchone()
        return dict(row), created

    def task_by_operation_key(self, operation_key: str) -> Optional[Dict[str, Any]]:
        """The task created under ``operation_key``, if any (what reconciliation asks)."""
        with self._lock:
            row = self._db.execute("SELECT * FROM tasks WHERE operation_key = ?", (operation_key,)).fetchone()
        return None if row is None else dict(row)

    def list_tasks(self, subject: str, cursor: Optional[str], limit: int) -> Tuple[List[Dict[str, Any]], Optional[str]]:
        """One page of a subject's tasks after ``cursor`` (a task ID), and the next cursor."""
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM tasks WHERE subject = ? AND task_id > ? ORDER BY task_id LIMIT ?",
                (subject, int(cursor or 0), limit + 1),
            ).fetchall()
        tasks = [dict(r) for r in rows[:limit]]
        return tasks, (str(tasks[-1]["task_id"]) if len(rows) > limit else None)

    def queue_export(self, handle_id: str, subject: str) -> None:
        """Queues an export job under a deferred handle ID."""
        with self._lock:
            self._db.execute(
                "INSERT OR IGNORE INTO exports (handle_id, subject, created_at) VALUES (?, ?, ?)", (handle_id, subject, _now())
            )

    def queued_exports(self) -> List[Dict[str, Any]]:
        """Export jobs still queued."""
        with self._lock:
            return [dict(r) for r in self._db.execute("SELECT * FROM exports WHERE state = 'queued' ORDER BY created_at")]

    def finish_export(self, handle_id: str) -> Dict[str, Any]:
        """Marks an export done; answers the subject's task count (the export's "result")."""
        with self._lock:
            job = self._db.execute("SELECT * FROM exports WHERE handle_id = ?", (handle_id,)).fetchone()
            self._db.execute("UPDATE exports SET state = 'done' WHERE handle_id = ?", (handle_id,))
            n = self._db.execute("SELECT COUNT(*) FROM tasks WHERE subject = ?", (job["subject"],)).fetchone()[0]
        return {"subject": job["subject"], "tasks": n}

    def close(self) -> None:
        """Closes the database."""
        with self._lock:
            self._db.close()
