"""The Python task-service example, as docs/runner-python.md walks through it: examples/task-service's
setup.mjs configures the server and prints a key, examples/task-service-python/main.py serves the
tools, ``setup.mjs --run`` runs the scripted model; the task is created once, read and exported."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import unittest

from support import ADMIN_KEY, REPO, shared_server, temp_dir

SETUP = os.path.join(REPO, "examples", "task-service", "setup.mjs")
MAIN = os.path.join(REPO, "examples", "task-service-python", "main.py")


class ExampleTaskServiceTest(unittest.TestCase):
    def setUp(self) -> None:
        self.dir = temp_dir()
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.env = {"PATH": os.environ.get("PATH", ""), "TOOLHOST_URL": shared_server().url, "TOOLHOST_ADMIN_KEY": ADMIN_KEY}

    def setup_mjs(self, *args: str) -> str:
        node = shutil.which("node") or "node"
        done = subprocess.run([node, SETUP, *args], env=self.env, capture_output=True, timeout=90, cwd=REPO)
        self.assertEqual(done.returncode, 0, done.stderr.decode())
        return done.stdout.decode()

    def test_the_walk_through(self) -> None:
        printed = self.setup_mjs()
        key = next(line.split("=", 1)[1] for line in printed.splitlines() if line.startswith("TOOLHOST_API_KEY="))
        tasks_path = os.path.join(self.dir, "tasks-py.db")
        executor = subprocess.Popen(
            [sys.executable, MAIN],
            env={**self.env, "TOOLHOST_API_KEY": key, "TASKS_PATH": tasks_path, "LOG_LEVEL": "WARNING",
                 "JOURNAL_PATH": os.path.join(self.dir, "journal.db"), "EXECUTOR_ID": "task-service-py-test"},
            cwd=self.dir, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self.addCleanup(lambda: executor.poll() is None and executor.kill())
        output = self.setup_mjs("--run")
        executor.send_signal(signal.SIGTERM)
        self.assertEqual(executor.wait(30), 0)
        self.assertIn('"status": "completed"', output)
        self.assertIn('"title": "Buy milk"', output)
        self.assertIn('"export": "done"', output)
        db = sqlite3.connect(tasks_path)
        self.assertEqual(db.execute("SELECT title, subject FROM tasks").fetchall(), [("Buy milk", "user-42")])
        self.assertEqual(db.execute("SELECT state FROM exports").fetchall(), [("done",)])
        db.close()


if __name__ == "__main__":
    unittest.main()
