"""The crash product in Python: an executor process built on toolhost_runner.ToolRunner whose
`ledger.write` handler applies one side effect to the shared ledger (no de-duplication, the same table
as ledger.mjs) and whose reconciler looks the operation key up there. Configured by the same
environment as executor-process.mjs; the harness names the kill point's event (CRASH_KILL_EVENT,
from kill-points.mjs) and whether only final receipts count (CRASH_KILL_FINAL_ONLY). It SIGKILLs
itself the CRASH_KILL_AFTER-th time; SIGTERM stops it gracefully (runner.stop())."""

from __future__ import annotations

import os
import signal
import sqlite3
import sys
import threading
import time
from typing import Any, Dict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "sdk", "python"))

import logging  # noqa: E402

from toolhost_runner import ToolRunner  # noqa: E402

env = os.environ
logging.basicConfig(level=env.get("CRASH_LOG_LEVEL", "WARNING").upper(), stream=sys.stderr)
executor_id = env.get("CRASH_EXECUTOR_ID", "crash-exec")
FINAL_KINDS = {"completed", "failed", "cancelled", "reconciliation_required"}

ledger = sqlite3.connect(env.get("CRASH_LEDGER_PATH", "ledger.db"), timeout=10.0, isolation_level=None, check_same_thread=False)
ledger.execute("PRAGMA journal_mode = WAL")
ledger.execute("PRAGMA synchronous = FULL")
ledger.execute("PRAGMA busy_timeout = 10000")
ledger.execute(
    """CREATE TABLE IF NOT EXISTS effects (
    effect_id INTEGER PRIMARY KEY AUTOINCREMENT, operation_key TEXT NOT NULL, call_id TEXT NOT NULL,
    run_id TEXT NOT NULL, executor_id TEXT NOT NULL, pid INTEGER NOT NULL, amount INTEGER NOT NULL,
    created_at_ms INTEGER NOT NULL)"""
)
ledger.execute("CREATE INDEX IF NOT EXISTS effects_operation_key ON effects (operation_key)")
ledger_lock = threading.Lock()

runner = ToolRunner(
    server_url=env.get("CRASH_SERVER_URL", "http://127.0.0.1:8080"),
    api_key=env.get("CRASH_API_KEY", ""),
    executor_id=executor_id,
    binding_ids=[env.get("CRASH_BINDING_ID", "crash")],
    journal_path=env.get("CRASH_JOURNAL_PATH", "journal.db"),
    max_concurrency_per_tool=4,
    poll_wait_ms=2_000,
    retry_backoff_min_s=0.02,
    retry_backoff_max_s=0.5,
    request_timeout_s=5.0,
    outbox_sweep_interval_s=0.2,
    reconcile_interval_s=0.3,
)


@runner.tool("ledger.write", effect="write")
def ledger_write(call: Any, ctx: Any) -> Dict[str, Any]:
    with ledger_lock:
        cursor = ledger.execute(
            "INSERT INTO effects (operation_key, call_id, run_id, executor_id, pid, amount, created_at_ms)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (ctx.operation_key, call.call_id, call.run_id, executor_id, os.getpid(),
             int(call.arguments.get("amount", 0)), int(time.time() * 1000)),
        )  # fmt: skip
        effect_id = cursor.lastrowid
    return {"effect_id": effect_id, "operation_key": ctx.operation_key}


@runner.reconciler("ledger.write")
def resolve(call: Any, operation_key: str) -> Dict[str, Any]:
    with ledger_lock:
        row = ledger.execute(
            "SELECT effect_id FROM effects WHERE operation_key = ? ORDER BY effect_id LIMIT 1", (operation_key,)
        ).fetchone()
    if row is None:
        return {"kind": "failed", "error": {"code": "not_applied", "message": "the ledger has no effect for this operation"}}
    return {"kind": "completed", "result": {"effect_id": row[0], "operation_key": operation_key, "reconciled": True}}


def kill_at(point: str) -> None:
    """Dies at ``point``, leaving its name in the marker file (the harness counts kills per point)."""
    marker = env.get("CRASH_MARKER_PATH")
    if marker:
        with open(marker, "w") as f:
            f.write(point)
    os.kill(os.getpid(), signal.SIGKILL)


point = env.get("CRASH_KILL_POINT", "")
if point not in ("", "none"):
    remaining = [int(env.get("CRASH_KILL_AFTER", "1"))]
    final_only = env.get("CRASH_KILL_FINAL_ONLY") == "1"
    count_lock = threading.Lock()

    def on_point(payload: Dict[str, Any]) -> None:
        if final_only and payload.get("kind") not in FINAL_KINDS:
            return
        with count_lock:
            remaining[0] -= 1
            if remaining[0] <= 0:
                kill_at(point)

    runner.on(env["CRASH_KILL_EVENT"], on_point)
if env.get("CRASH_KILL_ON_RECONCILE") == "1":
    runner.on(env["CRASH_RECONCILE_EVENT"], lambda payload: kill_at("during_reconcile"))

try:
    runner.run()
except Exception as error:  # noqa: BLE001 - reported through the exit code, as the TS executor does
    print(f"runner failed: {error}", file=sys.stderr)
    sys.exit(1)
finally:
    ledger.close()
