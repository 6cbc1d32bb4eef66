"""Recovery at start: after connecting with the same executor ID, report every open journal entry
(``calls/report``) and follow each answer together with the journal's own state (``plan_recovery``):
resend an ``accepted`` whose answer was lost, redeliver unacknowledged receipts with the same IDs and
bodies, reconcile write calls whose handler may have run, run read calls again, drop what is not
this executor's any more."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List

from .answer_reader import is_transient_status
from .decisions import plan_recovery, reported_call_of
from .execution import accept_and_run, reconcile_call, run_handler
from .journal_transitions import OPEN_STATES

if TYPE_CHECKING:
    from .runner import ToolRunner

# Most calls per report request.
REPORT_CALLS_MAX = 200


def recover_journal(rt: "ToolRunner") -> Dict[str, int]:
    """Reports the journal and starts each entry's recovery step in the background; answers steps per type."""
    entries = rt._journal.entries_in(OPEN_STATES)
    reported: List[Dict[str, Any]] = []
    for entry in entries:
        call = reported_call_of(entry, rt._journal.receipts(entry.call_id))
        if call is not None:
            reported.append(call)
    answers = _report_all(rt, reported)
    plans = [(entry, plan_recovery(entry, answers.get(entry.call_id))) for entry in entries]
    redeliver = [entry.call_id for entry, step in plans if step.type == "deliver"]
    connection = rt._connection.current
    batch = connection.batch if connection is not None and rt._batching else None
    if batch is not None and len(redeliver) > 1:
        # After a crash with many receipts waiting, their first ones go out in batched requests.
        for start in range(0, len(redeliver), batch["receipts_max"]):
            rt._stats_add("receipt_batches")
            rt._delivery.deliver_batch(redeliver[start : start + batch["receipts_max"]], batch["receipts_max"])
    steps: Dict[str, int] = {}
    for entry, step in plans:
        steps[step.type] = steps.get(step.type, 0) + 1
        call_id = entry.call_id
        if step.type in ("resume_accept", "rerun"):
            registration = rt._registry.get(entry.tool_name)
            if registration is None:
                rt._log.warning("journaled call %s of unregistered tool %s waits for the next start", call_id, entry.tool_name)
                continue

            def resume(entry=entry, step=step, registration=registration) -> None:
                if not rt._slots.take(entry.tool_name, rt._stopping):
                    return
                if step.type == "resume_accept":
                    accept_and_run(rt, entry.call_id)
                else:
                    run_handler(rt, entry, registration)

            rt._spawn_owned(call_id, f"recovering {call_id}", resume)
        elif step.type == "abandon":
            if rt._journal.abandon(call_id, step.reason):
                rt._emit("abandoned", {"call_id": call_id, "reason": step.reason})
        elif step.type == "deliver":
            rt._spawn_owned(call_id, f"redelivering {call_id}", lambda c=call_id: rt._delivery.deliver_call(c))
        elif step.type == "reconcile":
            rt._spawn_owned(
                call_id, f"reconciling {call_id}", lambda c=call_id, s=step.send_unknown: reconcile_call(rt, c, s)
            )
        elif step.type == "close":
            if rt._journal.transition(call_id, [entry.state], "done", step.reason):
                rt._cancellations.discard(call_id)
                rt._emit("call_done", {"call_id": call_id, "reason": step.reason})
    if entries:
        rt._log.info("recovered the journal: %d reported, steps %s", len(reported), steps)
    rt._emit("recovered", {"reported": len(reported), "steps": steps})
    return steps


def _report_all(rt: "ToolRunner", calls: List[Dict[str, Any]]) -> Dict[str, Dict[str, Any]]:
    answers: Dict[str, Dict[str, Any]] = {}
    for start in range(0, len(calls), REPORT_CALLS_MAX):
        page = calls[start : start + REPORT_CALLS_MAX]
        while not rt._stopping.is_set():
            connection = rt._connection.current
            if connection is None:
                return answers
            outcome = rt._client.report(rt.executor_id, connection.connection_id, page)
            if outcome.type == "answer":
                rt._watch.clear("report")
                for report in outcome.body["calls"]:
                    answers[report["call_id"]] = report
                break
            if outcome.type == "refused":
                handled = rt._connection.handle_refusal(connection.connection_id, outcome.code, outcome.details)
                if handled in ("reconnected", "stale"):
                    continue
                if handled == "fenced":
                    return answers
                if not is_transient_status(outcome.status):
                    rt._log.error("the server refused the journal report (%s); those calls wait for the next start", outcome.code)
                    break
            decision = rt._watch.report("report", "transient", outcome.code or outcome.type, outcome.message)
            rt._stopping.wait(decision.delay_s)
    return answers
