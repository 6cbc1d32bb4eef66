"""The runner's pure decisions: only an explicit confirmation is a definite outcome, a claim that does
not match is declined or refused, and recovery never runs a confirmed write handler again."""

from __future__ import annotations

import unittest

import support  # noqa: F401 - puts the SDK source folder on sys.path

from toolhost_runner import BusinessError, CancelledError
from toolhost_runner.answer_reader import HttpOutcome, read_answer
from toolhost_runner.decisions import (
    decide_delivery,
    decide_handler_outcome,
    is_result_refusal,
    plan_recovery,
    reconcile_draft,
    verify_claim,
)
from toolhost_runner.journal import JournalEntry
from toolhost_runner.measure import arguments_digest
from toolhost_runner.wire_shapes import RECEIPT_ANSWER


def entry(state: str, effect: str = "write") -> JournalEntry:
    return JournalEntry("c", "r", "t", effect, "e", "k", "g", "o", "{}", state, None, None, 0, 0)


def report(action: str, reason: str, status="accepted"):
    return {"call_id": "c", "status": status, "receipt_ids": [], "action": action, "reason": reason}


class HandlerOutcomeTest(unittest.TestCase):
    def test_each_end_of_a_handler(self) -> None:
        self.assertEqual(decide_handler_outcome(True, {"a": 1}, "write", False, None).draft, {"kind": "completed", "result": {"a": 1}})
        failed = decide_handler_outcome(False, BusinessError("declined", "no"), "write", False, None)
        self.assertEqual((failed.draft["kind"], failed.draft["error"]["code"], failed.state), ("failed", "declined", "finishing"))
        self.assertEqual(decide_handler_outcome(False, CancelledError(), "write", False, None).draft["kind"], "cancelled")
        unknown = decide_handler_outcome(False, RuntimeError("x"), "write", False, None)
        self.assertEqual((unknown.draft["kind"], unknown.state), ("reconciliation_required", "reconciling"))
        self.assertEqual(decide_handler_outcome(False, RuntimeError("x"), "read", False, None).draft["kind"], "failed")
        self.assertIsNone(decide_handler_outcome(True, None, "write", True, None).draft)

    def test_a_result_json_cannot_express_is_an_unknown_outcome_of_a_write(self) -> None:
        for bad in (float("nan"), {"k": object()}, "\ud800"):
            with self.subTest(repr(bad)):
                outcome = decide_handler_outcome(True, bad, "write", False, None)
                self.assertEqual((outcome.draft["kind"], outcome.code), ("reconciliation_required", "invalid_result"))


class ClaimTest(unittest.TestCase):
    def call(self, **changes):
        call = {"tool_name": "t", "binding_id": "b", "effect": "write", "arguments": {"x": 1}, "arguments_digest": arguments_digest({"x": 1})}
        call.update(changes)
        return call

    def test_serve_decline_refuse(self) -> None:
        self.assertEqual(verify_claim(self.call(), "write", ["b"]).type, "serve")
        self.assertEqual(verify_claim(self.call(), None, ["b"]).type, "decline")
        self.assertEqual(verify_claim(self.call(), "read", ["b"]).code, "effect_mismatch")
        self.assertEqual(verify_claim(self.call(binding_id="other"), "write", ["b"]).type, "decline")
        refused = verify_claim(self.call(arguments={"x": 2}), "write", ["b"])
        self.assertEqual((refused.type, refused.code), ("refuse", "arguments_digest_mismatch"))

    def test_agents_the_executor_works_for(self) -> None:
        call = self.call(agent_id="agt_a")
        self.assertEqual(verify_claim(call, "write", ["b"], None).type, "serve")
        self.assertEqual(verify_claim(call, "write", ["b"], frozenset({"agt_a", "agt_b"})).type, "serve")
        other = verify_claim(call, "write", ["b"], frozenset({"agt_b"}))
        # Declined, never accepted: another executor that works for the agent may take it.
        self.assertEqual((other.type, other.code), ("decline", "agent_not_allowed"))


class DeliveryTest(unittest.TestCase):
    def test_what_an_attempt_means(self) -> None:
        answer = read_answer(200, b'{"receipt_id":"r","kind":"completed","replayed":true,"applied":true,"call_status":"completed","run_status":"completed"}', RECEIPT_ANSWER)
        self.assertEqual(decide_delivery(answer).type, "acked")
        self.assertEqual(decide_delivery(read_answer(200, b"<html>proxy</html>", RECEIPT_ANSWER)).type, "retry")
        self.assertEqual(decide_delivery(read_answer(502, b"<html>bad gateway</html>", RECEIPT_ANSWER)).type, "retry")
        self.assertEqual(decide_delivery(HttpOutcome("unreachable", message="reset")).type, "retry")
        final = decide_delivery(read_answer(409, b'{"error":{"code":"call_already_final","message":"m"}}', RECEIPT_ANSWER))
        self.assertEqual((final.type, final.code), ("rejected", "call_already_final"))
        key = decide_delivery(read_answer(401, b'{"error":{"code":"unauthorized","message":"m"}}', RECEIPT_ANSWER))
        self.assertEqual((key.type, key.key_refused), ("retry", True))
        too_large = decide_delivery(read_answer(413, b'{"error":{"code":"payload_too_large","message":"m"}}', RECEIPT_ANSWER))
        self.assertTrue(is_result_refusal("completed", too_large))
        self.assertFalse(is_result_refusal("progress", too_large))


class RecoveryPlanTest(unittest.TestCase):
    def test_a_confirmed_write_is_reconciled_never_rerun(self) -> None:
        self.assertEqual(plan_recovery(entry("running"), report("redeliver", "missing_receipts")).type, "reconcile")
        self.assertTrue(plan_recovery(entry("running"), report("redeliver", "missing_receipts")).send_unknown)
        self.assertFalse(plan_recovery(entry("running"), report("reconcile", "reconciliation_open", "reconciliation_required")).send_unknown)
        self.assertEqual(plan_recovery(entry("running", "read"), report("redeliver", "missing_receipts")).type, "rerun")

    def test_an_accepting_entry_resumes_or_is_abandoned(self) -> None:
        self.assertEqual(plan_recovery(entry("accepting"), report("nothing", "up_to_date")).type, "resume_accept")
        self.assertEqual(plan_recovery(entry("accepting"), report("run_terminated", "run_ended")).type, "abandon")
        self.assertEqual(plan_recovery(entry("accepting"), report("nothing", "not_held")).type, "abandon")
        self.assertEqual(plan_recovery(entry("finishing"), report("nothing", "settled", "completed")).type, "deliver")
        self.assertEqual(plan_recovery(entry("running"), report("nothing", "settled", "completed")).type, "close")
        self.assertEqual(plan_recovery(entry("deferred"), None).type, "wait")


class ReconcileDraftTest(unittest.TestCase):
    def test_resolver_answers(self) -> None:
        self.assertEqual(reconcile_draft({"kind": "completed", "result": 1}, None), {"kind": "completed", "result": 1})
        self.assertEqual(reconcile_draft({"kind": "failed", "error": {"code": "x", "message": "m"}}, None)["error"]["code"], "x")
        self.assertEqual(reconcile_draft({"kind": "cancelled"}, None)["kind"], "cancelled")
        for bad in (None, {"kind": "completed"}, {"kind": "failed"}, {"kind": "maybe"}, "completed"):
            self.assertIsNone(reconcile_draft(bad, None))


if __name__ == "__main__":
    unittest.main()
