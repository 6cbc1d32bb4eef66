"""The runner's background loops, each run supervised by the runner (anything raised in one fails the
runner with ``internal_failure``, never a stray thread traceback): the heartbeat at the server's
interval, the pending long-poll that claims calls (batched with ``?claim=N`` when offered), and the
maintenance loop that sweeps the outbox and retries unresolved reconciliations. Monotonic clocks."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Dict, List

from .answer_reader import HttpOutcome, is_transient_status
from .decisions import refuses_the_key
from .execution import reconcile_call, serve_claim

if TYPE_CHECKING:
    from .runner import ToolRunner

# A claim refused for its call only (another executor won it, the call ended) is skipped this long.
SKIP_REFUSED_CLAIM_S = 60.0

# How long the pending loop waits when the candidates it got were none it could take.
IDLE_CANDIDATES_WAIT_S = 0.2


def _executor_refusal(rt: "ToolRunner", channel: str, connection_id: str, outcome: HttpOutcome) -> float:
    """Handles a failed executor-route request; answers how long to wait before the next attempt."""
    if outcome.type == "refused":
        handled = rt._connection.handle_refusal(connection_id, outcome.code, outcome.details)
        if handled in ("reconnected", "stale", "fenced"):
            return 0.0
    refused = outcome.type == "refused" and not is_transient_status(outcome.status)
    decision = rt._watch.report(channel, "refused" if refused else "transient", f"{outcome.status} {outcome.code or outcome.type}", outcome.message)
    if decision.fatal:
        rt._fail_refused(channel)
    return decision.delay_s


def cancellations_arrived(rt: "ToolRunner", cancellations: List[Dict[str, Any]]) -> None:
    """Records business cancel requests; a deferred call's is announced with its handle."""
    for request in cancellations:
        call_id = request["call_id"]
        if rt._cancellations.request(call_id):
            rt._stats_add("cancellations_received")
            entry = rt._journal.get(call_id)
            rt._emit("cancel_requested", {"call_id": call_id, "handle_id": None if entry is None else entry.handle_id})


def heartbeat_loop(rt: "ToolRunner") -> None:
    """Renews the lease every ``heartbeat_interval_ms`` (sooner while in trouble)."""
    delay = 0.0
    while not rt._stopping.wait(delay):
        connection = rt._connection.current
        if connection is None:
            return
        outcome = rt._client.heartbeat(rt.executor_id, connection.connection_id)
        if outcome.type == "answer":
            rt._watch.clear("heartbeat")
            rt._stats_add("heartbeats_sent")
            cancellations_arrived(rt, outcome.body["cancellations"])
            delay = outcome.body["heartbeat_interval_ms"] / 1000
        else:
            delay = min(_executor_refusal(rt, "heartbeat", connection.connection_id, outcome), connection.heartbeat_interval_s)


def pending_loop(rt: "ToolRunner") -> None:
    """Long-polls candidates, claims those this runner serves and has slots for, one worker thread each."""
    skip_until: Dict[str, float] = {}
    delay = 0.0
    while not rt._stopping.wait(delay):
        delay = 0.0
        connection = rt._connection.current
        if connection is None:
            return
        free = rt._slots.free_everywhere()
        batch = connection.batch if rt._batching else None
        claim = min(batch["claim_max"], free) if batch is not None and not rt._claims_in_trouble else 0
        outcome = rt._poll_client.pending(rt.executor_id, connection.connection_id, rt._poll_page_size, rt._poll_wait_ms, claim)
        rt._stats_add("polls")
        if rt._stopping.is_set():
            return
        if outcome.type != "answer":
            delay = _executor_refusal(rt, "pending", connection.connection_id, outcome)
            continue
        rt._watch.clear("pending")
        body = outcome.body
        cancellations_arrived(rt, body["cancellations"])
        for won in body.get("claims") or []:
            call = won["call"]
            rt._stats_add("claims_batched")
            if rt._slots.try_take(call["tool_name"]):
                if not rt._spawn_owned(call["call_id"], f"call {call['call_id']}", lambda won=won: serve_claim(rt, won)):
                    rt._slots.release(call["tool_name"])
            else:
                rt._log.info("batched claim of %s has no free slot; its claim lapses", call["call_id"])
        claimed_before = rt._stats_get("claims_won") + rt._stats_get("claims_batched")
        now = time.monotonic()
        for key in [k for k, until in skip_until.items() if until <= now]:
            del skip_until[key]
        for candidate in body["data"]:
            call_id = candidate["call_id"]
            tool = candidate["tool_name"]
            if call_id in skip_until or rt._is_busy(call_id):
                continue
            if rt._registry.get(tool) is None:
                rt._unserved(tool)
                continue
            if not rt._slots.try_take(tool):
                continue
            won_claim = rt._client.claim(rt.executor_id, connection.connection_id, candidate["run_id"], call_id)
            if won_claim.type == "answer":
                rt._watch.clear("claim")
                rt._claims_in_trouble = False
                rt._stats_add("claims_won")
                if not rt._spawn_owned(call_id, f"call {call_id}", lambda won=won_claim.body: serve_claim(rt, won)):
                    rt._slots.release(tool)
                continue
            rt._slots.release(tool)
            if won_claim.type == "refused" and not is_transient_status(won_claim.status) and not refuses_the_key(won_claim):
                handled = rt._connection.handle_refusal(connection.connection_id, won_claim.code, won_claim.details)
                if handled != "other":
                    break
                skip_until[call_id] = time.monotonic() + SKIP_REFUSED_CLAIM_S
                continue
            rt._claims_in_trouble = True
            kind = "refused" if refuses_the_key(won_claim) else "transient"
            decision = rt._watch.report("claim", kind, f"{won_claim.status} {won_claim.code or won_claim.type}", won_claim.message)
            if decision.fatal:
                rt._fail_refused("claims")
            delay = decision.delay_s
            break
        if delay == 0.0 and body["data"] and rt._stats_get("claims_won") + rt._stats_get("claims_batched") == claimed_before:
            # Candidates, but none this runner could take now (no free slot, not served): the answer
            # would come back at once, so wait for a slot instead of asking again right away.
            delay = IDLE_CANDIDATES_WAIT_S


def maintenance_loop(rt: "ToolRunner") -> None:
    """Sweeps the outbox (receipts other processes journaled, deliveries that gave up) and retries
    unresolved reconciliations."""
    last_reconcile = time.monotonic()
    while not rt._stopping.wait(rt._outbox_sweep_interval_s):
        # An `accepting` call's accepted belongs to its accept flow (or the next start), never to the sweep.
        calls = [c for c in rt._journal.calls_with_pending_receipts() if not rt._is_busy(c) and _state(rt, c) != "accepting"]
        connection = rt._connection.current
        batch = connection.batch if connection is not None and rt._batching else None
        if batch is not None and len(calls) > 1:
            rt._stats_add("receipt_batches")
            rt._delivery.deliver_batch(calls, batch["receipts_max"])
        for call_id in calls:
            rt._spawn_owned(call_id, f"sweeping {call_id}", lambda c=call_id: rt._delivery.deliver_call(c))
        if time.monotonic() - last_reconcile >= rt._reconcile_interval_s:
            last_reconcile = time.monotonic()
            for entry in rt._journal.entries_in(["reconciling"]):
                if not rt._is_busy(entry.call_id):
                    rt._spawn_owned(entry.call_id, f"reconciling {entry.call_id}", lambda c=entry.call_id: reconcile_call(rt, c, False))


def _state(rt: "ToolRunner", call_id: str) -> str:
    entry = rt._journal.get(call_id)
    return "done" if entry is None else entry.state
