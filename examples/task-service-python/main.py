"""Runs the task service's executor until SIGINT/SIGTERM:

    TOOLHOST_URL=http://127.0.0.1:8080 TOOLHOST_API_KEY=th_… python3 examples/task-service-python/main.py

Optional: EXECUTOR_ID (task-service-py-1), BINDING_ID (task-service), JOURNAL_PATH
(./task-service-py.journal.db), TASKS_PATH (./tasks-py.db), LOG_LEVEL (INFO). The toolhost_runner
package comes from an install (pip install ./sdk/python) or, without one, from sdk/python itself.
"""

from __future__ import annotations

import logging
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
try:
    import toolhost_runner  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(HERE, "..", "..", "sdk", "python"))

from task_service import TaskService  # noqa: E402
from toolhost_runner import RunnerError  # noqa: E402


def main() -> int:
    env = os.environ
    if not env.get("TOOLHOST_API_KEY"):
        print("set TOOLHOST_API_KEY (a key with executors:connect and tools:execute; setup.mjs creates one)", file=sys.stderr)
        return 2
    logging.basicConfig(level=env.get("LOG_LEVEL", "INFO").upper(), format="%(asctime)s %(levelname)s %(message)s")
    service = TaskService(
        env.get("TASKS_PATH", "tasks-py.db"),
        server_url=env.get("TOOLHOST_URL", "http://127.0.0.1:8080"),
        api_key=env["TOOLHOST_API_KEY"],
        executor_id=env.get("EXECUTOR_ID", "task-service-py-1"),
        binding_ids=[env.get("BINDING_ID", "task-service")],
        journal_path=env.get("JOURNAL_PATH", "task-service-py.journal.db"),
    )
    print("task service executor (Python) running; Ctrl-C to stop", file=sys.stderr)
    try:
        service.run()
    except RunnerError as error:
        print(f"executor stopped: {error.code}: {error.message}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
