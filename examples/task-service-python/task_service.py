"""The task service's executor: a ToolRunner serving three tools of the ``task-service`` binding
(the same tools as examples/task-service, configured by its setup.mjs).

- ``tasks.create`` (write): creates a task, idempotent by the operation key in the product's table; an
  empty title is a confirmed business failure (BusinessError → ``failed``). Its reconciler answers an
  unknown outcome by looking the operation key up.
- ``tasks.read`` (read): one page of the subject's tasks; may simply run again after a crash.
- ``tasks.export`` (write, long-running): defers the call; a worker thread finishes it later with
  ``runner.complete(handle_id, result)`` — any process sharing the journal could.
"""

from __future__ import annotations

import threading
from typing import Any, Dict, Optional

from task_store import TaskStore
from toolhost_runner import BusinessError, RunnerError, ToolRunner


def public(task: Dict[str, Any]) -> Dict[str, Any]:
    """What the model sees of a task."""
    return {"task_id": str(task["task_id"]), "title": task["title"], "status": task["status"]}


class TaskService:
    """The runner, the store and the export worker."""

    def __init__(self, tasks_path: str, **runner_options: Any) -> None:
        self.store = TaskStore(tasks_path)
        self.runner = ToolRunner(**runner_options)
        self._stop_worker = threading.Event()
        self._worker: Optional[threading.Thread] = None
        runner, store = self.runner, self.store

        @runner.tool("tasks.create", effect="write", input_schema={
            "type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"],
        })  # fmt: skip
        def create(call, ctx):
            title = str(call.arguments.get("title", "")).strip()
            if title == "":
                raise BusinessError("invalid_title", "a task needs a non-empty title")
            task, created = store.create_task(ctx.operation_key, call.subject, title)
            return {**public(task), "created": created}

        @runner.reconciler("tasks.create")
        def resolve_create(call, operation_key):
            task = store.task_by_operation_key(operation_key)
            if task is None:
                return {"kind": "failed", "error": {"code": "not_applied", "message": "no task was created"}}
            return {"kind": "completed", "result": public(task)}

        @runner.tool("tasks.read", effect="read")
        def read(call, ctx):
            limit = min(max(int(call.arguments.get("limit", 20)), 1), 100)
            tasks, next_cursor = store.list_tasks(call.subject, call.arguments.get("cursor"), limit)
            return {"tasks": [public(t) for t in tasks], "next_cursor": next_cursor}

        @runner.tool("tasks.export", effect="write")
        def export(call, ctx):
            handle = ctx.defer()
            store.queue_export(handle.id, call.subject)
            return handle

    def _work(self) -> None:
        # Finishes queued exports every 200 ms (a real product would use its job queue).
        while not self._stop_worker.wait(0.2):
            for job in self.store.queued_exports():
                result = self.store.finish_export(job["handle_id"])
                try:
                    self.runner.complete(job["handle_id"], {"export": "done", **result})
                except RunnerError:
                    pass  # finished elsewhere already

    def run(self) -> None:
        """Serves until SIGTERM/SIGINT or ``stop()``; then stops the worker and closes the store."""
        self._worker = threading.Thread(target=self._work, name="export-worker", daemon=True)
        self._worker.start()
        try:
            self.runner.run()
        finally:
            self._stop_worker.set()
            self._worker.join()
            self.store.close()

    def stop(self) -> None:
        """Stops the runner (drains it); ``run()`` then returns."""
        self.runner.stop()
