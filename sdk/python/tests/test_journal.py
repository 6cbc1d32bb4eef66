"""The journal: one guarded transition per table, the same refusal from the file's own triggers
whichever process writes, and the assignment rules (same claim continues, a started call never takes
another claim)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import unittest

from support import temp_dir

from toolhost_runner.journal import Journal, NewReceipt
from toolhost_runner.journal_transitions import JOURNAL_TRANSITIONS, JournalTransitionError


def assignment(claim_id: str = "clm_1"):
    return {
        "call_id": "call_1", "run_id": "run_1", "tool_name": "t", "effect": "write", "executor_id": "e",
        "claim_id": claim_id, "grant_secret": "g", "operation_key": "run_1:call_1", "call_json": "{}",
    }  # fmt: skip


class JournalTest(unittest.TestCase):
    def setUp(self) -> None:
        self.dir = temp_dir()
        self.path = os.path.join(self.dir, "journal.db")
        self.journal = Journal(self.path)

    def tearDown(self) -> None:
        self.journal.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_every_step_outside_the_table_is_refused_by_the_code_and_by_the_file(self) -> None:
        states = list(JOURNAL_TRANSITIONS)
        for source in states:
            for target in states:
                if target in JOURNAL_TRANSITIONS[source]:
                    continue
                with self.subTest(f"{source} -> {target}"):
                    with self.assertRaises(JournalTransitionError):
                        self.journal.transition("call_1", [source], target)
        self.journal.assign(assignment(), NewReceipt("r-1", "accepted", "{}"))
        other = sqlite3.connect(self.path)
        with self.assertRaises(sqlite3.IntegrityError):
            other.execute("UPDATE assignments SET state = 'finishing' WHERE call_id = 'call_1'")
        other.execute("UPDATE outbox SET state = 'delivered'")  # an edge: allowed
        with self.assertRaises(sqlite3.IntegrityError):
            other.execute("UPDATE outbox SET state = 'pending'")
        other.close()

    def test_a_transition_moves_only_from_the_named_states(self) -> None:
        self.journal.assign(assignment(), NewReceipt("r-1", "accepted", "{}"))
        self.assertFalse(self.journal.transition("call_1", ["running"], "finishing"))
        self.assertTrue(self.journal.transition("call_1", ["accepting"], "running", "confirmed"))
        entry = self.journal.get("call_1")
        assert entry is not None
        self.assertEqual((entry.state, entry.state_reason), ("running", "confirmed"))

    def test_the_same_claim_continues_and_a_started_call_refuses_another_claim(self) -> None:
        self.assertEqual(self.journal.assign(assignment(), NewReceipt("r-1", "accepted", "{}"))[0], "journaled")
        self.assertEqual(self.journal.assign(assignment(), NewReceipt("r-2", "accepted", "{}"))[0], "same_claim")
        # A new claim of a call that never started replaces the old one; the old accepted is retired.
        self.assertEqual(self.journal.assign(assignment("clm_2"), NewReceipt("r-3", "accepted", "{}"))[0], "journaled")
        self.assertEqual([(r.receipt_id, r.state) for r in self.journal.receipts("call_1")], [("r-1", "obsolete"), ("r-3", "pending")])
        self.journal.transition("call_1", ["accepting"], "running")
        self.assertEqual(self.journal.assign(assignment("clm_3"), NewReceipt("r-4", "accepted", "{}"))[0], "conflict")

    def test_an_abandoned_call_retires_its_pending_receipts(self) -> None:
        self.journal.assign(assignment(), NewReceipt("r-1", "accepted", "{}"))
        self.assertTrue(self.journal.abandon("call_1", "run_ended"))
        self.assertEqual([(r.receipt_id, r.state) for r in self.journal.receipts("call_1")], [("r-1", "obsolete")])
        self.assertEqual(self.journal.calls_with_pending_receipts(), [])
        self.assertFalse(self.journal.abandon("call_1", "again"))

    def test_a_receipt_is_journaled_only_from_the_named_states(self) -> None:
        self.journal.assign(assignment(), NewReceipt("r-1", "accepted", "{}"))
        self.assertFalse(self.journal.append_receipt("call_1", NewReceipt("r-2", "completed", "{}"), ["running"], "finishing"))
        self.journal.transition("call_1", ["accepting"], "running")
        self.assertTrue(self.journal.append_receipt("call_1", NewReceipt("r-2", "completed", "{}"), ["running"], "finishing"))
        self.assertEqual([r.kind for r in self.journal.pending_receipts("call_1")], ["accepted", "completed"])
        self.assertTrue(self.journal.settle_receipt("r-1", "delivered", answer_json="{}"))
        self.assertFalse(self.journal.settle_receipt("r-1", "rejected", reject_code="x"))
        with self.assertRaises(JournalTransitionError):
            self.journal.settle_receipt("r-2", "pending")

    def test_the_file_is_wal_and_readable_with_plain_sqlite(self) -> None:
        db = sqlite3.connect(self.path)
        self.assertEqual(db.execute("PRAGMA journal_mode").fetchone()[0], "wal")
        self.assertEqual(db.execute("SELECT value FROM journal_meta WHERE name = 'schema_version'").fetchone()[0], "1")
        db.close()


if __name__ == "__main__":
    unittest.main()
