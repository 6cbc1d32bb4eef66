"""One call, from its claim to its final receipt, in the protocol's order: verify the claim, journal
the operation key and assignment with ``accepted`` (one transaction), send it, and only on
``confirmed: true`` journal ``running`` and call the handler; journal its outcome before sending it.
An unknown outcome of a write call goes to the product's resolver; the handler never runs again."""

from __future__ import annotations

import json
import time
import uuid
from typing import TYPE_CHECKING, Any, Dict, Optional

from .decisions import (
    ClaimVerdict,
    decide_handler_outcome,
    error_object,
    receipt_body_text,
    reconcile_draft,
    verify_claim,
)
from .delivery import journal_receipt, new_receipt_id
from .errors import RunnerError
from .journal import JournalEntry, NewReceipt
from .measure import compact_text
from .tool_call import DeferredHandle, ToolCall, ToolContext

if TYPE_CHECKING:
    from .runner import Registration, ToolRunner

# The code of the `reconciliation_required` sent for a call found running after a restart.
UNKNOWN_AFTER_RESTART = "outcome_unknown_after_restart"


def serve_claim(rt: "ToolRunner", claim: Dict[str, Any]) -> None:
    """Serves a won claim (the slot of its tool is held; released in every case)."""
    call = claim["call"]
    tool = call["tool_name"]
    released = False
    try:
        rt._emit("claimed", {"call_id": call["call_id"], "claim_id": claim["claim_id"], "replayed": claim["replayed"]})
        registration = rt._registry.get(tool)
        verdict = verify_claim(call, None if registration is None else registration.effect, rt.binding_ids, rt.agent_ids)
        if verdict.type == "decline":
            rt._stats_add("claims_declined")
            rt._log.info("declined call %s: %s", call["call_id"], verdict.message)
            rt._emit("declined", {"call_id": call["call_id"], "code": verdict.code})
            return
        operation_key = rt._operation_key(call)
        if verdict.type == "serve" and registration is not None and registration.authorize is not None:
            try:
                allowed = registration.authorize(ToolCall.from_claim(call, claim["claim_id"], operation_key)) is True
            except Exception:  # noqa: BLE001 - the product's check failing is not a refusal
                # Not accepted now: the claim lapses and the call comes back (here or to another executor).
                rt._log.exception("authorize of call %s raised; the call is not accepted now and will come back", call["call_id"])
                rt._emit("declined", {"call_id": call["call_id"], "code": "authorize_failed"})
                return
            if not allowed:
                rt._stats_add("authorizations_denied")
                verdict = ClaimVerdict("refuse", "not_authorized", "the product refused this call for its subject")
        entry_fields = {
            "call_id": call["call_id"],
            "run_id": call["run_id"],
            "tool_name": tool,
            "effect": call["effect"],
            "executor_id": rt.executor_id,
            "claim_id": claim["claim_id"],
            "grant_secret": claim["grant"],
            "operation_key": operation_key,
            "call_json": compact_text(call),
        }
        receipt_id = new_receipt_id("accepted")
        body_text = receipt_body_text(rt.executor_id, claim["claim_id"], claim["grant"], receipt_id, {"kind": "accepted"})
        accepted = NewReceipt(receipt_id, "accepted", body_text)
        outcome, existing = rt._journal.assign(entry_fields, accepted)
        if outcome == "conflict" or (outcome == "same_claim" and existing is not None and existing.state != "accepting"):
            # Started under another claim, or already beyond accepting here: never accept it again.
            return
        rt._emit("assignment_journaled", {"call_id": call["call_id"], "operation_key": entry_fields["operation_key"]})
        released = True
        accept_and_run(rt, call["call_id"], verdict)
    finally:
        if not released:
            rt._slots.release(tool)


def accept_and_run(rt: "ToolRunner", call_id: str, refusal: Optional[ClaimVerdict] = None) -> None:
    """Delivers the call's journaled ``accepted`` and runs the handler on ``confirmed: true`` (releases the slot)."""
    entry = rt._journal.get(call_id)
    if entry is None:
        return
    tool = entry.tool_name
    released = False
    try:
        rt._delivery.deliver_call(call_id)
        accepted = [r for r in rt._journal.receipts(call_id) if r.kind == "accepted" and r.state != "obsolete"]
        if not accepted or accepted[-1].state == "pending":
            return  # gave up for now (stopping): the next start resends it
        last = accepted[-1]
        confirmed = False
        if last.state == "delivered" and last.answer_json is not None:
            try:
                confirmed = json.loads(last.answer_json).get("confirmed") is True
            except ValueError:
                confirmed = False
        if not confirmed:
            reason = last.reject_code or "not_confirmed"
            if rt._journal.abandon(call_id, reason):
                rt._stats_add("accepts_refused")
                rt._cancellations.discard(call_id)
                rt._emit("abandoned", {"call_id": call_id, "reason": reason})
            return
        if not rt._journal.transition(call_id, ["accepting"], "running", "confirmed"):
            return
        entry = rt._journal.get(call_id)
        if entry is None:
            return
        rt._stats_add("accepts_confirmed")
        rt._emit("confirmed", {"call_id": call_id, "operation_key": entry.operation_key})
        registration = rt._registry.get(tool)
        instead: Optional[Dict[str, Any]] = None
        if refusal is not None and refusal.type == "refuse":
            instead = {"kind": "failed", "error": error_object(refusal.code, refusal.message)}
        elif call_id in rt._cancellations:
            instead = {"kind": "cancelled", "error": error_object("cancelled", "cancelled before the business task started")}
        elif registration is None:
            instead = {"kind": "failed", "error": error_object("tool_not_registered", f"tool {tool} is not registered here")}
        if instead is not None:
            # Nothing ran: the outcome is certain, no reconciliation needed.
            receipt_id = journal_receipt(rt, entry, instead, ["running"], "finishing", instead["kind"])
            released = True
            rt._slots.release(tool)
            if receipt_id is not None:
                rt._emit("result_journaled", {"call_id": call_id, "receipt_id": receipt_id, "kind": instead["kind"]})
                rt._delivery.deliver_call(call_id)
            return
        released = True
        run_handler(rt, entry, registration)  # type: ignore[arg-type]
    finally:
        if not released:
            rt._slots.release(tool)


def run_handler(rt: "ToolRunner", entry: JournalEntry, registration: "Registration") -> None:
    """Runs the handler of a confirmed call (journal state ``running``), journals and delivers its outcome."""
    call = ToolCall.from_entry(entry)
    cancelled = rt._cancellations.event_for(entry.call_id)
    context: Optional[ToolContext] = None

    def progress(data: Dict[str, Any]) -> None:
        if not isinstance(data, dict):
            raise RunnerError("invalid_json", "progress data must be a JSON object (a dict)")
        try:
            compact_text(data).encode("utf-8")
        except (ValueError, TypeError, UnicodeEncodeError, RecursionError) as error:
            raise RunnerError("invalid_json", f"progress data is not JSON: {error}") from error
        receipt_id = journal_receipt(rt, entry, {"kind": "progress", "progress": data}, ["running", "deferred"])
        if receipt_id is None:
            raise RunnerError("call_finished", f"call {entry.call_id} is finished; progress cannot be reported any more")
        rt._spawn(f"progress {entry.call_id}", lambda: rt._delivery.deliver_call(entry.call_id))

    def defer() -> DeferredHandle:
        if context is not None and not context.open:
            raise RunnerError("call_finished", "defer() must be called while the handler runs")
        handle_id = f"dh_{uuid.uuid4()}"
        if not rt._journal.transition(entry.call_id, ["running"], "deferred", "deferred", handle_id=handle_id):
            raise RunnerError("call_finished", f"call {entry.call_id} is not running; it cannot be deferred")
        handle = DeferredHandle(handle_id, entry.call_id, entry.run_id, entry.tool_name, entry.operation_key)
        rt._emit("deferred", {"call_id": entry.call_id, "handle_id": handle_id, "operation_key": entry.operation_key})
        return handle

    context = ToolContext(call, cancelled, progress, defer)
    rt._stats_add("handlers_started")
    started = time.monotonic()
    try:
        value: Any = registration.handler(call, context)
        returned = True
    except Exception as error:  # noqa: BLE001 - any exception is an outcome, decided below
        value, returned = error, False
    finally:
        context.open = False
        rt._cancellations.detach(entry.call_id)
    rt._emit("effect_done", {"call_id": entry.call_id, "operation_key": entry.operation_key, "returned": returned})
    # The server's effect is authoritative: a read registration never downgrades a write call.
    effect = "write" if "write" in (entry.effect, registration.effect) else "read"
    outcome = decide_handler_outcome(returned, value, effect, context.handle is not None, registration.result_type)
    duration_ms = round((time.monotonic() - started) * 1000, 1)
    if outcome.draft is None:
        rt._slots.release(entry.tool_name)
        rt._log.info("call %s deferred (%s ms)", entry.call_id, duration_ms)
        return
    if not returned and outcome.draft["kind"] not in ("failed", "cancelled"):
        rt._log.error("a handler raised: the outcome of call %s is unknown", entry.call_id, exc_info=value)
    receipt_id = journal_receipt(rt, entry, outcome.draft, ["running", "deferred"], outcome.state, outcome.code)
    rt._slots.release(entry.tool_name)
    if receipt_id is None:
        rt._log.warning("call %s was finished elsewhere before its handler returned", entry.call_id)
        return
    rt._log.info("call finished: %s %s %s (%s ms)", entry.call_id, entry.tool_name, outcome.draft["kind"], duration_ms)
    rt._stats_add("handlers_" + {"completed": "completed", "failed": "failed", "cancelled": "cancelled"}.get(outcome.draft["kind"], "unknown"))
    rt._emit("result_journaled", {"call_id": entry.call_id, "receipt_id": receipt_id, "kind": outcome.draft["kind"]})
    if outcome.state == "reconciling":
        rt._emit("reconciliation_required", {"call_id": entry.call_id, "operation_key": entry.operation_key, "code": outcome.code})
    rt._delivery.deliver_call(entry.call_id)
    if outcome.state == "reconciling":
        reconcile_call(rt, entry.call_id, send_unknown=False)


def reconcile_call(rt: "ToolRunner", call_id: str, send_unknown: bool) -> str:
    """Reconciles a write call whose outcome is unknown; answers ``resolved``, ``unresolved`` or ``not_reconciling``."""
    entry = rt._journal.get(call_id)
    if entry is None:
        return "not_reconciling"
    if entry.state == "running":
        if send_unknown:
            draft = {
                "kind": "reconciliation_required",
                "error": error_object(UNKNOWN_AFTER_RESTART, "the executor restarted before it journaled the handler's outcome"),
            }
            moved = journal_receipt(rt, entry, draft, ["running"], "reconciling", UNKNOWN_AFTER_RESTART) is not None
        else:
            moved = rt._journal.transition(call_id, ["running"], "reconciling", "server_reconciliation_required")
        if moved:
            rt._emit("reconciliation_required", {"call_id": call_id, "operation_key": entry.operation_key, "code": UNKNOWN_AFTER_RESTART})
        entry = rt._journal.get(call_id)
    if entry is None or entry.state != "reconciling":
        return "not_reconciling"
    # The server hears "unknown" before it hears the outcome.
    rt._delivery.deliver_call(call_id)
    if rt._journal.pending_receipts(call_id):
        return "unresolved"
    resolver = rt._registry.resolver(entry.tool_name)
    if resolver is None:
        rt._log.warning("no reconciler for %s: call %s stays unresolved", entry.tool_name, call_id)
        return "unresolved"
    try:
        answer = resolver(ToolCall.from_entry(entry), entry.operation_key)
    except Exception:  # noqa: BLE001 - asked again later
        rt._log.exception("the reconciler of call %s raised; it is asked again later", call_id)
        return "unresolved"
    if answer is None:
        return "unresolved"
    registration = rt._registry.get(entry.tool_name)
    draft = reconcile_draft(answer, None if registration is None else registration.result_type)
    if draft is None:
        rt._log.error("the reconciler's answer for call %s cannot be sent: %r; asked again later", call_id, answer)
        return "unresolved"
    receipt_id = journal_receipt(rt, entry, draft, ["reconciling"], "finishing", "reconciled")
    if receipt_id is None:
        return "not_reconciling"
    rt._stats_add("reconciliations_resolved")
    rt._emit("reconciled", {"call_id": call_id, "operation_key": entry.operation_key, "kind": draft["kind"]})
    rt._emit("result_journaled", {"call_id": call_id, "receipt_id": receipt_id, "kind": draft["kind"]})
    rt._delivery.deliver_call(call_id)
    return "resolved"
