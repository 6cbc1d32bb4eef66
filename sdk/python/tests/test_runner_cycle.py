"""A ToolRunner against a real started server: calls run once, in the protocol's order, and each kind
of handler end becomes the receipt docs/runner-python.md promises."""

from __future__ import annotations

import json
import shutil
import sqlite3
import unittest
import uuid

from support import shared_server, FINAL, RunningRunner, World, temp_dir, wait_for

from toolhost_runner import BusinessError, CancelledError, ToolRunner


class RunnerCycleTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.dir = temp_dir()
        cls.server = shared_server()

    @classmethod
    def tearDownClass(cls) -> None:
        shutil.rmtree(cls.dir, ignore_errors=True)

    def world(self, tools):
        return World(self.server.url, tools, binding_id=f"b-{uuid.uuid4().hex[:10]}")

    def wait_run(self, world, run_id, timeout_s=30.0):
        return wait_for("the run to end", lambda: (lambda r: r if r["status"] in FINAL else None)(world.run(run_id)), timeout_s)

    def test_a_write_call_runs_once_with_progress_and_its_result_enters_the_history(self) -> None:
        world = self.world([{"name": "invoices.create", "effect": "write"}])
        session = world.session([{"tool_calls": [{"name": "invoices.create", "arguments": {"amount": 12345678901234567890, "memo": "中文😀"}}]}, {"message": "done"}])
        runner = ToolRunner(**world.runner_options(self.dir, f"exec-{uuid.uuid4().hex[:8]}"))
        seen = []
        order = []
        for event in ("assignment_journaled", "accept_sent", "confirmed", "effect_done", "result_journaled", "receipt_acked"):
            runner.on(event, lambda payload, event=event: order.append(event))

        @runner.tool("invoices.create", effect="write")
        def create(call, ctx):
            seen.append((call.arguments, ctx.operation_key, call.subject))
            ctx.progress({"step": "charging"})
            return {"invoice": "INV-1", "amount": call.arguments["amount"]}

        running = RunningRunner(runner)
        run_id = world.start_run(session)
        run = self.wait_run(world, run_id)
        self.assertIsNone(running.stop())
        self.assertEqual(run["status"], "completed")
        self.assertEqual(len(seen), 1)
        arguments, operation_key, subject = seen[0]
        self.assertEqual(arguments, {"amount": 12345678901234567890, "memo": "中文😀"})
        call = world.calls(run_id)[0]
        self.assertEqual(call["status"], "completed")
        self.assertEqual(operation_key, f"{run_id}:{call['call_id']}")
        self.assertEqual(subject, "customer-7")
        results = [item for item in world.history(run_id) if item["type"] == "tool_result"]
        self.assertEqual(results[0]["context_preview"]["result"], {"invoice": "INV-1", "amount": 12345678901234567890})
        # The protocol's order: journaled before accepted is sent, handler only after confirmation.
        self.assertLess(order.index("assignment_journaled"), order.index("accept_sent"))
        self.assertLess(order.index("accept_sent"), order.index("confirmed"))
        self.assertLess(order.index("confirmed"), order.index("effect_done"))
        self.assertLess(order.index("effect_done"), order.index("result_journaled"))
        journal = sqlite3.connect(runner._journal.path)
        states = journal.execute("SELECT state FROM assignments").fetchall()
        kinds = [row[0] for row in journal.execute("SELECT kind FROM outbox WHERE state = 'delivered' ORDER BY seq")]
        journal.close()
        self.assertEqual(states, [("done",)])
        self.assertEqual(kinds, ["accepted", "progress", "completed"])

    def test_authorize_refuses_a_call_without_running_it_and_agent_ids_decline_other_agents(self) -> None:
        world = self.world([{"name": "refunds.issue", "effect": "write"}])
        script = [{"tool_calls": [{"name": "refunds.issue", "arguments": {"amount": 5}}]}, {"message": "done"}]
        runner = ToolRunner(**world.runner_options(self.dir, f"exec-{uuid.uuid4().hex[:8]}"))
        ran = []
        asked = []

        def authorize(call):
            asked.append((call.subject, call.agent_id, call.operation_key))
            return call.subject != "customer-blocked"

        @runner.tool("refunds.issue", effect="write", authorize=authorize)
        def issue(call, ctx):
            ran.append(call.subject)
            return {"refund": "R-1"}

        running = RunningRunner(runner)
        allowed = world.start_run(world.session(script, subject="customer-7"))
        blocked = world.start_run(world.session(script, subject="customer-blocked"))
        self.assertEqual(self.wait_run(world, allowed)["status"], "completed")
        self.wait_run(world, blocked)
        self.assertIsNone(running.stop())
        self.assertEqual(ran, ["customer-7"])
        refused = world.calls(blocked)[0]
        self.assertEqual(refused["status"], "failed")
        self.assertEqual(runner.stats()["counters"]["authorizations_denied"], 1)
        self.assertEqual(sorted(subject for subject, _, _ in asked), ["customer-7", "customer-blocked"])
        self.assertTrue(all(agent == world.agent["agent_id"] for _, agent, _ in asked))
        self.assertIn(f"{allowed}:", " ".join(key for _, _, key in asked))
        results = [item for item in world.history(blocked) if item["type"] == "tool_result"]
        self.assertIn("not_authorized", json.dumps(results[0]))

        # An executor for other agents only never accepts the call: it stays claimable.
        elsewhere = ToolRunner(**world.runner_options(self.dir, f"exec-{uuid.uuid4().hex[:8]}", agent_ids=["agt_someone_else"]))
        declined = []
        elsewhere.on("declined", lambda payload: declined.append(payload["code"]))

        @elsewhere.tool("refunds.issue", effect="write")
        def never(call, ctx):
            ran.append("elsewhere")
            return {}

        running = RunningRunner(elsewhere)
        waiting = world.start_run(world.session(script))
        wait_for("a declined claim", lambda: declined)
        self.assertIsNone(running.stop())
        self.assertEqual(set(declined), {"agent_not_allowed"})
        self.assertEqual(ran, ["customer-7"])
        self.assertIn(world.calls(waiting)[0]["status"], ("pending", "claimed"))

    def test_business_error_fails_cancelled_error_cancels_and_an_exception_is_reconciled(self) -> None:
        world = self.world([
            {"name": "w.fail", "effect": "write"}, {"name": "w.cancel", "effect": "write"},
            {"name": "w.crash", "effect": "write"}, {"name": "r.crash", "effect": "read"},
        ])  # fmt: skip
        session = world.session([
            {"tool_calls": [{"name": "w.fail", "arguments": {}}, {"name": "w.cancel", "arguments": {}},
                            {"name": "w.crash", "arguments": {}}, {"name": "r.crash", "arguments": {}}]},
            {"message": "done"},
        ])  # fmt: skip
        runner = ToolRunner(**world.runner_options(self.dir, f"exec-{uuid.uuid4().hex[:8]}"))
        ran = {"w.crash": 0}
        asked = []

        @runner.tool("w.fail", effect="write")
        def fail(call, ctx):
            raise BusinessError("card_declined", "the card was declined", {"last4": "4242"})

        @runner.tool("w.cancel", effect="write")
        def cancel(call, ctx):
            raise CancelledError("stopped by the product")

        @runner.tool("w.crash", effect="write")
        def crash(call, ctx):
            ran["w.crash"] += 1
            raise RuntimeError("the connection to billing dropped")

        @runner.reconciler("w.crash")
        def resolve(call, operation_key):
            asked.append(operation_key)
            # Cannot tell the first time: asked again later.
            return None if len(asked) == 1 else {"kind": "completed", "result": {"found": operation_key}}

        @runner.tool("r.crash", effect="read")
        def read_crash(call, ctx):
            raise ValueError("boom")

        running = RunningRunner(runner)
        run_id = world.start_run(session)
        self.wait_run(world, run_id)
        wait_for("every call final", lambda: all(c["status"] in FINAL for c in world.calls(run_id)))
        self.assertIsNone(running.stop())
        statuses = {c["tool_name"]: c["status"] for c in world.calls(run_id)}
        self.assertEqual(statuses, {"w.fail": "failed", "w.cancel": "cancelled", "w.crash": "completed", "r.crash": "failed"})
        self.assertEqual(ran["w.crash"], 1)
        self.assertGreaterEqual(len(asked), 2)
        items = [i for i in world.history(run_id) if i["type"] == "tool_result"]
        self.assertTrue(any("reconciliation" in json.dumps(i) or "unknown" in json.dumps(i) for i in items))

    def test_a_result_the_server_refuses_for_good_ends_the_call_failed_with_result_refused(self) -> None:
        world = self.world([{"name": "media.render", "effect": "write"}])
        session = world.session([{"tool_calls": [{"name": "media.render", "arguments": {}}]}, {"message": "done"}])
        runner = ToolRunner(**world.runner_options(self.dir, f"exec-{uuid.uuid4().hex[:8]}"))
        ran = []

        @runner.tool("media.render", effect="write", result_type="multimodal")
        def render(call, ctx):
            ran.append(call.call_id)
            return {"not": "a multimodal result"}  # the server answers 422 invalid_result

        running = RunningRunner(runner)
        run_id = world.start_run(session)
        call = wait_for("the call to end", lambda: next((c for c in world.calls(run_id) if c["status"] in FINAL), None))
        self.assertIsNone(running.stop())
        self.assertEqual(call["status"], "failed")
        self.assertEqual(len(ran), 1)
        journal = sqlite3.connect(runner._journal.path)
        rows = journal.execute("SELECT kind, state, reject_code, body_text FROM outbox WHERE kind != 'accepted' ORDER BY seq").fetchall()
        journal.close()
        self.assertEqual([(k, s, c) for k, s, c, _ in rows], [("completed", "rejected", "invalid_result"), ("failed", "delivered", None)])
        self.assertEqual(json.loads(rows[1][3])["error"]["code"], "result_refused")

    def test_deferred_calls_finished_while_no_runner_could_deliver_go_out_in_one_batch_at_the_next_start(self) -> None:
        world = self.world([{"name": "jobs.export", "effect": "write"}])
        session = world.session([{"tool_calls": [{"name": "jobs.export", "arguments": {"n": 1}}, {"name": "jobs.export", "arguments": {"n": 2}}]}, {"message": "done"}])
        options = world.runner_options(self.dir, f"exec-{uuid.uuid4().hex[:8]}")
        handles = []

        def serve():
            runner = ToolRunner(**options)

            @runner.tool("jobs.export", effect="write")
            def export(call, ctx):
                handles.append(ctx.defer().id)

            return runner

        first = RunningRunner(serve())
        run_id = world.start_run(session)
        wait_for("two deferred calls", lambda: len(handles) == 2)
        self.assertIsNone(first.stop())
        # A process that only finishes calls, while the server cannot be reached: the receipts stay journaled.
        finisher = ToolRunner(**{**options, "server_url": "http://127.0.0.1:9", "stop_delivery_timeout_s": 0.05})
        for n, handle in enumerate(handles):
            finisher.complete(handle, {"export": n})
        finisher.stop()
        second = serve()
        running = RunningRunner(second)
        wait_for("both calls completed", lambda: [c["status"] for c in world.calls(run_id)] == ["completed", "completed"])
        self.assertIsNone(running.stop())
        self.assertEqual(second.stats()["counters"].get("receipt_batches"), 1)
        self.assertEqual(second.stats()["counters"].get("receipts_acked"), 2)


if __name__ == "__main__":
    unittest.main()
