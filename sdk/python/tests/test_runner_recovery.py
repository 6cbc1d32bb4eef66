"""Crashes of a real executor process (SIGKILL at a protocol step) and what the next start of the
same executor ID on the same journal does: nothing lost, nothing applied twice, a handler never run
again after ``confirmed``, never run at all when the replayed ``accepted`` is not confirmed."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import unittest
import uuid
from typing import Optional

from support import shared_server, FINAL, HERE, World, ok, temp_dir, wait_for

FIXTURE = os.path.join(HERE, "fixtures", "executor.py")
FINISHER = os.path.join(HERE, "fixtures", "finish_deferred.py")


def read_text(path: str) -> str:
    with open(path) as f:
        return f.read()


class RecoveryTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.dir = temp_dir()
        cls.server = shared_server()

    @classmethod
    def tearDownClass(cls) -> None:
        shutil.rmtree(cls.dir, ignore_errors=True)

    def setUp(self) -> None:
        self.world = World(
            self.server.url,
            [{"name": "ledger.write", "effect": "write"}, {"name": "jobs.export", "effect": "write"}],
            binding_id=f"b-{uuid.uuid4().hex[:10]}",
        )
        self.executor_id = f"exec-{uuid.uuid4().hex[:8]}"
        self.options = self.world.runner_options(self.dir, self.executor_id)
        self.ledger = os.path.join(self.dir, f"{self.executor_id}.ledger.db")
        self.handle_file = os.path.join(self.dir, f"{self.executor_id}.handle")
        self.processes = []

    def tearDown(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait()

    def start(self, kill_event: Optional[str] = None, kill_kind: Optional[str] = None) -> subprocess.Popen:
        env = {
            "PATH": os.environ.get("PATH", ""),
            "FIXTURE_OPTIONS": json.dumps(self.options),
            "FIXTURE_LEDGER": self.ledger,
            "FIXTURE_HANDLE_FILE": self.handle_file,
        }
        if kill_event:
            env["FIXTURE_KILL_EVENT"] = kill_event
        if kill_kind:
            env["FIXTURE_KILL_KIND"] = kill_kind
        self.log_path = os.path.join(self.dir, f"{self.executor_id}.{len(self.processes)}.log")
        with open(self.log_path, "wb") as log:
            process = subprocess.Popen([sys.executable, FIXTURE], env=env, stderr=log)
        self.processes.append(process)
        return process

    def effects(self):
        db = sqlite3.connect(self.ledger)
        try:
            return db.execute("SELECT operation_key, pid FROM effects").fetchall()
        finally:
            db.close()

    def journal(self, sql: str):
        db = sqlite3.connect(self.options["journal_path"])
        try:
            return db.execute(sql).fetchall()
        finally:
            db.close()

    def one_call_run(self, tool: str = "ledger.write") -> str:
        session = self.world.session([{"tool_calls": [{"name": tool, "arguments": {}}]}, {"message": "done"}])
        return self.world.start_run(session)

    def final_call(self, run_id: str):
        return wait_for("the call to be final", lambda: next((c for c in self.world.calls(run_id) if c["status"] in FINAL), None))

    def stop(self, process: subprocess.Popen) -> int:
        process.send_signal(signal.SIGTERM)
        return process.wait(30)

    def crash_then_recover(self, kill_event: str, kill_kind: Optional[str] = None):
        run_id = self.one_call_run()
        first = self.start(kill_event, kill_kind)
        self.assertEqual(first.wait(30), -signal.SIGKILL)
        second = self.start()
        call = self.final_call(run_id)
        self.assertEqual(self.stop(second), 0)
        return run_id, call, first.pid

    def test_killed_after_the_effect_the_resolver_reports_it_and_the_handler_never_runs_again(self) -> None:
        run_id, call, first_pid = self.crash_then_recover("effect_done")
        effects = self.effects()
        self.assertEqual(len(effects), 1)
        self.assertEqual(effects[0], (f"{run_id}:{call['call_id']}", first_pid))
        self.assertEqual(call["status"], "completed")
        # The run went on after the unknown outcome; the reconciled receipt settles the call.
        bodies = [json.loads(b) for (b,) in self.journal("SELECT body_text FROM outbox WHERE kind = 'completed'")]
        self.assertEqual([b["result"] for b in bodies], [{"effect_id": 1, "reconciled": True}])
        kinds = [k for (k,) in self.journal("SELECT kind FROM outbox WHERE state = 'delivered' ORDER BY seq")]
        self.assertEqual(kinds, ["accepted", "reconciliation_required", "completed"])

    def test_killed_after_the_result_is_journaled_it_is_redelivered_with_the_same_receipt_id(self) -> None:
        run_id, call, first_pid = self.crash_then_recover("result_journaled", "completed")
        self.assertEqual(len(self.effects()), 1)
        self.assertEqual(call["status"], "completed")
        rows = self.journal("SELECT receipt_id, state FROM outbox WHERE kind = 'completed'")
        self.assertEqual(len(rows), 1)
        self.assertEqual(rows[0][1], "delivered")
        result = [i for i in self.world.history(run_id) if i["type"] == "tool_result"][-1]
        self.assertEqual(result["receipt_id"], rows[0][0])

    def test_killed_after_the_server_confirmed_the_accepted_is_resent_and_the_handler_runs_once(self) -> None:
        _, call, first_pid = self.crash_then_recover("accept_sent")
        effects = self.effects()
        self.assertEqual(len(effects), 1)
        self.assertNotEqual(effects[0][1], first_pid)
        self.assertEqual(call["status"], "completed")

    def test_a_replayed_accepted_that_is_not_confirmed_never_runs_the_handler(self) -> None:
        run_id = self.one_call_run()
        first = self.start("accept_sent")
        self.assertEqual(first.wait(30), -signal.SIGKILL)
        ok(self.world.url, "POST", f"/v1/runs/{run_id}/cancel", {})
        second = self.start()
        wait_for("the entry to be abandoned", lambda: self.journal("SELECT state FROM assignments") == [("abandoned",)])
        self.assertEqual(self.stop(second), 0)
        self.assertEqual(self.effects(), [])
        # The restart resent the same accepted; the replay said not to start.
        [(kind, state, answer)] = self.journal("SELECT kind, state, answer_json FROM outbox")
        self.assertEqual((kind, state), ("accepted", "delivered"))
        self.assertEqual((json.loads(answer)["replayed"], json.loads(answer)["confirmed"]), (True, False))

    def test_a_deferred_call_is_finished_by_another_process_on_the_same_journal(self) -> None:
        run_id = self.one_call_run("jobs.export")
        executor = self.start()
        handle_id = wait_for("the handle", lambda: os.path.exists(self.handle_file) and read_text(self.handle_file))
        env = {"PATH": os.environ.get("PATH", ""), "FIXTURE_OPTIONS": json.dumps(self.options)}
        finished = subprocess.run([sys.executable, FINISHER, handle_id, "complete"], env=env, capture_output=True, timeout=60)
        self.assertEqual(finished.stdout.decode().strip(), "finished", finished.stderr.decode())
        call = self.final_call(run_id)
        self.assertEqual(call["status"], "completed")
        again = subprocess.run([sys.executable, FINISHER, handle_id, "fail"], env=env, capture_output=True, timeout=60)
        self.assertEqual(again.stdout.decode().strip(), "refused handle_finished")
        self.assertEqual(self.stop(executor), 0)
        result = [i for i in self.world.history(run_id) if i["type"] == "tool_result"][-1]
        self.assertEqual(result["context_preview"]["result"], {"export": "done"})

    def test_a_second_process_with_the_same_executor_id_fences_the_first(self) -> None:
        first = self.start()
        first_log = self.log_path
        wait_for("the first connection", lambda: self.connected_epoch() == 1)
        second = self.start()
        self.assertEqual(first.wait(30), 3)
        with open(first_log) as log:
            stderr = log.read()
        self.assertIn("runner failed: fenced", stderr)
        self.assertEqual(self.stop(second), 0)

    def connected_epoch(self) -> Optional[int]:
        executors = ok(self.world.url, "GET", "/v1/executors?limit=200")["data"]
        mine = [e for e in executors if e["executor_id"] == self.executor_id and e["online"]]
        return mine[0]["epoch"] if mine else None


if __name__ == "__main__":
    unittest.main()
