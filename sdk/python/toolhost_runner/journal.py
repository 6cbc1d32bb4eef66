"""The runner's durable journal: one SQLite file (WAL, ``synchronous=FULL``), the same schema as
@toolhost/runner's. Every method has committed when it returns, so the protocol's order (operation key
and assignment on disk before ``accepted`` is sent, a receipt on disk before it is sent) holds across
a crash. Every state change of a call goes through ``transition`` (checked against
JOURNAL_TRANSITIONS), every settling of a receipt through ``settle_receipt`` (OUTBOX_TRANSITIONS);
each is one conditional statement, so two processes sharing the file never both win the same change."""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from .journal_transitions import (
    JOURNAL_TRANSITIONS,
    OUTBOX_TRANSITIONS,
    JournalTransitionError,
    edge_literals,
    is_journal_edge,
    is_outbox_edge,
)

# The schema version this code writes; a newer file is refused rather than misread.
JOURNAL_SCHEMA_VERSION = 1

_DDL = """
CREATE TABLE IF NOT EXISTS journal_meta (name TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS assignments (
  call_id TEXT PRIMARY KEY NOT NULL, run_id TEXT NOT NULL, tool_name TEXT NOT NULL, effect TEXT NOT NULL,
  executor_id TEXT NOT NULL, claim_id TEXT NOT NULL, grant_secret TEXT NOT NULL, operation_key TEXT NOT NULL,
  call_json TEXT NOT NULL, state TEXT NOT NULL, state_reason TEXT, handle_id TEXT UNIQUE,
  created_at_ms INTEGER NOT NULL, updated_at_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS assignments_state ON assignments (state, updated_at_ms);
CREATE TABLE IF NOT EXISTS outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, receipt_id TEXT NOT NULL UNIQUE,
  call_id TEXT NOT NULL REFERENCES assignments (call_id) ON DELETE CASCADE,
  kind TEXT NOT NULL, body_text TEXT NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
  answer_json TEXT, reject_code TEXT, created_at_ms INTEGER NOT NULL, updated_at_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS outbox_call ON outbox (call_id, seq);
CREATE INDEX IF NOT EXISTS outbox_state ON outbox (state, seq);
"""

# The message a transition trigger aborts with.
ILLEGAL_TRANSITION_MESSAGE = "journal: not an edge of the state machine"


def _trigger(name: str, table: str, edges: Dict[str, Tuple[str, ...]]) -> List[str]:
    # Re-created on every open, so the file follows the code's table.
    return [
        f"DROP TRIGGER IF EXISTS {name}",
        f"CREATE TRIGGER {name} BEFORE UPDATE OF state ON {table} "
        f"WHEN OLD.state <> NEW.state AND (OLD.state || '>' || NEW.state) NOT IN ({edge_literals(edges)}) "
        f"BEGIN SELECT RAISE(ABORT, '{ILLEGAL_TRANSITION_MESSAGE}'); END",
    ]


@dataclass(frozen=True)
class JournalEntry:
    """One call's assignment: the claim, its grant (a secret), the operation key and the call as claimed."""

    call_id: str
    run_id: str
    tool_name: str
    effect: str
    executor_id: str
    claim_id: str
    grant: str
    operation_key: str
    call_json: str
    state: str
    state_reason: Optional[str]
    handle_id: Optional[str]
    created_at_ms: int
    updated_at_ms: int


@dataclass(frozen=True)
class OutboxReceipt:
    """One journaled receipt: its exact body text, sent on every delivery."""

    receipt_id: str
    call_id: str
    seq: int
    kind: str
    body_text: str
    state: str
    attempts: int
    answer_json: Optional[str]
    reject_code: Optional[str]


@dataclass(frozen=True)
class NewReceipt:
    """A receipt about to be journaled."""

    receipt_id: str
    kind: str
    body_text: str


_ENTRY_COLUMNS = (
    "call_id, run_id, tool_name, effect, executor_id, claim_id, grant_secret, operation_key, call_json, "
    "state, state_reason, handle_id, created_at_ms, updated_at_ms"
)
_RECEIPT_COLUMNS = "receipt_id, call_id, seq, kind, body_text, state, attempts, answer_json, reject_code"


def _now_ms() -> int:
    return int(time.time() * 1000)


class Journal:
    """The journal file; safe to share between the runner's threads (one lock) and other processes (WAL)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.RLock()
        db = sqlite3.connect(path, timeout=10.0, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
            db.execute("PRAGMA busy_timeout = 10000")
            db.execute("PRAGMA foreign_keys = ON")
            db.executescript(_DDL)
            db.execute("BEGIN IMMEDIATE")
            for statement in _trigger("assignments_state_edges", "assignments", JOURNAL_TRANSITIONS) + _trigger(
                "outbox_state_edges", "outbox", OUTBOX_TRANSITIONS
            ):
                db.execute(statement)
            row = db.execute("SELECT value FROM journal_meta WHERE name = 'schema_version'").fetchone()
            if row is None:
                db.execute(
                    "INSERT OR IGNORE INTO journal_meta (name, value) VALUES ('schema_version', ?)",
                    (str(JOURNAL_SCHEMA_VERSION),),
                )
            elif int(row[0]) > JOURNAL_SCHEMA_VERSION:
                raise ValueError(f"journal {path} has schema version {row[0]}; this runner reads {JOURNAL_SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            db.close()
            raise
        self._db = db

    def close(self) -> None:
        """Closes the file."""
        with self._lock:
            self._db.close()

    # --- transactions -------------------------------------------------------------------------

    def _atomic(self, work: Any) -> Any:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                result = work()
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return result

    # --- reading ------------------------------------------------------------------------------

    def get(self, call_id: str) -> Optional[JournalEntry]:
        """The call's entry, or None."""
        with self._lock:
            row = self._db.execute(f"SELECT {_ENTRY_COLUMNS} FROM assignments WHERE call_id = ?", (call_id,)).fetchone()
        return None if row is None else JournalEntry(*row)

    def by_handle(self, handle_id: str) -> Optional[JournalEntry]:
        """The entry of a deferred handle, or None."""
        with self._lock:
            row = self._db.execute(
                f"SELECT {_ENTRY_COLUMNS} FROM assignments WHERE handle_id = ?", (handle_id,)
            ).fetchone()
        return None if row is None else JournalEntry(*row)

    def entries_in(self, states: Iterable[str]) -> List[JournalEntry]:
        """Every entry in one of ``states``, oldest first."""
        wanted = tuple(states)
        marks = ", ".join("?" for _ in wanted)
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_ENTRY_COLUMNS} FROM assignments WHERE state IN ({marks}) ORDER BY created_at_ms, call_id",
                wanted,
            ).fetchall()
        return [JournalEntry(*row) for row in rows]

    def receipts(self, call_id: str) -> List[OutboxReceipt]:
        """The call's receipts in journal order."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_RECEIPT_COLUMNS} FROM outbox WHERE call_id = ? ORDER BY seq", (call_id,)
            ).fetchall()
        return [OutboxReceipt(*row) for row in rows]

    def pending_receipts(self, call_id: str) -> List[OutboxReceipt]:
        """The call's receipts not yet acknowledged, in journal order."""
        return [r for r in self.receipts(call_id) if r.state == "pending"]

    def calls_with_pending_receipts(self) -> List[str]:
        """Calls with an undelivered receipt (journaled by this or another process), oldest receipt first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT call_id, MIN(seq) AS first FROM outbox WHERE state = 'pending' GROUP BY call_id ORDER BY first"
            ).fetchall()
        return [row[0] for row in rows]

    def counts(self) -> Dict[str, int]:
        """Calls per state, and ``outbox_pending``."""
        with self._lock:
            counts = {state: 0 for state in JOURNAL_TRANSITIONS}
            for state, n in self._db.execute("SELECT state, COUNT(*) FROM assignments GROUP BY state"):
                counts[state] = n
            counts["outbox_pending"] = self._db.execute("SELECT COUNT(*) FROM outbox WHERE state = 'pending'").fetchone()[0]
        return counts

    # --- writing ------------------------------------------------------------------------------

    def _move(self, call_id: str, sources: Sequence[str], target: str, reason: Optional[str], extra: Dict[str, Any]) -> bool:
        for source in sources:
            if not is_journal_edge(source, target):
                raise JournalTransitionError("assignments", source, target)
        sets = ["state = ?", "state_reason = ?", "updated_at_ms = ?"] + [f"{name} = ?" for name in extra]
        marks = ", ".join("?" for _ in sources)
        cursor = self._db.execute(
            f"UPDATE assignments SET {', '.join(sets)} WHERE call_id = ? AND state IN ({marks})",
            (target, reason, _now_ms(), *extra.values(), call_id, *sources),
        )
        return cursor.rowcount == 1

    def transition(
        self, call_id: str, sources: Sequence[str], target: str, reason: Optional[str] = None, **columns: Any
    ) -> bool:
        """Moves the call from one of ``sources`` to ``target`` (an edge, checked); False when it was elsewhere."""
        return bool(self._atomic(lambda: self._move(call_id, sources, target, reason, columns)))

    def abandon(self, call_id: str, reason: str) -> bool:
        """``accepting`` → ``abandoned`` (never to start), its pending receipts retired as ``obsolete``, in one transaction."""

        def work() -> bool:
            if not self._move(call_id, ["accepting"], "abandoned", reason, {}):
                return False
            self._db.execute(
                "UPDATE outbox SET state = 'obsolete', updated_at_ms = ? WHERE call_id = ? AND state = 'pending'",
                (_now_ms(), call_id),
            )
            return True

        return bool(self._atomic(work))

    def settle_receipt(
        self, receipt_id: str, target: str, answer_json: Optional[str] = None, reject_code: Optional[str] = None
    ) -> bool:
        """Moves a pending receipt to ``target`` (``delivered`` with the answer, ``rejected`` with the code)."""
        if not is_outbox_edge("pending", target):
            raise JournalTransitionError("outbox", "pending", target)
        with self._lock:
            cursor = self._db.execute(
                "UPDATE outbox SET state = ?, answer_json = COALESCE(?, answer_json), reject_code = COALESCE(?, reject_code),"
                " updated_at_ms = ? WHERE receipt_id = ? AND state = 'pending'",
                (target, answer_json, reject_code, _now_ms(), receipt_id),
            )
        return cursor.rowcount == 1

    def count_attempt(self, receipt_id: str) -> None:
        """Counts one delivery attempt."""
        with self._lock:
            self._db.execute(
                "UPDATE outbox SET attempts = attempts + 1, updated_at_ms = ? WHERE receipt_id = ?", (_now_ms(), receipt_id)
            )

    def _insert_receipt(self, call_id: str, receipt: NewReceipt) -> None:
        now = _now_ms()
        self._db.execute(
            "INSERT INTO outbox (receipt_id, call_id, kind, body_text, state, created_at_ms, updated_at_ms)"
            " VALUES (?, ?, ?, ?, 'pending', ?, ?)",
            (receipt.receipt_id, call_id, receipt.kind, receipt.body_text, now, now),
        )

    def assign(self, assignment: Dict[str, str], accepted: NewReceipt) -> Tuple[str, Optional[JournalEntry]]:
        """Journals a claim's assignment with its ``accepted`` receipt, in one transaction.

        Answers ``("journaled", None)``, ``("same_claim", entry)`` (continue from the entry) or
        ``("conflict", entry)`` (the call started under another claim: never accept it again).
        """

        def work() -> Tuple[str, Optional[JournalEntry]]:
            existing = self.get(assignment["call_id"])
            if existing is not None:
                if existing.claim_id == assignment["claim_id"]:
                    return ("same_claim", existing)
                if existing.state not in ("accepting", "abandoned"):
                    return ("conflict", existing)
                # The old claim lapsed unconfirmed: its receipts are never sent again.
                self._db.execute(
                    "UPDATE outbox SET state = 'obsolete', updated_at_ms = ? WHERE call_id = ? AND state = 'pending'",
                    (_now_ms(), assignment["call_id"]),
                )
                columns = {k: v for k, v in assignment.items() if k != "call_id"}
                columns["handle_id"] = None
                if not self._move(assignment["call_id"], [existing.state], "accepting", None, columns):
                    raise RuntimeError(f"journal: call {assignment['call_id']} changed state during its own transaction")
            else:
                now = _now_ms()
                self._db.execute(
                    "INSERT INTO assignments (call_id, run_id, tool_name, effect, executor_id, claim_id, grant_secret,"
                    " operation_key, call_json, state, created_at_ms, updated_at_ms)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'accepting', ?, ?)",
                    (
                        assignment["call_id"], assignment["run_id"], assignment["tool_name"], assignment["effect"],
                        assignment["executor_id"], assignment["claim_id"], assignment["grant_secret"],
                        assignment["operation_key"], assignment["call_json"], now, now,
                    ),
                )  # fmt: skip
            self._insert_receipt(assignment["call_id"], accepted)
            return ("journaled", None)

        return self._atomic(work)

    def append_receipt(
        self,
        call_id: str,
        receipt: NewReceipt,
        sources: Sequence[str],
        target: Optional[str] = None,
        reason: Optional[str] = None,
    ) -> bool:
        """Journals ``receipt`` if the call is in one of ``sources`` (moving it to ``target``), in one transaction."""

        def work() -> bool:
            entry = self.get(call_id)
            if entry is None or entry.state not in sources:
                return False
            if target is not None and target != entry.state:
                if not self._move(call_id, [entry.state], target, reason, {}):
                    return False
            self._insert_receipt(call_id, receipt)
            return True

        return bool(self._atomic(work))

    def prune(self, retention_ms: int) -> int:
        """Removes closed calls older than ``retention_ms`` (their receipts go with them); answers how many."""
        with self._lock:
            cursor = self._db.execute(
                "DELETE FROM assignments WHERE state IN ('done', 'abandoned') AND updated_at_ms < ?",
                (_now_ms() - retention_ms,),
            )
        return cursor.rowcount
