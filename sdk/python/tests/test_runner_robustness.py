"""What the runner does with trouble: a proxy's HTML page instead of an answer, a refused key, a
business cancel, a product callback that raises, a request answered ``connection_superseded`` by the
runner's own reconnect — always a clear value or RunnerError, never a stray thread traceback, and never
a handler run twice."""

from __future__ import annotations

import http.client
import shutil
import threading
import unittest
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Dict
from urllib.parse import urlsplit

from support import shared_server, FINAL, RunningRunner, World, ok, temp_dir, wait_for

from toolhost_runner import CancelledError, RunnerError, ToolRunner


class BreakingProxy:
    """Forwards to the server, except that it answers the first ``broken[route]`` requests whose path
    contains ``route`` with a 200 HTML page (what a misconfigured proxy does)."""

    def __init__(self, upstream: str, broken: Dict[str, int]) -> None:
        target = urlsplit(upstream)
        proxy = self
        self.broken = dict(broken)
        self.answered_html = 0
        self.lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # quiet
                pass

            def handle_one(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else None
                with proxy.lock:
                    route = next((r for r, n in proxy.broken.items() if r in self.path and n > 0), None)
                    if route is not None:
                        proxy.broken[route] -= 1
                        proxy.answered_html += 1
                if route is not None:
                    page = b"<html><body>502 upstream hiccup</body></html>"
                    self.send_response(200)
                    self.send_header("content-type", "text/html")
                    self.send_header("content-length", str(len(page)))
                    self.end_headers()
                    self.wfile.write(page)
                    return
                connection = http.client.HTTPConnection(target.hostname, target.port, timeout=60)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
                try:
                    connection.request(self.command, self.path, body=body, headers=headers)
                    response = connection.getresponse()
                    data = response.read()
                    self.send_response(response.status)
                    for k, v in response.getheaders():
                        if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                            self.send_header(k, v)
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (OSError, http.client.HTTPException):
                    self.close_connection = True  # the runner went away (a long-poll it aborted)
                finally:
                    connection.close()

            do_GET = do_POST = handle_one

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class RobustnessTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.dir = temp_dir()
        cls.server = shared_server()

    @classmethod
    def tearDownClass(cls) -> None:
        shutil.rmtree(cls.dir, ignore_errors=True)

    def world(self):
        return World(self.server.url, [{"name": "w.do", "effect": "write"}], binding_id=f"b-{uuid.uuid4().hex[:10]}")

    def test_html_pages_from_a_proxy_are_retried_and_the_handler_runs_once(self) -> None:
        world = self.world()
        proxy = BreakingProxy(self.server.url, {"/receipts": 3, "/heartbeat": 2, "/pending": 2})
        self.addCleanup(proxy.close)
        runner = ToolRunner(**world.runner_options(self.dir, f"exec-{uuid.uuid4().hex[:8]}", server_url=proxy.url))
        runs = []

        @runner.tool("w.do", effect="write")
        def do(call, ctx):
            runs.append(call.call_id)
            return {"ok": True}

        running = RunningRunner(runner)
        session = world.session([{"tool_calls": [{"name": "w.do", "arguments": {}}]}, {"message": "done"}])
        run_id = world.start_run(session)
        wait_for("the call to complete", lambda: [c for c in world.calls(run_id) if c["status"] == "completed"])
        self.assertIsNone(running.stop())
        self.assertEqual(proxy.answered_html, 7)
        self.assertEqual(len(runs), 1)
        self.assertGreaterEqual(runner.stats()["counters"].get("delivery_retries", 0), 1)

    def test_a_refused_key_ends_run_with_connect_refused(self) -> None:
        world = self.world()
        runner = ToolRunner(**world.runner_options(self.dir, "exec-bad-key", api_key="th_not_a_key"))

        @runner.tool("w.do", effect="write")
        def do(call, ctx):
            return None

        with self.assertRaises(RunnerError) as caught:
            runner.run()
        self.assertEqual(caught.exception.code, "connect_refused")
        self.assertEqual(runner.state, "failed")

    def test_a_business_cancel_reaches_the_handler_through_ctx_cancelled(self) -> None:
        world = self.world()
        runner = ToolRunner(**world.runner_options(self.dir, f"exec-{uuid.uuid4().hex[:8]}"))
        started = threading.Event()

        @runner.tool("w.do", effect="write")
        def do(call, ctx):
            started.set()
            if ctx.cancelled.wait(20):
                raise CancelledError("stopped on request")
            return {"finished": True}

        running = RunningRunner(runner)
        session = world.session([{"tool_calls": [{"name": "w.do", "arguments": {}}]}, {"message": "done"}])
        run_id = world.start_run(session)
        self.assertTrue(started.wait(20))
        call_id = world.calls(run_id)[0]["call_id"]
        ok(world.url, "POST", f"/v1/runs/{run_id}/tool-calls/{call_id}/cancel", {})
        call = wait_for("the call to end", lambda: next((c for c in world.calls(run_id) if c["status"] in FINAL), None))
        self.assertIsNone(running.stop())
        self.assertEqual(call["status"], "cancelled")

    def test_a_listener_that_raises_fails_the_runner_as_internal_failure(self) -> None:
        world = self.world()
        runner = ToolRunner(**world.runner_options(self.dir, f"exec-{uuid.uuid4().hex[:8]}"))

        @runner.tool("w.do", effect="write")
        def do(call, ctx):
            return None

        def broken(payload):
            raise KeyError("a bug in the product's listener")

        runner.on("claimed", broken)
        running = RunningRunner(runner)
        session = world.session([{"tool_calls": [{"name": "w.do", "arguments": {}}]}, {"message": "done"}])
        world.start_run(session)
        error = running.join(30)
        self.assertIsInstance(error, RunnerError)
        self.assertEqual(error.code, "internal_failure")  # type: ignore[union-attr]

    def test_a_request_superseded_by_its_own_reconnect_does_not_fence_the_runner(self) -> None:
        # A request made on the old connection and answered after this runner's reconnect reached the
        # server, but before the reconnect's answer came back, is answered connection_superseded: that
        # is this process's own new connection, not another process's (a crash-harness run under load
        # once failed such a runner as fenced).
        world = self.world()
        runner = ToolRunner(**world.runner_options(self.dir, f"exec-{uuid.uuid4().hex[:8]}"))
        runs = []

        @runner.tool("w.do", effect="write")
        def do(call, ctx):
            runs.append(call.call_id)
            return {"ok": True}

        running = RunningRunner(runner)
        self.addCleanup(running.stop)
        old = wait_for("the runner to connect", lambda: runner._connection.current).connection_id
        real_connect = runner._client.connect
        seen: Dict[str, object] = {}

        def connect_then_answer_the_old_connection(*args, **kwargs):
            outcome = real_connect(*args, **kwargs)
            if outcome.type != "answer" or "handled" in seen or "code" in seen:
                return outcome
            answered = threading.Event()

            def request_on_the_old_connection() -> None:
                answer = runner._client.heartbeat(runner.executor_id, old)
                seen["code"] = answer.code
                answered.set()
                seen["handled"] = runner._connection.handle_refusal(old, answer.code or "", answer.details or {})

            other = threading.Thread(target=request_on_the_old_connection, daemon=True)
            seen["thread"] = other
            other.start()
            answered.wait(10)
            # Give the other thread the time to look at the connection before this answer is taken in.
            other.join(0.3)
            return outcome

        runner._client.connect = connect_then_answer_the_old_connection  # type: ignore[method-assign]
        # The server detaches the connection: the runner's next request is answered connection_offline.
        runner._client.disconnect(runner.executor_id, old)
        wait_for("the runner to reconnect", lambda: runner._connection.current.connection_id != old)
        other = seen["thread"]
        assert isinstance(other, threading.Thread)
        other.join(10)
        self.assertEqual(seen["code"], "connection_superseded")
        self.assertEqual(seen["handled"], "stale")
        self.assertIsNone(runner.failure)
        session = world.session([{"tool_calls": [{"name": "w.do", "arguments": {}}]}, {"message": "done"}])
        run_id = world.start_run(session)
        wait_for("the call to complete", lambda: [c for c in world.calls(run_id) if c["status"] == "completed"])
        self.assertIsNone(running.stop())
        self.assertEqual(len(runs), 1)


if __name__ == "__main__":
    unittest.main()
