"""Delivering the outbox. A call's pending receipts are sent in journal order, one call's deliveries one
at a time (so a final receipt never overtakes its progress), each until the server acknowledges it:
same ``receipt_id``, same body bytes, exponential backoff with jitter between attempts. A delivered
final receipt closes its call. A ``completed`` the server refuses for good as too large or invalid is
followed by a ``failed`` receipt (``result_refused``), so the call still ends. While the runner stops
(or in a process that only finishes deferred calls) delivery gives up after a bounded time and leaves
the receipt pending for the next start."""

from __future__ import annotations

import json
import random
import threading
import time
import uuid
from typing import TYPE_CHECKING, Any, Dict, List, Optional

from .answer_reader import HttpOutcome, read_answer
from .decisions import (
    backoff_delay_s,
    decide_delivery,
    is_result_refusal,
    receipt_body_text,
    refused_result_draft,
)
from .journal import JournalEntry, NewReceipt, OutboxReceipt
from . import wire_shapes as shapes

if TYPE_CHECKING:
    from .runner import ToolRunner


def new_receipt_id(kind: str) -> str:
    """A new receipt ID (random, so two processes never mint the same one; the kind helps reading logs)."""
    return f"r-{kind}-{uuid.uuid4()}"


def journal_receipt(
    rt: "ToolRunner",
    entry: JournalEntry,
    draft: Dict[str, Any],
    sources: List[str],
    target: Optional[str] = None,
    reason: Optional[str] = None,
) -> Optional[str]:
    """Journals ``draft`` for ``entry``'s claim if the call is in ``sources``; answers the receipt ID or None."""
    receipt_id = new_receipt_id(draft["kind"])
    body_text = receipt_body_text(entry.executor_id, entry.claim_id, entry.grant, receipt_id, draft)
    if not rt._journal.append_receipt(entry.call_id, NewReceipt(receipt_id, draft["kind"], body_text), sources, target, reason):
        return None
    rt._stats_add("receipts_journaled")
    rt._emit("receipt_journaled", {"call_id": entry.call_id, "receipt_id": receipt_id, "kind": draft["kind"]})
    return receipt_id


class ReceiptDelivery:
    """The outbox sender."""

    def __init__(self, rt: "ToolRunner") -> None:
        self._rt = rt
        self._locks: Dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def _lock_of(self, call_id: str) -> threading.Lock:
        with self._guard:
            lock = self._locks.get(call_id)
            if lock is None:
                lock = self._locks[call_id] = threading.Lock()
            return lock

    def deliver_call(self, call_id: str, give_up_after_s: Optional[float] = None) -> None:
        """Delivers the call's pending receipts in order (returns early when one stays pending)."""
        rt = self._rt
        started = time.monotonic()
        with self._lock_of(call_id):
            while True:
                entry = rt._journal.get(call_id)
                pending = rt._journal.pending_receipts(call_id)
                if entry is None or not pending:
                    break
                if not self._deliver_one(entry, pending[0], started, give_up_after_s):
                    return
            entry = rt._journal.get(call_id)
            if entry is not None and entry.state == "finishing" and not rt._journal.pending_receipts(call_id):
                if rt._journal.transition(call_id, ["finishing"], "done", "delivered"):
                    rt._cancellations.discard(call_id)
                    rt._emit("call_done", {"call_id": call_id, "reason": "delivered"})
                    # Nothing is left to send for this call: its lock can go.
                    with self._guard:
                        self._locks.pop(call_id, None)

    def _deliver_one(self, entry: JournalEntry, receipt: OutboxReceipt, started: float, give_up_after_s: Optional[float]) -> bool:
        """Delivers one receipt until it settles (True) or delivery gives up for now (False)."""
        rt = self._rt
        attempt = 0
        while True:
            # Another process (the sweep of a runner sharing the journal) may have settled it meanwhile.
            current = [r for r in rt._journal.receipts(entry.call_id) if r.receipt_id == receipt.receipt_id]
            if not current or current[0].state != "pending":
                return True
            rt._journal.count_attempt(receipt.receipt_id)
            outcome = rt._client.receipt(entry.run_id, entry.call_id, receipt.body_text)
            if self.settle(entry, receipt, outcome):
                return True
            attempt += 1
            rt._stats_add("delivery_retries")
            delay = backoff_delay_s(attempt - 1, rt._backoff_min_s, rt._backoff_max_s, random.random())
            give_up_at = self._give_up_at(started, give_up_after_s)
            if give_up_at is not None and time.monotonic() + delay > give_up_at:
                rt._log.warning("receipt %s of call %s left in the outbox for later delivery", receipt.receipt_id, entry.call_id)
                return False
            if rt._failure is not None and rt._failure.code in ("access_refused", "fenced") and give_up_at is None:
                return False
            # While stopping, the stop event is already set: sleep the bounded delay plainly.
            if rt._stopping.is_set():
                time.sleep(delay)
            else:
                rt._stopping.wait(delay)

    def _give_up_at(self, started: float, give_up_after_s: Optional[float]) -> Optional[float]:
        rt = self._rt
        candidates = []
        if give_up_after_s is not None:
            candidates.append(started + give_up_after_s)
        if rt._stopping_since is not None:
            candidates.append(rt._stopping_since + rt._stop_delivery_timeout_s)
        return min(candidates) if candidates else None

    def settle(self, entry: JournalEntry, receipt: OutboxReceipt, outcome: HttpOutcome) -> bool:
        """Journals what one attempt's ``outcome`` means; True when the receipt settled (acked or rejected)."""
        rt = self._rt
        verdict = decide_delivery(outcome)
        if verdict.type == "acked" and verdict.answer is not None:
            rt._watch.clear("receipt")
            replayed = verdict.answer["replayed"]
            if receipt.kind == "accepted":
                rt._emit("accept_sent", {"call_id": entry.call_id, "confirmed": verdict.answer.get("confirmed") is True, "replayed": replayed})
            rt._emit("receipt_sent", {"call_id": entry.call_id, "receipt_id": receipt.receipt_id, "kind": receipt.kind, "replayed": replayed})
            rt._journal.settle_receipt(receipt.receipt_id, "delivered", answer_json=outcome.text)
            rt._stats_add("receipts_acked")
            if replayed:
                rt._stats_add("receipts_replayed")
            rt._emit("receipt_acked", {"call_id": entry.call_id, "receipt_id": receipt.receipt_id, "kind": receipt.kind, "replayed": replayed})
            return True
        if verdict.type == "rejected":
            rt._watch.clear("receipt")
            rt._journal.settle_receipt(receipt.receipt_id, "rejected", reject_code=verdict.code)
            rt._stats_add("receipts_rejected")
            level = rt._log.warning if receipt.kind == "progress" or verdict.code == "call_already_final" else rt._log.error
            level("the server refused receipt %s (%s) of call %s for good: %s %s", receipt.receipt_id, receipt.kind, entry.call_id, verdict.code, verdict.message)
            rt._emit("receipt_rejected", {"call_id": entry.call_id, "receipt_id": receipt.receipt_id, "kind": receipt.kind, "code": verdict.code})
            if is_result_refusal(receipt.kind, verdict):
                journal_receipt(rt, entry, refused_result_draft(verdict.code, verdict.message), ["finishing"])
            return True
        kind = "refused" if verdict.key_refused else "transient"
        if rt._watch.report("receipt", kind, f"{verdict.status} {verdict.code}", verdict.message).fatal:
            rt._fail_refused("receipts")
        return False

    def deliver_batch(self, call_ids: List[str], receipts_max: int) -> List[str]:
        """Sends the first pending receipt of each call in one batched request (the server offered it);
        answers the calls whose receipt settled, so their remaining receipts go out per call."""
        rt = self._rt
        items = []
        for call_id in call_ids[:receipts_max]:
            entry = rt._journal.get(call_id)
            pending = rt._journal.pending_receipts(call_id)
            if entry is not None and pending:
                items.append((entry, pending[0]))
        if not items:
            return []
        outcome = rt._client.receipts(
            rt.executor_id,
            [{"run_id": e.run_id, "call_id": e.call_id, "body_text": r.body_text} for e, r in items],
        )
        if outcome.type != "answer" or len(outcome.body["data"]) != len(items):
            return []
        settled = []
        for (entry, receipt), item in zip(items, outcome.body["data"]):
            rt._journal.count_attempt(receipt.receipt_id)
            answer = read_answer(item["status"], json.dumps(item["body"], ensure_ascii=False).encode("utf-8"), shapes.RECEIPT_ANSWER)
            with self._lock_of(entry.call_id):
                current = [r for r in rt._journal.pending_receipts(entry.call_id) if r.receipt_id == receipt.receipt_id]
                if current and self.settle(entry, receipt, answer):
                    settled.append(entry.call_id)
        return settled
