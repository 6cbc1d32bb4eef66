"""Test support: a real ``toolhost serve`` process (the repository's CLI, on a fresh SQLite file or the
PostgreSQL schema named by TOOLHOST_PYTHON_TEST_DATABASE_URL), configured over its HTTP API like a
product would: binding, toolset, scripted agent version, session and an executor key."""

from __future__ import annotations

import atexit
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from typing import Any, Callable, Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
SDK = os.path.abspath(os.path.join(HERE, ".."))
if SDK not in sys.path:
    sys.path.insert(0, SDK)

# The runner's own log lines are noise in test output unless asked for (TOOLHOST_PYTHON_TEST_LOG=INFO).
logging.basicConfig(level=os.environ.get("TOOLHOST_PYTHON_TEST_LOG", "CRITICAL"))

TOOLHOST_BIN = os.path.join(REPO, "packages", "cli", "bin", "toolhost.js")
ADMIN_KEY = "python-sdk-test-admin-secret-3f9a"
FINAL = ("completed", "failed", "cancelled", "expired")


def database_url(directory: str) -> str:
    """The database the test server uses: the PostgreSQL URL the caller named, else a fresh SQLite file."""
    named = os.environ.get("TOOLHOST_PYTHON_TEST_DATABASE_URL")
    return named if named else "sqlite:" + os.path.join(directory, "server.db")


class ServerProcess:
    """``toolhost serve`` on 127.0.0.1 and a free port; ``url`` once it listens."""

    def __init__(self, directory: str, settings: Optional[Dict[str, str]] = None) -> None:
        node = shutil.which("node")
        if node is None:
            raise RuntimeError("node is not on PATH: the tests need the repository's toolhost server")
        env = {
            "PATH": os.environ.get("PATH", ""),
            "TOOLHOST_BOOTSTRAP_KEY": ADMIN_KEY,
            "TOOLHOST_LOG_LEVEL": "warn",
            "TOOLHOST_HOST": "127.0.0.1",
            "TOOLHOST_PORT": "0",
            **(settings or {}),
        }
        self.log_path = os.path.join(directory, "server.log")
        self._log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [node, TOOLHOST_BIN, "serve", "--db", database_url(directory)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=self._log,
            cwd=directory,
        )
        line = self._first_line(60.0)
        if not line.startswith("http://"):
            self.stop()
            raise RuntimeError(f"toolhost serve did not start: {line!r}; see {self.log_path}")
        self.url = line.strip()

    def _first_line(self, timeout_s: float) -> str:
        result: List[str] = []
        assert self.process.stdout is not None
        reader = threading.Thread(target=lambda: result.append(self.process.stdout.readline().decode()), daemon=True)  # type: ignore[union-attr]
        reader.start()
        reader.join(timeout_s)
        return result[0] if result else ""

    def stop(self) -> None:
        """Stops the server (SIGTERM, then SIGKILL)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()
        self._log.close()


_shared: Dict[str, Any] = {}

# Settings of the shared server: short accept windows and sweeps, so lapsed claims come back quickly.
SHARED_SETTINGS = {"TOOLHOST_ACCEPT_WINDOW_MS": "3000", "TOOLHOST_SWEEP_INTERVAL_MS": "50"}


def shared_server() -> ServerProcess:
    """One server for every test of this unittest process (started on first use, stopped at exit);
    tests keep apart by their own binding, agent and executor IDs."""
    if "server" not in _shared:
        directory = temp_dir()
        _shared["server"] = ServerProcess(directory, SHARED_SETTINGS)
        atexit.register(lambda: (_shared["server"].stop(), shutil.rmtree(directory, ignore_errors=True)))
    return _shared["server"]


def api(url: str, method: str, path: str, body: Any = None, key: str = ADMIN_KEY) -> Tuple[int, Any]:
    """One admin request; answers status and parsed body."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method=method)
    request.add_header("authorization", f"Bearer {key}")
    if data is not None:
        request.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def ok(url: str, method: str, path: str, body: Any = None) -> Any:
    """An admin request that must succeed."""
    status, answer = api(url, method, path, body)
    if status >= 300:
        raise AssertionError(f"{method} {path} answered {status}: {answer}")
    return answer


class World:
    """A configured server: one binding, a toolset of ``tools``, agent versions made from scripts, an executor key."""

    def __init__(self, url: str, tools: List[Dict[str, Any]], binding_id: str = "py-binding") -> None:
        self.url = url
        self.binding_id = binding_id
        ok(url, "POST", "/v1/executor-bindings", {"binding_id": binding_id, "name": "python sdk tests"})
        definitions = [{"binding_id": binding_id, "timeout_ms": 600_000, "input_schema": {"type": "object"}, **t} for t in tools]
        self.toolset = ok(url, "POST", "/v1/toolsets", {"name": "python sdk", "tools": definitions})
        self.agent = ok(url, "POST", "/v1/agents", {"name": "python sdk agent"})
        self.executor_key = ok(
            url, "POST", "/v1/keys", {"name": "python executors", "scopes": ["executors:connect", "tools:execute"]}
        )["key"]

    def session(self, script: List[Dict[str, Any]], subject: str = "customer-7") -> str:
        """A session of a new agent version running ``script``."""
        version = ok(self.url, "POST", f"/v1/agents/{self.agent['agent_id']}/versions", {
            "toolset_id": self.toolset["toolset_id"], "toolset_version": 1,
            "model": {"provider": "scripted", "script": script},
        })  # fmt: skip
        return ok(self.url, "POST", "/v1/sessions", {"agent_version": version["agent_version"], "subject": subject})["session_id"]

    def start_run(self, session_id: str, text: str = "go") -> str:
        """Starts a run; answers its ID."""
        return ok(self.url, "POST", f"/v1/sessions/{session_id}/runs", {"input": text})["run_id"]

    def run(self, run_id: str) -> Dict[str, Any]:
        """The run."""
        return ok(self.url, "GET", f"/v1/runs/{run_id}")

    def calls(self, run_id: str) -> List[Dict[str, Any]]:
        """The run's tool calls."""
        return ok(self.url, "GET", f"/v1/runs/{run_id}/tool-calls?limit=200")["data"]

    def history(self, run_id: str) -> List[Dict[str, Any]]:
        """The run's history items."""
        return ok(self.url, "GET", f"/v1/runs/{run_id}/history?limit=200")["data"]

    def runner_options(self, directory: str, executor_id: str = "py-exec-1", **extra: Any) -> Dict[str, Any]:
        """ToolRunner options for this world, with short intervals."""
        options: Dict[str, Any] = {
            "server_url": self.url,
            "api_key": self.executor_key,
            "executor_id": executor_id,
            "binding_ids": [self.binding_id],
            "journal_path": os.path.join(directory, f"{executor_id}.journal.db"),
            "poll_wait_ms": 1_000,
            "retry_backoff_min_s": 0.02,
            "retry_backoff_max_s": 0.3,
            "request_timeout_s": 5.0,
            "outbox_sweep_interval_s": 0.2,
            "reconcile_interval_s": 0.3,
            "stop_delivery_timeout_s": 2.0,
        }
        options.update(extra)
        return options


def wait_for(what: str, check: Callable[[], Any], timeout_s: float = 30.0) -> Any:
    """Polls ``check`` until it answers something truthy (bounded)."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


class RunningRunner:
    """A ToolRunner's ``run()`` in a thread; ``stop()`` answers what ``run()`` raised (or None)."""

    def __init__(self, runner: Any) -> None:
        self.runner = runner
        self.error: Optional[BaseException] = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.runner.run()
        except BaseException as error:  # noqa: BLE001 - reported to the test
            self.error = error

    def stop(self) -> Optional[BaseException]:
        """Stops the runner and waits for ``run()`` to return."""
        self.runner.stop()
        self.thread.join(30)
        return self.error

    def join(self, timeout_s: float = 30.0) -> Optional[BaseException]:
        """Waits for ``run()`` to end by itself."""
        self.thread.join(timeout_s)
        if self.thread.is_alive():
            raise AssertionError("run() did not end")
        return self.error


def temp_dir() -> str:
    """A fresh temporary directory (removed by the caller's cleanup)."""
    return tempfile.mkdtemp(prefix="toolhost-py-")
